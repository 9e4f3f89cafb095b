/// Symmetric per-row int8 quantisation and int8 dot products, for the compressed first pass of
/// exact search: 384 bytes per vector instead of 1,536, so a memory-bound scan reads a quarter of
/// the bytes. Scores from it only pick a shortlist; the final order is re-scored in fp32.
public enum Int8Quantization {
    /// Quantises each row of `matrix` to int8 with its own scale (max |x| ↦ 127).
    public static func quantize(_ matrix: Matrix) -> (codes: [Int8], scales: [Float]) {
        var codes = [Int8](repeating: 0, count: matrix.rows * matrix.cols)
        var scales = [Float](repeating: 0, count: matrix.rows)
        matrix.storage.withUnsafeBufferPointer { src in
            codes.withUnsafeMutableBufferPointer { dst in
                for r in 0..<matrix.rows {
                    scales[r] = quantizeRow(src.baseAddress! + r * matrix.cols, count: matrix.cols, into: dst.baseAddress! + r * matrix.cols)
                }
            }
        }
        return (codes, scales)
    }

    /// Quantises one vector; returns the scale that maps codes back to values.
    @discardableResult
    public static func quantizeRow(_ x: UnsafePointer<Float>, count: Int, into out: UnsafeMutablePointer<Int8>) -> Float {
        var maxAbs: Float = 0
        for i in 0..<count { maxAbs = max(maxAbs, abs(x[i])) }
        guard maxAbs > 0 else {
            out.update(repeating: 0, count: count)
            return 0
        }
        let inv = 127 / maxAbs
        for i in 0..<count { out[i] = Int8((x[i] * inv).rounded()) }
        return maxAbs / 127
    }

    /// Σ a[i]·b[i] over int8 vectors, accumulated in int32 (exact: 384 · 127² fits easily).
    /// A plain widening loop: LLVM turns it into vpmovsxbw + vpmaddwd, which Swift's generic SIMD
    /// conversions do not reliably produce.
    @inlinable @inline(__always)
    public static func dot(_ a: UnsafePointer<Int8>, _ b: UnsafePointer<Int8>, count: Int) -> Int32 {
        var sum: Int32 = 0
        for i in 0..<count { sum &+= Int32(a[i]) &* Int32(b[i]) }
        return sum
    }

    /// Scores every row of `codes` (rows × dim) against a quantised query: scale_r · Σ code·query.
    public static func scoreAll(codes: UnsafePointer<Int8>, scales: UnsafePointer<Float>, rows: Range<Int>, dim: Int,
                                query: UnsafePointer<Int8>, queryScale: Float, into out: UnsafeMutablePointer<Float>) {
        for r in rows {
            out[r] = Float(dot(codes + r * dim, query, count: dim)) * scales[r] * queryScale
        }
    }
}
