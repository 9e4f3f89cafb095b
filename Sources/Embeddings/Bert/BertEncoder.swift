import Foundation
import Linear

/// A BERT encoder over memory-mapped weights. Sequences are packed end to end — no padding
/// tokens at all — so the dense layers run one large gemm over every real token of the batch,
/// and attention runs per sequence over exactly its own tokens. That is the padding mask taken to
/// its limit: padded positions are never computed, so they can never leak into a result.
public struct BertEncoder: Sendable {
    public let weights: BertWeights
    public var config: BertConfig { weights.config }

    public init(weights: BertWeights) { self.weights = weights }

    /// Final hidden states for `sequences`, packed row after row: rows `offsets[i] ..< offsets[i] + lengths[i]`
    /// belong to sequence i.
    /// `columnParts` > 1 splits each dense layer's output columns across that many threads: the
    /// way to use several cores on a batch too small to shard by sequence.
    public func hiddenStates(_ sequences: [[Int32]], columnParts: Int = 1) -> (states: Matrix, offsets: [Int]) {
        let h = config.hiddenSize
        var offsets: [Int] = []
        var total = 0
        for s in sequences { offsets.append(total); total += s.count }
        var states = Matrix(rows: total, cols: h)
        guard total > 0 else { return (states, offsets) }
        let lengths = sequences.map(\.count)
        states.storage.withUnsafeMutableBufferPointer { x in
            embed(sequences, into: x.baseAddress!)
            let scratch = Scratch(tokens: total, config: config, longest: lengths.max() ?? 0)
            defer { scratch.release() }
            for layer in weights.layers {
                Self.layer(layer, x: x.baseAddress!, tokens: total, offsets: offsets, lengths: lengths, config: config, scratch: scratch,
                           parts: columnParts)
            }
        }
        return (states, offsets)
    }

    /// word + position + token-type(0) embeddings, then LayerNorm.
    func embed(_ sequences: [[Int32]], into x: UnsafeMutablePointer<Float>) {
        let h = config.hiddenSize
        var row = 0
        for ids in sequences {
            for (position, id) in ids.enumerated() {
                let out = x + row * h
                let word = weights.wordEmbeddings + Int(id) * h
                let pos = weights.positionEmbeddings + position * h
                let type = weights.tokenTypeEmbeddings
                for i in 0..<h { out[i] = word[i] + pos[i] + type[i] }
                row += 1
            }
        }
        VectorMath.layerNormInPlace(x, rows: row, width: h, gamma: weights.embeddingNormGamma,
                                    beta: weights.embeddingNormBeta, epsilon: config.layerNormEps)
    }

    /// Working memory for one forward pass, allocated once per batch rather than per layer.
    final class Scratch {
        let qkv, context, attention, intermediate: UnsafeMutablePointer<Float>
        let scores: UnsafeMutablePointer<Float>
        init(tokens: Int, config: BertConfig, longest: Int) {
            let h = config.hiddenSize
            qkv = .allocate(capacity: tokens * 3 * h)
            context = .allocate(capacity: tokens * h)
            attention = .allocate(capacity: tokens * h)
            intermediate = .allocate(capacity: tokens * config.intermediateSize)
            scores = .allocate(capacity: max(1, longest * longest))
        }
        func release() {
            qkv.deallocate(); context.deallocate(); attention.deallocate(); intermediate.deallocate(); scores.deallocate()
        }
    }

    /// One transformer layer, in place on `x` (tokens × hidden).
    static func layer(_ w: BertWeights.Layer, x: UnsafeMutablePointer<Float>, tokens: Int, offsets: [Int], lengths: [Int],
                      config: BertConfig, scratch: Scratch, parts: Int = 1) {
        let h = config.hiddenSize, ff = config.intermediateSize
        // Q, K and V written side by side into one tokens × 3h buffer: one row per token holds
        // [q | k | v], so each head's slices are strided views and nothing is copied.
        let qkv = scratch.qkv
        for t in 0..<tokens {
            let row = qkv + t * 3 * h
            row.update(from: w.queryBias, count: h)
            (row + h).update(from: w.keyBias, count: h)
            (row + 2 * h).update(from: w.valueBias, count: h)
        }
        for (i, weight) in [w.query, w.key, w.value].enumerated() {
            BLAS.gemmSplittingColumns(parts: parts, m: tokens, n: h, k: h, a: x, lda: h, b: weight, ldb: h, beta: 1, c: qkv + i * h, ldc: 3 * h)
        }
        attention(qkv: qkv, context: scratch.context, offsets: offsets, lengths: lengths, config: config, scores: scratch.scores)

        // Output projection + bias + residual, then LayerNorm.
        let attn = scratch.attention
        attn.update(from: x, count: tokens * h)
        VectorMath.addRowBias(attn, rows: tokens, width: h, bias: w.attentionOutputBias)
        BLAS.gemmSplittingColumns(parts: parts, m: tokens, n: h, k: h, a: scratch.context, lda: h, b: w.attentionOutput, ldb: h, beta: 1, c: attn, ldc: h)
        VectorMath.layerNormInPlace(attn, rows: tokens, width: h, gamma: w.attentionNormGamma, beta: w.attentionNormBeta, epsilon: config.layerNormEps)

        // Feed-forward: GELU(attn · W1ᵀ + b1) · W2ᵀ + b2 + attn, then LayerNorm into x.
        let inter = scratch.intermediate
        VectorMath.broadcastRows(inter, rows: tokens, width: ff, from: w.intermediateBias)
        BLAS.gemmSplittingColumns(parts: parts, m: tokens, n: ff, k: h, a: attn, lda: h, b: w.intermediate, ldb: h, beta: 1, c: inter, ldc: ff)
        VectorMath.geluInPlace(inter, count: tokens * ff)
        x.update(from: attn, count: tokens * h)
        VectorMath.addRowBias(x, rows: tokens, width: h, bias: w.outputBias)
        BLAS.gemmSplittingColumns(parts: parts, m: tokens, n: h, k: ff, a: inter, lda: ff, b: w.output, ldb: ff, beta: 1, c: x, ldc: h)
        VectorMath.layerNormInPlace(x, rows: tokens, width: h, gamma: w.outputNormGamma, beta: w.outputNormBeta, epsilon: config.layerNormEps)
    }

    /// Scaled dot-product attention per sequence and head over the packed [q | k | v] rows.
    /// Each sequence attends to its own tokens only, which is what the padding mask guarantees.
    static func attention(qkv: UnsafeMutablePointer<Float>, context: UnsafeMutablePointer<Float>,
                          offsets: [Int], lengths: [Int], config: BertConfig, scores: UnsafeMutablePointer<Float>) {
        let h = config.hiddenSize, heads = config.numAttentionHeads, d = config.headSize
        let scale = 1 / Float(d).squareRoot()
        let stride = 3 * h
        for (offset, length) in zip(offsets, lengths) where length > 0 {
            let base = qkv + offset * stride
            for head in 0..<heads {
                let q = base + head * d, k = base + h + head * d, v = base + 2 * h + head * d
                BLAS.gemm(transB: true, m: length, n: length, k: d, alpha: scale, a: q, lda: stride, b: k, ldb: stride,
                          c: scores, ldc: length)
                for r in 0..<length { VectorMath.softmaxInPlace(scores + r * length, count: length) }
                BLAS.gemm(m: length, n: d, k: length, a: scores, lda: length, b: v, ldb: stride,
                          c: context + offset * h + head * d, ldc: h)
            }
        }
    }
}
