import Linear

/// Sentence-transformers' pooling for this model (`1_Pooling/config.json`: mean tokens): the
/// average of the token states of each sequence — its real tokens only — then L2 normalisation.
public enum MeanPooling {
    public static func pool(states: Matrix, offsets: [Int], lengths: [Int], normalize: Bool = true) -> Matrix {
        let h = states.cols
        var out = Matrix(rows: offsets.count, cols: h)
        states.storage.withUnsafeBufferPointer { s in
            out.storage.withUnsafeMutableBufferPointer { o in
                for (i, (offset, length)) in zip(offsets, lengths).enumerated() where length > 0 {
                    let dst = o.baseAddress! + i * h
                    for t in 0..<length {
                        let src = s.baseAddress! + (offset + t) * h
                        for j in 0..<h { dst[j] += src[j] }
                    }
                    let inv = 1 / Float(length)
                    for j in 0..<h { dst[j] *= inv }
                    if normalize { VectorMath.l2NormalizeInPlace(dst, count: h) }
                }
            }
        }
        return out
    }
}
