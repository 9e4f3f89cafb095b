import Embeddings
import Foundation
import Store

/// The one search path of the command-line tool: the model and the index opened once, queries
/// embedded and run through the hybrid retriever, hits read back as chunks. `health search` prints
/// them; `health corpus reach` checks that each condition is found by its own names — through the
/// same code, so what it measures is what a user of `health search` sees.
struct IndexSearch {
    struct Hit: Encodable { let rank: Int; let score: Double; let path: String; let heading: String; let kind: String; let text: String }

    let store: SQLiteStore
    let embedder: SentenceEmbedder
    let retriever: HybridRetriever

    init(model: ModelOptions, index: IndexOptions) throws {
        embedder = try model.loadEmbedder()
        store = try SQLiteStore(path: index.databasePath(locator: model.locator), modelID: embedder.modelID, dimension: embedder.dimension)
        retriever = HybridRetriever(store: store, index: ExactVectorIndex(table: try store.loadVectorTable()))
    }

    /// The top `k` chunks for each query, in query order; the queries are embedded as one batch.
    func search(_ queries: [String], k: Int, mode: HybridRetriever.Mode, filter: SearchFilter) throws -> [[Hit]] {
        guard !queries.isEmpty else { return [] }
        let vectors = mode == .bm25 ? nil : try embedder.embed(queries)
        return try queries.indices.map { q in
            let vector = vectors.map { Array($0.row(q)) }
            let results = try retriever.search(text: queries[q], vector: vector, k: k, mode: mode, filter: filter)
            let chunks = try store.chunks(ids: results.map(\.chunkID))
            return results.enumerated().compactMap { i, r -> Hit? in
                guard let c = chunks[r.chunkID] else { return nil }
                return Hit(rank: i + 1, score: r.score, path: c.documentPath, heading: c.headingPath, kind: c.documentKind, text: c.text)
            }
        }
    }
}
