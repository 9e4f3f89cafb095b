import Linear

/// What later layers (store, retriever, analysis) depend on: texts in, one L2-normalised row per
/// text out, batch-first. Tests substitute a fake; production uses `SentenceEmbedder`.
public protocol Embedder: Sendable {
    /// Length of every embedding row.
    var dimension: Int { get }
    /// Stable identifier of the model that produced the vectors, recorded in the index.
    var modelID: String { get }
    /// Embeds `texts`; row i of the result belongs to `texts[i]`.
    func embed(_ texts: [String]) throws -> Matrix
}
