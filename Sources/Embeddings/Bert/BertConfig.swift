import Foundation

/// The subset of a Hugging Face BERT `config.json` that shapes the encoder.
public struct BertConfig: Codable, Sendable, Equatable {
    public var hiddenSize: Int
    public var numHiddenLayers: Int
    public var numAttentionHeads: Int
    public var intermediateSize: Int
    public var maxPositionEmbeddings: Int
    public var vocabSize: Int
    public var typeVocabSize: Int
    public var layerNormEps: Float
    public var hiddenAct: String

    enum CodingKeys: String, CodingKey {
        case hiddenSize = "hidden_size", numHiddenLayers = "num_hidden_layers"
        case numAttentionHeads = "num_attention_heads", intermediateSize = "intermediate_size"
        case maxPositionEmbeddings = "max_position_embeddings", vocabSize = "vocab_size"
        case typeVocabSize = "type_vocab_size", layerNormEps = "layer_norm_eps", hiddenAct = "hidden_act"
    }

    public init(hiddenSize: Int, numHiddenLayers: Int, numAttentionHeads: Int, intermediateSize: Int,
                maxPositionEmbeddings: Int, vocabSize: Int, typeVocabSize: Int = 2,
                layerNormEps: Float = 1e-12, hiddenAct: String = "gelu") {
        self.hiddenSize = hiddenSize; self.numHiddenLayers = numHiddenLayers
        self.numAttentionHeads = numAttentionHeads; self.intermediateSize = intermediateSize
        self.maxPositionEmbeddings = maxPositionEmbeddings; self.vocabSize = vocabSize
        self.typeVocabSize = typeVocabSize; self.layerNormEps = layerNormEps; self.hiddenAct = hiddenAct
    }

    public static func load(_ url: URL) throws -> BertConfig {
        let config: BertConfig
        do {
            config = try JSONDecoder().decode(BertConfig.self, from: Data(contentsOf: url))
        } catch {
            throw EmbeddingError.invalidConfig(file: url.path, reason: "\(error)")
        }
        try config.validate(source: url.path)
        return config
    }

    public var headSize: Int { hiddenSize / numAttentionHeads }

    func validate(source: String) throws {
        guard hiddenAct == "gelu" else {
            throw EmbeddingError.invalidConfig(file: source, reason: "activation \(hiddenAct) is not supported (only exact gelu)")
        }
        guard hiddenSize > 0, numAttentionHeads > 0, hiddenSize % numAttentionHeads == 0 else {
            throw EmbeddingError.invalidConfig(file: source, reason: "hidden size \(hiddenSize) is not divisible by \(numAttentionHeads) heads")
        }
        guard numHiddenLayers > 0, intermediateSize > 0, vocabSize > 0, maxPositionEmbeddings > 0 else {
            throw EmbeddingError.invalidConfig(file: source, reason: "non-positive dimension")
        }
    }
}
