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
    /// Which entries a clause contains lexically (its variants are the entries, in the same order).
    let lexicon: SymptomLexicon
    /// Each entry's symptom weight (rules/weights.yaml `symptom_weights`).
    var entryWeights: [Float] = []
    /// Whether each entry belongs to a flag-only finding (`Symptom.flagOnly`), which ranking leaves out.
    var entryFlagOnly: [Bool] = []
    /// How many content words each entry's phrase has (a clause naming part of a long phrase does
    /// not say all of it).
    var entryStemCounts: [Int] = []

    /// `lexicon`: the index's, when it was built from these same profiles (saves building it twice).
    init(profiles: [ConditionProfile], entries: [Entry], phrases: Matrix, flagEntries: [Entry], flags: Matrix, lexicon: SymptomLexicon? = nil) {
        self.profiles = profiles; self.entries = entries; self.phrases = phrases; self.flagEntries = flagEntries; self.flags = flags
        self.lexicon = lexicon ?? SymptomLexicon(profiles: profiles)
        entryWeights = entries.map { Float(profiles[$0.condition].symptoms[$0.symptom].weightValue) }
        entryFlagOnly = entries.map { profiles[$0.condition].symptoms[$0.symptom].flagOnly }
        // Entries run condition by condition, symptom by symptom, variant by variant (`entries(of:)`).
        let counts = profiles.flatMap { $0.symptoms.flatMap { $0.variantStems.map(\.count) } }
        entryStemCounts = counts.count == entries.count ? counts : entries.map { TextMatch.stems($0.phrase).count }
    }

    /// Per entry, whether its phrase holds every stem of a denied clause (the denial names it).
    func entriesNamedBy(denied clauseStems: Set<String>) -> Set<Int> {
        clauseStems.isEmpty ? [] : Set(lexicon.variantsCovering(clauseStems))
    }

    /// Per entry, whether every stem of its phrase occurs in `clauseStems` (exact lexical match).
    func entriesContained(in clauseStems: Set<String>) -> [Bool] {
        var contained = [Bool](repeating: false, count: entries.count)
        for e in lexicon.variantsContained(in: clauseStems) { contained[e] = true }
        return contained
    }

    /// v2 stores only the matrices (and their shapes): the entries follow from the profiles, which
    /// the index already holds, so a cold start decodes no JSON for them.
    public static let artifactName = "symptom-model-v2"

    public var byteSize: Int { (phrases.storage.count + flags.storage.count) * 4 + entries.count * 64 + profiles.count * 2048 }

    /// Phrase and red-flag entries in a fixed order: condition by condition, symptom by symptom,
    /// variant by variant. Building and loading both use it, so rows and entries always line up.
    static func entries(of profiles: [ConditionProfile]) -> (phrases: [Entry], flags: [Entry]) {
        var entries: [Entry] = []
        var flagEntries: [Entry] = []
        for (ci, p) in profiles.enumerated() {
            for (si, s) in p.symptoms.enumerated() {
                for v in s.variants { entries.append(Entry(condition: ci, symptom: si, phrase: v)) }
            }
            for (fi, f) in p.redFlags.enumerated() { flagEntries.append(Entry(condition: ci, symptom: fi, phrase: f.flag)) }
        }
        return (entries, flagEntries)
    }

    public static func build(profiles: [ConditionProfile], embedder: any Embedder) throws -> SymptomModel {
        let (entries, flagEntries) = Self.entries(of: profiles)
        let phrases = try embedder.embed(entries.map(\.phrase))
        let flags = try embedder.embed(flagEntries.map(\.phrase))
        return SymptomModel(profiles: profiles, entries: entries, phrases: phrases, flagEntries: flagEntries, flags: flags)
    }

    struct Meta: Codable { var entries: Int; var flagEntries: Int; var dimension: Int }

    public func save(to store: SQLiteStore, fingerprint: String) throws {
        let meta = Meta(entries: entries.count, flagEntries: flagEntries.count, dimension: phrases.cols)
        let json = String(decoding: try JSONEncoder().encode(meta), as: UTF8.self)
        let data = (phrases.storage + flags.storage).withUnsafeBufferPointer { Data(buffer: $0) }
        try store.putArtifact(name: Self.artifactName, fingerprint: fingerprint, meta: json, data: data)
    }

    /// The stored model if it was built from the current corpus (`profiles` as the index loaded
    /// them; nil when anything does not line up, so the caller rebuilds).
    public static func load(from store: SQLiteStore, fingerprint: String, profiles: [ConditionProfile], lexicon: SymptomLexicon? = nil) throws -> SymptomModel? {
        let (entries, flagEntries) = Self.entries(of: profiles)
        // The matrices (tens of MB) are copied once, straight from SQLite's buffer into their storage.
        let matrices = try store.withArtifact(name: artifactName) { stored, metaJSON, data -> (Matrix, Matrix)? in
            guard stored == fingerprint, let meta = try? JSONDecoder().decode(Meta.self, from: Data(metaJSON.utf8)) else { return nil }
            let d = meta.dimension
            guard meta.entries == entries.count, meta.flagEntries == flagEntries.count, (1...65_536).contains(d),
                  data.count == (entries.count + flagEntries.count) * d * 4 else { return nil }
            return (Matrix(rows: entries.count, cols: d, copyingBytes: data),
                    Matrix(rows: flagEntries.count, cols: d, copyingBytes: data, at: entries.count * d * 4))
        }
        guard let (phrases, flags) = matrices ?? nil else { return nil }
        return SymptomModel(profiles: profiles, entries: entries, phrases: phrases, flagEntries: flagEntries, flags: flags, lexicon: lexicon)
    }

    /// Builds (or reuses) the stored model for the store's current corpus.
    @discardableResult
    public static func ensure(store: SQLiteStore, embedder: any Embedder, profiles: [ConditionProfile]) throws -> SymptomModel {
        let fp = try store.corpusFingerprint()
        if let m = try load(from: store, fingerprint: fp, profiles: profiles) { return m }
        let model = try build(profiles: profiles, embedder: embedder)
        try model.save(to: store, fingerprint: fp)
        return model
    }
}
