import Embeddings
import Foundation
import Linear
import Store

/// The Complete analyser's parameters: every symptom phrase variant of every condition, embedded.
/// Built from the corpus at index time, stored in the index as an artifact keyed by the corpus
/// fingerprint, and loaded (through the model cache) by `health ask`.
public struct SymptomModel: Sendable {
    public struct Entry: Codable, Sendable { public var condition: Int; public var symptom: Int; public var phrase: String }

    public var profiles: [ConditionProfile]
    public var entries: [Entry]
    /// entries.count × dimension, unit rows.
    public var phrases: Matrix
    /// Embedded red-flag phrases of every condition (for the embedding red-flag match).
    public var flagEntries: [Entry]
    public var flags: Matrix
    /// Stems of each entry's phrase, for the exact/lexical half of matching.
    public var entryStems: [[String]] = []

    init(profiles: [ConditionProfile], entries: [Entry], phrases: Matrix, flagEntries: [Entry], flags: Matrix) {
        self.profiles = profiles; self.entries = entries; self.phrases = phrases; self.flagEntries = flagEntries; self.flags = flags
        entryStems = entries.map { TextMatch.stems($0.phrase) }
    }

    public static let artifactName = "symptom-model-v1"

    public var byteSize: Int { (phrases.storage.count + flags.storage.count) * 4 + entries.count * 64 + profiles.count * 2048 }

    public static func build(profiles: [ConditionProfile], embedder: any Embedder) throws -> SymptomModel {
        var entries: [Entry] = []
        var flagEntries: [Entry] = []
        for (ci, p) in profiles.enumerated() {
            for (si, s) in p.symptoms.enumerated() {
                for v in s.variants { entries.append(Entry(condition: ci, symptom: si, phrase: v)) }
            }
            for (fi, f) in p.redFlags.enumerated() { flagEntries.append(Entry(condition: ci, symptom: fi, phrase: f)) }
        }
        let phrases = try embedder.embed(entries.map(\.phrase))
        let flags = try embedder.embed(flagEntries.map(\.phrase))
        return SymptomModel(profiles: profiles, entries: entries, phrases: phrases, flagEntries: flagEntries, flags: flags)
    }

    struct Meta: Codable { var profiles: [ConditionProfile]; var entries: [Entry]; var flagEntries: [Entry]; var dimension: Int }

    public func save(to store: SQLiteStore, fingerprint: String) throws {
        let meta = Meta(profiles: profiles, entries: entries, flagEntries: flagEntries, dimension: phrases.cols)
        let json = String(decoding: try JSONEncoder().encode(meta), as: UTF8.self)
        let data = (phrases.storage + flags.storage).withUnsafeBufferPointer { Data(buffer: $0) }
        try store.putArtifact(name: Self.artifactName, fingerprint: fingerprint, meta: json, data: data)
    }

    /// The stored model if it was built from the current corpus.
    public static func load(from store: SQLiteStore, fingerprint: String) throws -> SymptomModel? {
        guard let a = try store.artifact(name: artifactName), a.fingerprint == fingerprint,
              let meta = try? JSONDecoder().decode(Meta.self, from: Data(a.meta.utf8)) else { return nil }
        let floats = a.data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let d = meta.dimension
        guard floats.count == (meta.entries.count + meta.flagEntries.count) * d else { return nil }
        let split = meta.entries.count * d
        return SymptomModel(profiles: meta.profiles, entries: meta.entries,
                            phrases: Matrix(rows: meta.entries.count, cols: d, storage: Array(floats[..<split])),
                            flagEntries: meta.flagEntries, flags: Matrix(rows: meta.flagEntries.count, cols: d, storage: Array(floats[split...])))
    }

    /// Builds (or reuses) the stored model for the store's current corpus.
    @discardableResult
    public static func ensure(store: SQLiteStore, embedder: any Embedder) throws -> SymptomModel {
        let fp = try store.corpusFingerprint()
        if let m = try load(from: store, fingerprint: fp) { return m }
        let model = try build(profiles: try ConditionProfile.load(from: store), embedder: embedder)
        try model.save(to: store, fingerprint: fp)
        return model
    }
}
