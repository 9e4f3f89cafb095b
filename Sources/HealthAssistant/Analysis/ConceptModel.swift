import Embeddings
import Foundation
import Linear
import Store

/// The red-flag concepts' exemplars and near misses, embedded: the concept detector's parameters.
/// Built from `rules/concepts/` with the embedding model, stored in the index as an artifact keyed
/// by the concepts' fingerprint, and loaded through the model cache.
public struct ConceptModel: Sendable {
    public let concepts: [RedFlagConcept]
    /// One unit row per exemplar, concept by concept; `exemplarRanges[c]` are concept c's rows.
    let exemplars: Matrix
    let exemplarRanges: [Range<Int>]
    let negatives: Matrix
    let negativeRanges: [Range<Int>]

    public static let artifactName = "concept-model-v1"

    public var byteSize: Int { (exemplars.storage.count + negatives.storage.count) * 4 + concepts.count * 4096 }

    init(concepts: [RedFlagConcept], exemplars: Matrix, negatives: Matrix) {
        self.concepts = concepts; self.exemplars = exemplars; self.negatives = negatives
        (exemplarRanges, negativeRanges) = Self.ranges(concepts)
    }

    static func ranges(_ concepts: [RedFlagConcept]) -> ([Range<Int>], [Range<Int>]) {
        var e = 0, n = 0, er: [Range<Int>] = [], nr: [Range<Int>] = []
        for c in concepts {
            er.append(e..<(e + c.exemplars.count)); e += c.exemplars.count
            nr.append(n..<(n + c.negatives.count)); n += c.negatives.count
        }
        return (er, nr)
    }

    public static func build(concepts: [RedFlagConcept], embedder: any Embedder) throws -> ConceptModel {
        ConceptModel(concepts: concepts, exemplars: try embedder.embed(concepts.flatMap(\.exemplars)),
                     negatives: try embedder.embed(concepts.flatMap(\.negatives)))
    }

    struct Meta: Codable { var exemplars: Int; var negatives: Int; var dimension: Int }

    func save(to store: SQLiteStore, fingerprint: String) throws {
        let meta = Meta(exemplars: exemplars.rows, negatives: negatives.rows, dimension: exemplars.cols)
        let json = String(decoding: try JSONEncoder().encode(meta), as: UTF8.self)
        let data = (exemplars.storage + negatives.storage).withUnsafeBufferPointer { Data(buffer: $0) }
        try store.putArtifact(name: Self.artifactName, fingerprint: fingerprint, meta: json, data: data)
    }

    /// The stored model if it was built from these concepts; nil otherwise (the caller rebuilds).
    static func load(from store: SQLiteStore, fingerprint: String, concepts: [RedFlagConcept]) throws -> ConceptModel? {
        let e = concepts.reduce(0) { $0 + $1.exemplars.count }, n = concepts.reduce(0) { $0 + $1.negatives.count }
        let matrices = try store.withArtifact(name: artifactName) { stored, metaJSON, data -> (Matrix, Matrix)? in
            guard stored == fingerprint, let meta = try? JSONDecoder().decode(Meta.self, from: Data(metaJSON.utf8)) else { return nil }
            let d = meta.dimension
            guard meta.exemplars == e, meta.negatives == n, d > 0, data.count == (e + n) * d * 4 else { return nil }
            return (Matrix(rows: e, cols: d, copyingBytes: data), Matrix(rows: n, cols: d, copyingBytes: data, at: e * d * 4))
        }
        guard let (exemplars, negatives) = matrices ?? nil else { return nil }
        return ConceptModel(concepts: concepts, exemplars: exemplars, negatives: negatives)
    }

    /// The stored model for these concepts, built (and stored) first if needed.
    @discardableResult
    public static func ensure(store: SQLiteStore, embedder: any Embedder, knowledge: ClinicalKnowledge) throws -> ConceptModel {
        let fp = knowledge.conceptFingerprint
        if let m = try load(from: store, fingerprint: fp, concepts: knowledge.concepts) { return m }
        let model = try build(concepts: knowledge.concepts, embedder: embedder)
        try model.save(to: store, fingerprint: fp)
        return model
    }
}
