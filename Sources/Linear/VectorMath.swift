import Foundation

/// Element-wise kernels used by the encoder. They run on 16-wide SIMD because, after the
/// matrix products, GELU over the 1536-wide FFN activations and the attention softmax are the
/// next biggest costs; libm's scalar `erff`/`expf` would spend more time than the products.
public enum VectorMath {

    // MARK: exp

    /// Cephes-style `expf`: range reduction by ln 2 (round to nearest), degree-6 polynomial,
    /// scale by 2^n built from the exponent bits. Relative error about 2e-7. Written branch-free
    /// and call-free so loops over it auto-vectorise; libm's `expf` would be a call per element.
    @inlinable @inline(__always)
    public static func fastExp(_ xIn: Float) -> Float {
        var x = xIn < -87.0 ? -87.0 : xIn
        x = x > 88.0 ? 88.0 : x
        // Adding 1.5·2^23 rounds to an integer and leaves it in the low mantissa bits.
        let magic: Float = 12582912
        let shifted = x * 1.44269504088896341 + magic
        let fx = shifted - magic
        var r = x - fx * 0.693359375
        r = r - fx * -2.12194440e-4
        let z = r * r
        var y: Float = 1.9875691500e-4
        y = y * r + 1.3981999507e-3
        y = y * r + 8.3334519073e-3
        y = y * r + 4.1665795894e-2
        y = y * r + 1.6666665459e-1
        y = y * r + 5.0000001201e-1
        y = y * z + r + 1
        let n = Int32(bitPattern: shifted.bitPattern) &- Int32(bitPattern: magic.bitPattern)
        return y * Float(bitPattern: UInt32(bitPattern: (n &+ 127) &<< 23))
    }

    // MARK: erf and GELU

    /// erf by Abramowitz & Stegun 7.1.26 (absolute error ≤ 1.5e-7), on |x| with the sign restored.
    @inlinable @inline(__always)
    public static func fastErf(_ xIn: Float) -> Float {
        let x = xIn < 0 ? -xIn : xIn
        let t = 1 / (1 + 0.3275911 * x)
        var p: Float = 1.061405429
        p = p * t - 1.453152027
        p = p * t + 1.421413741
        p = p * t - 0.284496736
        p = p * t + 0.254829592
        p = p * t
        let e = 1 - p * fastExp(-(x * x))
        return xIn < 0 ? -e : e
    }

    /// BERT's exact GELU, x · Φ(x) = 0.5 · x · (1 + erf(x / √2)), applied in place.
    public static func geluInPlace(_ buffer: UnsafeMutablePointer<Float>, count: Int) {
        for i in 0..<count {
            let x = buffer[i]
            buffer[i] = 0.5 * x * (1 + fastErf(x * 0.7071067811865476))
        }
    }

    // MARK: softmax

    /// Numerically stable softmax of one row, in place.
    public static func softmaxInPlace(_ row: UnsafeMutablePointer<Float>, count: Int) {
        guard count > 0 else { return }
        var maxValue = row[0]
        for i in 1..<max(1, count) where row[i] > maxValue { maxValue = row[i] }
        for i in 0..<count { row[i] = fastExp(row[i] - maxValue) }
        // Eight partial sums let the compiler keep the reduction in vector lanes.
        var partial = SIMD8<Float>(repeating: 0)
        var i = 0
        while i + 8 <= count {
            partial += SIMD8<Float>(row[i], row[i + 1], row[i + 2], row[i + 3], row[i + 4], row[i + 5], row[i + 6], row[i + 7])
            i += 8
        }
        var sum = partial.sum()
        while i < count { sum += row[i]; i += 1 }
        let inv = 1 / sum
        for j in 0..<count { row[j] *= inv }
    }

    // MARK: layer norm

    /// LayerNorm over each row of `rows × width`, in place: (x − mean) / √(var + eps) · gamma + beta.
    public static func layerNormInPlace(
        _ data: UnsafeMutablePointer<Float>, rows: Int, width: Int,
        gamma: UnsafePointer<Float>, beta: UnsafePointer<Float>, epsilon: Float
    ) {
        for r in 0..<rows {
            let row = data + r * width
            var sum: Float = 0
            for i in 0..<width { sum += row[i] }
            let mean = sum / Float(width)
            var sq: Float = 0
            for i in 0..<width { let d = row[i] - mean; sq += d * d }
            let inv = 1 / (sq / Float(width) + epsilon).squareRoot()
            for i in 0..<width { row[i] = (row[i] - mean) * inv * gamma[i] + beta[i] }
        }
    }

    /// Adds `bias` (length `width`) to every row.
    public static func addRowBias(_ data: UnsafeMutablePointer<Float>, rows: Int, width: Int, bias: UnsafePointer<Float>) {
        for r in 0..<rows {
            let row = data + r * width
            for i in 0..<width { row[i] += bias[i] }
        }
    }

    /// Fills every row with `bias`, so a following gemm with beta = 1 adds the product to it.
    public static func broadcastRows(_ data: UnsafeMutablePointer<Float>, rows: Int, width: Int, from bias: UnsafePointer<Float>) {
        for r in 0..<rows { (data + r * width).update(from: bias, count: width) }
    }

    /// Scales a vector to unit Euclidean length; a zero vector stays zero.
    public static func l2NormalizeInPlace(_ v: UnsafeMutablePointer<Float>, count: Int) {
        var sq: Float = 0
        for i in 0..<count { sq += v[i] * v[i] }
        let norm = sq.squareRoot()
        guard norm > 1e-12 else { return }
        let inv = 1 / norm
        for i in 0..<count { v[i] *= inv }
    }

    public static func dot(_ a: [Float], _ b: [Float]) -> Float {
        precondition(a.count == b.count)
        var s: Float = 0
        for i in 0..<a.count { s += a[i] * b[i] }
        return s
    }

    public static func cosine(_ a: [Float], _ b: [Float]) -> Float {
        let d = dot(a, b)
        let na = dot(a, a).squareRoot(), nb = dot(b, b).squareRoot()
        guard na > 0, nb > 0 else { return 0 }
        return d / (na * nb)
    }
}
