import CBLAS
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Thin, typed wrappers over OpenBLAS. Every matrix product in the project goes through here,
/// so the row-major conventions live in exactly one place.
public enum BLAS {
    /// Sets the number of OpenBLAS worker threads (process-wide: OpenBLAS keeps one pool).
    public static func setThreads(_ count: Int) {
        // Only on a change: OpenBLAS 0.3.x restarts a stopped worker pool inside every
        // set_num_threads call (see `stopIdleWorkers`), and each load of the embedder says 1 again.
        guard threads != max(1, count) else { return }
        openblas_set_num_threads(Int32(max(1, count)))
    }

    /// OpenBLAS (pthreads build) starts its worker threads when the library loads, and an idle
    /// worker spins on sched_yield for ~0.1 s before it sleeps: on a cold start that is the second
    /// core, taken from the loads meant to run there. A process that runs BLAS on one thread stops
    /// them with this (OpenBLAS starts them again if a threaded call ever needs them). Call it at
    /// process start, before any BLAS work: stopping workers under a running threaded call is not
    /// safe. A BLAS without this entry point (another build or vendor) is left alone.
    public static func stopIdleWorkers() {
        guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "blas_thread_shutdown_") else { return }
        _ = unsafeBitCast(symbol, to: (@convention(c) () -> Int32).self)()
    }

    public static var threads: Int { Int(openblas_get_num_threads()) }

    public static var configDescription: String {
        guard let cString = openblas_get_config() else { return "OpenBLAS" }
        return String(cString: cString)
    }

    /// C[m×n] = alpha · op(A) · op(B) + beta · C, all row-major, with explicit leading dimensions
    /// so callers can multiply strided views (attention heads) without copying.
    @inlinable
    public static func gemm(
        transA: Bool = false, transB: Bool = false,
        m: Int, n: Int, k: Int,
        alpha: Float = 1,
        a: UnsafePointer<Float>, lda: Int,
        b: UnsafePointer<Float>, ldb: Int,
        beta: Float = 0,
        c: UnsafeMutablePointer<Float>, ldc: Int
    ) {
        cblas_sgemm(CblasRowMajor,
                    transA ? CblasTrans : CblasNoTrans,
                    transB ? CblasTrans : CblasNoTrans,
                    Int32(m), Int32(n), Int32(k),
                    alpha, a, Int32(lda), b, Int32(ldb),
                    beta, c, Int32(ldc))
    }

    /// C = A · Bᵀ (+ beta · C) with the columns of C (rows of B) dealt to `parts` threads.
    /// For a handful of rows of A the cost is OpenBLAS packing B (a weight matrix) on every call;
    /// splitting B's rows lets each core pack and multiply only its half.
    public static func gemmSplittingColumns(
        parts: Int, m: Int, n: Int, k: Int,
        a: UnsafePointer<Float>, lda: Int,
        b: UnsafePointer<Float>, ldb: Int,
        beta: Float = 0,
        c: UnsafeMutablePointer<Float>, ldc: Int
    ) {
        let chunk = ((n + max(1, parts) - 1) / max(1, parts) + 15) / 16 * 16
        // A few rows: our unpacked kernel (accumulates into C, so beta must be 1).
        let small = m <= SmallGemm.maxRows && k % 8 == 0 && beta == 1
        @Sendable func multiply(_ lo: Int, _ hi: Int, _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ c: UnsafeMutablePointer<Float>) {
            if small {
                SmallGemm.accumulate(m: m, n: hi - lo, k: k, a: a, lda: lda, b: b + lo * ldb, ldb: ldb, c: c + lo, ldc: ldc)
            } else {
                gemm(transB: true, m: m, n: hi - lo, k: k, a: a, lda: lda, b: b + lo * ldb, ldb: ldb, beta: beta, c: c + lo, ldc: ldc)
            }
        }
        guard parts > 1, chunk < n else {
            multiply(0, n, a, b, c)
            return
        }
        // Addresses cross into the worker closures as integers: each worker writes a disjoint
        // column range of C and only reads A and B.
        let (ap, bp, cp) = (Int(bitPattern: a), Int(bitPattern: b), Int(bitPattern: c))
        _ = Parallel.map((n + chunk - 1) / chunk) { part -> Int in
            let lo = part * chunk, hi = min(n, lo + chunk)
            multiply(lo, hi, UnsafePointer(bitPattern: ap)!, UnsafePointer<Float>(bitPattern: bp)!, UnsafeMutablePointer<Float>(bitPattern: cp)!)
            return hi - lo
        }
    }

    /// y[m] = alpha · A[m×n] · x[n] + beta · y (row-major A).
    @inlinable
    public static func gemv(
        m: Int, n: Int, alpha: Float = 1,
        a: UnsafePointer<Float>, lda: Int,
        x: UnsafePointer<Float>,
        beta: Float = 0,
        y: UnsafeMutablePointer<Float>
    ) {
        cblas_sgemv(CblasRowMajor, CblasNoTrans, Int32(m), Int32(n), alpha, a, Int32(lda), x, 1, beta, y, 1)
    }

    /// Matrix product of two `Matrix` values: `a · b` or `a · bᵀ`.
    public static func matmul(_ a: Matrix, _ b: Matrix, transposeB: Bool = false) -> Matrix {
        let n = transposeB ? b.rows : b.cols
        let k = a.cols
        precondition(k == (transposeB ? b.cols : b.rows), "inner dimensions differ: \(a.cols) vs \(transposeB ? b.cols : b.rows)")
        var out = Matrix(rows: a.rows, cols: n)
        if a.rows == 0 || n == 0 { return out }
        if k == 0 { return out }
        // a · bᵀ takes the same route as the encoder's layers: the unpacked kernel for a few rows
        // (clauses × symptom phrases), OpenBLAS otherwise; beta 1 on the zeroed output is exact.
        if transposeB {
            a.storage.withUnsafeBufferPointer { pa in
                b.storage.withUnsafeBufferPointer { pb in
                    out.storage.withUnsafeMutableBufferPointer { pc in
                        gemmSplittingColumns(parts: 1, m: a.rows, n: n, k: k, a: pa.baseAddress!, lda: a.cols, b: pb.baseAddress!, ldb: b.cols,
                                             beta: 1, c: pc.baseAddress!, ldc: n)
                    }
                }
            }
            return out
        }
        a.storage.withUnsafeBufferPointer { pa in
            b.storage.withUnsafeBufferPointer { pb in
                out.storage.withUnsafeMutableBufferPointer { pc in
                    gemm(transB: transposeB, m: a.rows, n: n, k: k,
                         a: pa.baseAddress!, lda: a.cols,
                         b: pb.baseAddress!, ldb: b.cols,
                         c: pc.baseAddress!, ldc: n)
                }
            }
        }
        return out
    }

    /// `a · bᵀ` with `b` read in place (e.g. from a mapped file): the same kernels and order of
    /// operations as `matmul(a, b, transposeB: true)` on a `Matrix`, so the results are identical.
    public static func matmulTransposed(_ a: Matrix, _ b: ReadOnlyMatrix) -> Matrix {
        let n = b.rows, k = a.cols
        precondition(k == b.cols, "inner dimensions differ: \(a.cols) vs \(b.cols)")
        var out = Matrix(rows: a.rows, cols: n)
        if a.rows == 0 || n == 0 || k == 0 { return out }
        a.storage.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb in
                out.storage.withUnsafeMutableBufferPointer { pc in
                    gemmSplittingColumns(parts: 1, m: a.rows, n: n, k: k, a: pa.baseAddress!, lda: a.cols, b: pb.baseAddress!, ldb: b.cols,
                                         beta: 1, c: pc.baseAddress!, ldc: n)
                }
            }
        }
        return out
    }
}
