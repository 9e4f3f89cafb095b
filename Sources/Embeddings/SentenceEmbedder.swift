import Foundation
import Linear
import Synchronization

/// all-MiniLM-L6-v2 (or any BERT sentence-transformer laid out the same way) as an `Embedder`:
/// WordPiece → BERT → mean pooling → L2. Texts are sorted by token count and cut into batches so
/// each batch holds similar lengths; results come back in the caller's order.
public struct SentenceEmbedder: Embedder {
    public let tokenizer: WordPieceTokenizer
    public let encoder: BertEncoder
    public let modelID: String
    public let batchSize: Int
    /// Independent shards each batch is split into, one per core; OpenBLAS stays single-threaded.
    public let shards: Int
    public var dimension: Int { encoder.config.hiddenSize }
    /// Forward passes running right now (a server may run two at once, see `EmbeddingBatcher`).
    let passes = PassGauge()

    public init(tokenizer: WordPieceTokenizer, encoder: BertEncoder, modelID: String, batchSize: Int = 32, shards: Int = 2) {
        self.tokenizer = tokenizer
        self.encoder = encoder
        self.modelID = modelID
        self.batchSize = max(1, batchSize)
        self.shards = max(1, shards)
    }

    /// Loads a model folder (`config.json`, `vocab.txt`, `model.safetensors`,
    /// `sentence_bert_config.json`, `1_Pooling/config.json`), verifying it against the manifest first when given.
    public static func load(directory: URL, manifestModel: ModelManifest.Model? = nil, batchSize: Int = 32, shards: Int = 2) throws -> SentenceEmbedder {
        if let manifestModel {
            try ModelDirectory(url: directory, model: manifestModel).verify()
        }
        func need(_ name: String) throws -> URL {
            let url = directory.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw EmbeddingError.modelMissing(directory: directory.path, file: name)
            }
            return url
        }
        let config = try BertConfig.load(try need("config.json"))
        let pooling = try need("1_Pooling/config.json")
        if let data = try? Data(contentsOf: pooling),
           let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
           json["pooling_mode_mean_tokens"] as? Bool != true {
            throw EmbeddingError.invalidConfig(file: pooling.path, reason: "only mean-token pooling is implemented")
        }
        var maxLength = 256
        if let data = try? Data(contentsOf: try need("sentence_bert_config.json")),
           let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
           let value = json["max_seq_length"] as? Int {
            maxLength = min(value, config.maxPositionEmbeddings)
        }
        let tokenizer = try WordPieceTokenizer(vocabularyFile: try need("vocab.txt"), maxLength: maxLength)
        guard tokenizer.vocabulary.count == config.vocabSize else {
            throw EmbeddingError.invalidVocabulary(file: directory.appendingPathComponent("vocab.txt").path,
                                                   reason: "\(tokenizer.vocabulary.count) tokens but config.json says \(config.vocabSize)")
        }
        let tensors = try SafeTensors(path: try need("model.safetensors").path)
        let weights = try BertWeights(tensors: tensors, config: config)
        return SentenceEmbedder(tokenizer: tokenizer, encoder: BertEncoder(weights: weights),
                                modelID: directory.lastPathComponent, batchSize: batchSize, shards: shards)
    }

    public func tokenize(_ texts: [String]) -> [[Int32]] { texts.map(tokenizer.encode) }

    public func embed(_ texts: [String]) throws -> Matrix {
        try embed(tokenIDs: tokenize(texts))
    }

    /// Embeds pre-tokenised sequences (each already `[CLS] … [SEP]`).
    public func embed(tokenIDs: [[Int32]]) throws -> Matrix {
        let h = dimension
        var out = Matrix(rows: tokenIDs.count, cols: h)
        let order = tokenIDs.indices.sorted { tokenIDs[$0].count > tokenIDs[$1].count }
        // A pass that overlaps another keeps to one core: the other pass has the second, and
        // splitting every matrix product between two busy cores only adds waiting.
        let overlapping = passes.enter() > 1
        defer { passes.leave() }
        let cores = overlapping ? 1 : shards
        var start = 0
        while start < order.count {
            let batch = Array(order[start..<min(start + batchSize, order.count)])
            // Deal the length-sorted batch round-robin into shards so each gets a similar token count.
            // Below ~256 tokens a second shard costs more (each shard re-packs every weight matrix
            // inside sgemm) than it saves.
            let batchTokens = batch.reduce(0) { $0 + tokenIDs[$1].count }
            let shardCount = batchTokens < 256 ? 1 : min(cores, batch.count)
            let groups = (0..<shardCount).map { s in stride(from: s, to: batch.count, by: shardCount).map { batch[$0] } }
            let encoder = self.encoder
            // One shard still uses every core: its dense layers split their output columns.
            let columnParts = shardCount == 1 ? cores : 1
            let pooled = Parallel.map(shardCount) { s -> Matrix in
                let sequences = groups[s].map { tokenIDs[$0] }
                let (states, offsets) = encoder.hiddenStates(sequences, columnParts: columnParts)
                return MeanPooling.pool(states: states, offsets: offsets, lengths: sequences.map(\.count))
            }
            for (s, group) in groups.enumerated() {
                for (row, index) in group.enumerated() {
                    out.storage.replaceSubrange((index * h)..<((index + 1) * h), with: pooled[s].row(row))
                }
            }
            start += batchSize
        }
        return out
    }
}

/// How many forward passes are running, shared by every copy of one embedder.
final class PassGauge: Sendable {
    private let count = Atomic<Int>(0)
    /// Counts this pass in; returns how many are running now, this one included.
    func enter() -> Int { count.add(1, ordering: .relaxed).newValue }
    func leave() { count.subtract(1, ordering: .relaxed) }
}
