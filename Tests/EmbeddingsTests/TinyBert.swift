import Foundation
import Linear
@testable import Embeddings

/// A 2-layer, 2-head, 8-wide BERT with random weights, plus a reference forward pass written the
/// textbook way (explicit loops, padded batch with an additive -inf mask), to check the packed,
/// BLAS-backed encoder layer by layer.
struct TinyBert {
    let config = BertConfig(hiddenSize: 8, numHiddenLayers: 2, numAttentionHeads: 2, intermediateSize: 12,
                            maxPositionEmbeddings: 16, vocabSize: 20, typeVocabSize: 2)
    var tensors: [String: (shape: [Int], values: [Float])] = [:]

    init(seed: UInt64 = 7) {
        var rng = SeededGenerator(seed: seed)
        func random(_ shape: [Int], scale: Float = 0.5) -> (shape: [Int], values: [Float]) {
            (shape, (0..<shape.reduce(1, *)).map { _ in Float.random(in: -scale...scale, using: &rng) })
        }
        let h = config.hiddenSize, ff = config.intermediateSize
        for name in BertWeights.expectedTensorNames(config).sorted() where name != "embeddings.position_ids" {
            let shape: [Int]
            if name.hasSuffix("word_embeddings.weight") { shape = [config.vocabSize, h] }
            else if name.hasSuffix("position_embeddings.weight") { shape = [config.maxPositionEmbeddings, h] }
            else if name.hasSuffix("token_type_embeddings.weight") { shape = [config.typeVocabSize, h] }
            else if name.contains("intermediate.dense.weight") { shape = [ff, h] }
            else if name.contains("intermediate.dense.bias") { shape = [ff] }
            else if name.contains("layer.") && name.hasSuffix("output.dense.weight") && !name.contains("attention") { shape = [h, ff] }
            else if name.hasSuffix(".weight") && !name.contains("LayerNorm") { shape = [h, h] }
            else { shape = [h] }
            var t = random(shape)
            if name.contains("LayerNorm.weight") { t.values = t.values.map { 1 + $0 } }
            tensors[name] = t
        }
    }

    func write(to url: URL, dropping: String? = nil, adding: String? = nil) throws {
        var list = tensors.filter { $0.key != dropping }.map { (name: $0.key, shape: $0.value.shape, values: $0.value.values) }
        if let adding { list.append((name: adding, shape: [2], values: [1, 2])) }
        try SafeTensorsWriter.data(list.sorted { $0.name < $1.name }).write(to: url)
    }

    func encoder(directory: URL) throws -> BertEncoder {
        let file = directory.appendingPathComponent("tiny.safetensors")
        try write(to: file)
        return BertEncoder(weights: try BertWeights(tensors: SafeTensors(path: file.path), config: config))
    }

    func t(_ name: String) -> [Float] { tensors[name]!.values }

    // MARK: reference forward, padded batch

    /// y = x · Wᵀ + b for a [rows × in] x and [out × in] W.
    static func linear(_ x: [[Float]], _ w: [Float], _ b: [Float]) -> [[Float]] {
        let out = b.count, inp = x.first?.count ?? 0
        return x.map { row in (0..<out).map { o in b[o] + (0..<inp).reduce(Float(0)) { $0 + row[$1] * w[o * inp + $1] } } }
    }

    static func layerNorm(_ x: [[Float]], _ g: [Float], _ b: [Float], eps: Float) -> [[Float]] {
        x.map { row in
            let mean = row.reduce(0, +) / Float(row.count)
            let variance = row.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Float(row.count)
            return row.indices.map { (row[$0] - mean) / (variance + eps).squareRoot() * g[$0] + b[$0] }
        }
    }

    /// Hidden states for each sequence, computed on a right-padded batch with a padding mask.
    func referenceHiddenStates(_ sequences: [[Int32]]) -> [[[Float]]] {
        let h = config.hiddenSize, heads = config.numAttentionHeads, d = h / heads
        let maxLen = sequences.map(\.count).max() ?? 0
        do {
            var batch: [[[Float]]] = sequences.map { ids in
                (0..<maxLen).map { p in
                    let id = p < ids.count ? Int(ids[p]) : 0  // [PAD] = 0
                    return (0..<h).map { t("embeddings.word_embeddings.weight")[id * h + $0]
                        + t("embeddings.position_embeddings.weight")[p * h + $0] + t("embeddings.token_type_embeddings.weight")[$0] }
                }
            }
            batch = batch.map { TinyBert.layerNorm($0, t("embeddings.LayerNorm.weight"), t("embeddings.LayerNorm.bias"), eps: config.layerNormEps) }
            for l in 0..<config.numHiddenLayers {
                let p = "encoder.layer.\(l)."
                batch = batch.enumerated().map { (s, x) in
                    let q = TinyBert.linear(x, t(p + "attention.self.query.weight"), t(p + "attention.self.query.bias"))
                    let k = TinyBert.linear(x, t(p + "attention.self.key.weight"), t(p + "attention.self.key.bias"))
                    let v = TinyBert.linear(x, t(p + "attention.self.value.weight"), t(p + "attention.self.value.bias"))
                    var ctx = [[Float]](repeating: [Float](repeating: 0, count: h), count: maxLen)
                    for head in 0..<heads {
                        for i in 0..<maxLen {
                            var scores = (0..<maxLen).map { j -> Double in
                                if j >= sequences[s].count { return -Double.infinity }  // the padding mask
                                return (0..<d).reduce(0.0) { $0 + Double(q[i][head * d + $1] * k[j][head * d + $1]) } / Double(d).squareRoot()
                            }
                            let m = scores.max()!
                            scores = scores.map { Foundation.exp($0 - m) }
                            let z = scores.reduce(0, +)
                            for c in 0..<d {
                                ctx[i][head * d + c] = Float((0..<maxLen).reduce(0.0) { $0 + scores[$1] / z * Double(v[$1][head * d + c]) })
                            }
                        }
                    }
                    var a = TinyBert.linear(ctx, t(p + "attention.output.dense.weight"), t(p + "attention.output.dense.bias"))
                    a = a.indices.map { i in a[i].indices.map { a[i][$0] + x[i][$0] } }
                    a = TinyBert.layerNorm(a, t(p + "attention.output.LayerNorm.weight"), t(p + "attention.output.LayerNorm.bias"), eps: config.layerNormEps)
                    var f = TinyBert.linear(a, t(p + "intermediate.dense.weight"), t(p + "intermediate.dense.bias"))
                    f = f.map { $0.map { Float(0.5 * Double($0) * (1 + Foundation.erf(Double($0) / 2.0.squareRoot()))) } }
                    var o = TinyBert.linear(f, t(p + "output.dense.weight"), t(p + "output.dense.bias"))
                    o = o.indices.map { i in o[i].indices.map { o[i][$0] + a[i][$0] } }
                    return TinyBert.layerNorm(o, t(p + "output.LayerNorm.weight"), t(p + "output.LayerNorm.bias"), eps: config.layerNormEps)
                }
            }
            // Drop the padded positions: callers compare real tokens only.
            return batch.enumerated().map { Array($0.element.prefix(sequences[$0.offset].count)) }
        }
    }
}
