/// Pointers into the memory-mapped safetensors file, checked by name and shape once at load.
/// Holding `tensors` keeps the mapping alive for as long as the pointers are used.
public final class BertWeights: @unchecked Sendable {
    // Every pointer targets read-only mapped memory and is never written: sharing is safe.
    public struct Layer {
        public let query, queryBias, key, keyBias, value, valueBias: UnsafePointer<Float>
        public let attentionOutput, attentionOutputBias: UnsafePointer<Float>
        public let attentionNormGamma, attentionNormBeta: UnsafePointer<Float>
        public let intermediate, intermediateBias: UnsafePointer<Float>
        public let output, outputBias: UnsafePointer<Float>
        public let outputNormGamma, outputNormBeta: UnsafePointer<Float>
    }

    public let config: BertConfig
    public let wordEmbeddings, positionEmbeddings, tokenTypeEmbeddings: UnsafePointer<Float>
    public let embeddingNormGamma, embeddingNormBeta: UnsafePointer<Float>
    public let layers: [Layer]
    let tensors: SafeTensors

    /// Tensor names a BERT checkpoint of this config must hold, no more and no fewer.
    public static func expectedTensorNames(_ config: BertConfig) -> Set<String> {
        var names: Set<String> = [
            "embeddings.word_embeddings.weight", "embeddings.position_embeddings.weight",
            "embeddings.token_type_embeddings.weight", "embeddings.LayerNorm.weight", "embeddings.LayerNorm.bias",
            "embeddings.position_ids", "pooler.dense.weight", "pooler.dense.bias",
        ]
        for i in 0..<config.numHiddenLayers {
            let p = "encoder.layer.\(i)."
            for suffix in ["attention.self.query", "attention.self.key", "attention.self.value", "attention.output.dense",
                           "intermediate.dense", "output.dense"] {
                names.insert(p + suffix + ".weight"); names.insert(p + suffix + ".bias")
            }
            for suffix in ["attention.output.LayerNorm", "output.LayerNorm"] {
                names.insert(p + suffix + ".weight"); names.insert(p + suffix + ".bias")
            }
        }
        return names
    }

    public init(tensors: SafeTensors, config: BertConfig) throws {
        var expected = Self.expectedTensorNames(config)
        // position_ids is a buffer some exporters omit; accept its absence, never a stranger.
        if tensors.tensors["embeddings.position_ids"] == nil { expected.remove("embeddings.position_ids") }
        try tensors.requireExactly(expected)
        let h = config.hiddenSize, ff = config.intermediateSize
        func t(_ name: String, _ shape: [Int]) throws -> UnsafePointer<Float> { try tensors.float32(name, shape: shape) }
        wordEmbeddings = try t("embeddings.word_embeddings.weight", [config.vocabSize, h])
        positionEmbeddings = try t("embeddings.position_embeddings.weight", [config.maxPositionEmbeddings, h])
        tokenTypeEmbeddings = try t("embeddings.token_type_embeddings.weight", [config.typeVocabSize, h])
        embeddingNormGamma = try t("embeddings.LayerNorm.weight", [h])
        embeddingNormBeta = try t("embeddings.LayerNorm.bias", [h])
        _ = try t("pooler.dense.weight", [h, h])
        layers = try (0..<config.numHiddenLayers).map { i in
            let p = "encoder.layer.\(i)."
            return Layer(
                query: try t(p + "attention.self.query.weight", [h, h]), queryBias: try t(p + "attention.self.query.bias", [h]),
                key: try t(p + "attention.self.key.weight", [h, h]), keyBias: try t(p + "attention.self.key.bias", [h]),
                value: try t(p + "attention.self.value.weight", [h, h]), valueBias: try t(p + "attention.self.value.bias", [h]),
                attentionOutput: try t(p + "attention.output.dense.weight", [h, h]),
                attentionOutputBias: try t(p + "attention.output.dense.bias", [h]),
                attentionNormGamma: try t(p + "attention.output.LayerNorm.weight", [h]),
                attentionNormBeta: try t(p + "attention.output.LayerNorm.bias", [h]),
                intermediate: try t(p + "intermediate.dense.weight", [ff, h]), intermediateBias: try t(p + "intermediate.dense.bias", [ff]),
                output: try t(p + "output.dense.weight", [h, ff]), outputBias: try t(p + "output.dense.bias", [h]),
                outputNormGamma: try t(p + "output.LayerNorm.weight", [h]),
                outputNormBeta: try t(p + "output.LayerNorm.bias", [h]))
        }
        self.config = config
        self.tensors = tensors
    }
}
