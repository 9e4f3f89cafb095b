import CBLAS

/// C += A · Bᵀ for a few rows of A, straight from the row-major weights B (no packing).
///
/// For a short question (≈ 10 tokens) OpenBLAS spends most of each sgemm call packing B — the
/// whole weight matrix — into its panel layout, and the packed copy is used for only a handful of
/// rows. Here each group of 4 rows of B is loaded once and multiplied against every row of A while
/// it sits in L1, so the weights are streamed exactly once and never copied.
public enum SmallGemm {
    /// Rows of A up to which this beats OpenBLAS here (measured with `health bench ask`).
    public static let maxRows = 48

    /// C[m×n] += A[m×k] · B[n×k]ᵀ, all row-major; `k` must be a multiple of 8.
    public static func accumulate(m: Int, n: Int, k: Int, a: UnsafePointer<Float>, lda: Int,
                                  b: UnsafePointer<Float>, ldb: Int, c: UnsafeMutablePointer<Float>, ldc: Int) {
        precondition(k % 8 == 0, "k must be a multiple of 8")
        @inline(__always) func load(_ p: UnsafePointer<Float>) -> SIMD8<Float> {
            UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Float>.self)
        }
        var j = 0
        while j + 4 <= n {
            let b0 = b + j * ldb, b1 = b0 + ldb, b2 = b1 + ldb, b3 = b2 + ldb
            // Ask for the group after next while this one is multiplied: the weights come from
            // memory once per pass, and the hardware prefetcher alone keeps too few lines in flight.
            if j + 12 <= n {
                let ahead = UnsafeRawPointer(b + (j + 8) * ldb)
                var offset = 0
                while offset < 4 * ldb * 4 { health_prefetch(ahead + offset); offset += 64 }
            }
            var i = 0
            // Two rows of A against four rows of B: 8 independent FMA chains per step.
            while i + 2 <= m {
                let x0 = a + i * lda, x1 = x0 + lda
                var s00 = SIMD8<Float>(), s01 = SIMD8<Float>(), s02 = SIMD8<Float>(), s03 = SIMD8<Float>()
                var s10 = SIMD8<Float>(), s11 = SIMD8<Float>(), s12 = SIMD8<Float>(), s13 = SIMD8<Float>()
                var p = 0
                while p < k {
                    let w0 = load(b0 + p), w1 = load(b1 + p), w2 = load(b2 + p), w3 = load(b3 + p)
                    let u = load(x0 + p), v = load(x1 + p)
                    s00 = s00.addingProduct(u, w0); s01 = s01.addingProduct(u, w1)
                    s02 = s02.addingProduct(u, w2); s03 = s03.addingProduct(u, w3)
                    s10 = s10.addingProduct(v, w0); s11 = s11.addingProduct(v, w1)
                    s12 = s12.addingProduct(v, w2); s13 = s13.addingProduct(v, w3)
                    p += 8
                }
                let c0 = c + i * ldc + j, c1 = c0 + ldc
                c0[0] += s00.sum(); c0[1] += s01.sum(); c0[2] += s02.sum(); c0[3] += s03.sum()
                c1[0] += s10.sum(); c1[1] += s11.sum(); c1[2] += s12.sum(); c1[3] += s13.sum()
                i += 2
            }
            if i < m {
                let x0 = a + i * lda
                var s0 = SIMD8<Float>(), s1 = SIMD8<Float>(), s2 = SIMD8<Float>(), s3 = SIMD8<Float>()
                var p = 0
                while p < k {
                    let u = load(x0 + p)
                    s0 = s0.addingProduct(u, load(b0 + p)); s1 = s1.addingProduct(u, load(b1 + p))
                    s2 = s2.addingProduct(u, load(b2 + p)); s3 = s3.addingProduct(u, load(b3 + p))
                    p += 8
                }
                let c0 = c + i * ldc + j
                c0[0] += s0.sum(); c0[1] += s1.sum(); c0[2] += s2.sum(); c0[3] += s3.sum()
            }
            j += 4
        }
        while j < n {
            let bj = b + j * ldb
            for i in 0..<m {
                let x0 = a + i * lda
                var s = SIMD8<Float>()
                var p = 0
                while p < k { s = s.addingProduct(load(x0 + p), load(bj + p)); p += 8 }
                c[i * ldc + j] += s.sum()
            }
            j += 1
        }
    }
}
