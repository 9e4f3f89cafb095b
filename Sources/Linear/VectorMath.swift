import Foundation

/// Element-wise kernels used by the encoder. They run on 16-wide SIMD because, after the
/// matrix products, GELU over the 1536-wide FFN activations and the attention softmax are the
/// next biggest costs; libm's scalar `erff`/`expf` would spend more time than the products.
public enum VectorMath {
    public typealias V = SIMD16<Float>
    static let lanes = 16

    // MARK: exp

    /// Cephes-style `expf`: range reduction by ln 2, degree-6 polynomial, scale by 2^n.
    /// Relative error about 2e-7 over the clamped range, which is below Float32's epsilon.
    @inlinable @inline(__always)
    public static func exp(_ xIn: V) -> V {
        var x = xIn.clamped(lowerBound: V(repeating: -87.3), upperBound: V(repeating: 88.3))
        let fx = (x * 1.44269504088896341 + 0.5).rounded(.down)
        x = x - fx * 0.693359375
        x = x - fx * -2.12194440e-4
        let z = x * x
        var y = V(repeating: 1.9875691500e-4)
        y = y * x + 1.3981999507e-3
        y = y * x + 8.3334519073e-3
        y = y * x + 4.1665795894e-2
        y = y * x + 1.6666665459e-1
        y = y * x + 5.0000001201e-1
        y = y * z + x + 1
        // fx is integral in [-126, 128]; adding 1.5·2^23 puts it in the low mantissa bits, which
        // turns the float into an integer without a (missing) SIMD float→int conversion.
        let magic = V(repeating: 12582912)
        let n = unsafeBitCast(fx + magic, to: SIMD16<Int32>.self) &- unsafeBitCast(magic, to: SIMD16<Int32>.self)
        let scale = unsafeBitCast((n &+ 127) &<< 23, to: V.self)
        return y * scale
    }

    @inlinable @inline(__always)
    public static func exp(_ x: Float) -> Float { Foundation.exp(x) }

    // MARK: erf and GELU

    /// erf by Abramowitz & Stegun 7.1.26 (absolute error ≤ 1.5e-7), evaluated on |x| with the sign restored.
    @inlinable @inline(__always)
    public static func erf(_ xIn: V) -> V {
        let sign = V(repeating: 1).replacing(with: -1, where: xIn .< 0)
        let negative = xIn .< 0
        let x = xIn.replacing(with: -xIn, where: negative)
        let t = 1 / (1 + 0.3275911 * x)
        var p = V(repeating: 1.061405429)
        p = p * t - 1.453152027
        p = p * t + 1.421413741
        p = p * t - 0.284496736
        p = p * t + 0.254829592
        p = p * t
        let negSquare: V = -(x * x)
        return sign * (1 - p * Self.exp(negSquare))
    }

    /// BERT's exact GELU, x · Φ(x) = 0.5 · x · (1 + erf(x / √2)), applied in place.
    public static func geluInPlace(_ buffer: UnsafeMutablePointer<Float>, count: Int) {
        let invSqrt2: Float = 0.7071067811865476
        var i = 0
        let raw = UnsafeMutableRawPointer(buffer)
        while i + lanes <= count {
            let x = raw.loadUnaligned(fromByteOffset: i * 4, as: V.self)
            let y = 0.5 * x * (1 + erf(x * invSqrt2))
            raw.storeBytes(of: y, toByteOffset: i * 4, as: V.self)
            i += lanes
        }
        while i < count {
            let x = buffer[i]
            buffer[i] = 0.5 * x * (1 + Foundation.erf(x * invSqrt2))
            i += 1
        }
    }

    // MARK: softmax

    /// Numerically stable softmax of one row, in place.
    public static func softmaxInPlace(_ row: UnsafeMutablePointer<Float>, count: Int) {
        guard count > 0 else { return }
        var maxValue = -Float.infinity
        for i in 0..<count { maxValue = max(maxValue, row[i]) }
        let raw = UnsafeMutableRawPointer(row)
        var sumVector = V(repeating: 0)
        var i = 0
        let m = V(repeating: maxValue)
        while i + lanes <= count {
            let e = exp(raw.loadUnaligned(fromByteOffset: i * 4, as: V.self) - m)
            raw.storeBytes(of: e, toByteOffset: i * 4, as: V.self)
            sumVector += e
            i += lanes
        }
        var sum = sumVector.sum()
        while i < count {
            let e = Foundation.exp(row[i] - maxValue)
            row[i] = e
            sum += e
            i += 1
        }
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
