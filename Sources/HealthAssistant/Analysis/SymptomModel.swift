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
    /// entries.count × dimension, unit rows. Read-only: a loaded model uses them in place from the
    /// mapped cache file (`ArtifactCacheFile`), not copied.
    public var phrases: ReadOnlyMatrix
    /// Embedded red-flag phrases of every condition (for the embedding red-flag match).
    public var flagEntries: [Entry]
    public var flags: ReadOnlyMatrix
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
        self.init(profiles: profiles, entries: entries, phrases: ReadOnlyMatrix(phrases), flagEntries: flagEntries, flags: ReadOnlyMatrix(flags), lexicon: lexicon)
    }

    init(profiles: [ConditionProfile], entries: [Entry], phrases: ReadOnlyMatrix, flagEntries: [Entry], flags: ReadOnlyMatrix, lexicon: SymptomLexicon? = nil) {
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

    public var byteSize: Int { (phrases.rows * phrases.cols + flags.rows * flags.cols) * 4 + entries.count * 64 + profiles.count * 2048 }

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

    /// `checksum` (`ContentChecksum` of the data) is absent in indexes written before it existed.
    struct Meta: Codable { var entries: Int; var flagEntries: Int; var dimension: Int; var checksum: String? }

    /// Stores the matrices in the index, and their mappable copy beside it so the next process
    /// starts on the fast path (a copy that cannot be written only costs speed).
    public func save(to store: SQLiteStore, fingerprint: String) throws {
        let data = phrases.withUnsafeBufferPointer { p in flags.withUnsafeBufferPointer { f in Data(buffer: p) + Data(buffer: f) } }
        let checksum = data.withUnsafeBytes { ContentChecksum.of($0) }
        let meta = Meta(entries: entries.count, flagEntries: flagEntries.count, dimension: phrases.cols, checksum: checksum)
        let json = String(decoding: try JSONEncoder().encode(meta), as: UTF8.self)
        try store.putArtifact(name: Self.artifactName, fingerprint: fingerprint, meta: json, data: data)
        let header = ArtifactCacheFile.Header(name: Self.artifactName, fingerprint: fingerprint, meta: json, bytes: data.count, checksum: checksum)
        try? data.withUnsafeBytes { try ArtifactCacheFile.write(path: store.cachePath(forArtifact: Self.artifactName), header: header, payload: $0) }
    }

    /// The stored model if it was built from the current corpus (`profiles` as the index loaded
    /// them; nil when anything does not line up, so the caller rebuilds).
    ///
    /// Fast path: the matrices are mapped from the cache file beside the index and used in place,
    /// once its header names this very artifact (fingerprint, meta, size, and the checksum the meta
    /// records) and its bytes pass their checksum. Otherwise they are read from the index, checked
    /// against the recorded checksum, and the cache file is written for the next process.
    ///
    /// An index written before checksums were recorded keeps its artifact as it is (adding one
    /// would rewrite the 40 MB row and leave as much free space in the file): its cache file is
    /// keyed by fingerprint, meta and size, which change whenever the artifact is rebuilt (it is
    /// only rebuilt for a new corpus; `health index --rebuild` deletes the cache files).
    public static func load(from store: SQLiteStore, fingerprint: String, profiles: [ConditionProfile], lexicon: SymptomLexicon? = nil) throws -> SymptomModel? {
        let (entries, flagEntries) = Self.entries(of: profiles)
        guard let info = try store.artifactInfo(name: artifactName), info.fingerprint == fingerprint,
              let meta = try? JSONDecoder().decode(Meta.self, from: Data(info.meta.utf8)) else { return nil }
        let d = meta.dimension
        guard meta.entries == entries.count, meta.flagEntries == flagEntries.count, (1...65_536).contains(d),
              info.bytes == (entries.count + flagEntries.count) * d * 4 else { return nil }
        func model(_ phrases: ReadOnlyMatrix, _ flags: ReadOnlyMatrix) -> SymptomModel {
            SymptomModel(profiles: profiles, entries: entries, phrases: phrases, flagEntries: flagEntries, flags: flags, lexicon: lexicon)
        }
        let cachePath = store.cachePath(forArtifact: artifactName)
        if let mapped = ArtifactCacheFile.map(path: cachePath, name: artifactName, fingerprint: fingerprint, meta: info.meta, bytes: info.bytes,
                                              checksum: meta.checksum) {
            return model(ReadOnlyMatrix(rows: entries.count, cols: d, mapped: mapped.file, byteOffset: mapped.offset),
                         ReadOnlyMatrix(rows: flagEntries.count, cols: d, mapped: mapped.file, byteOffset: mapped.offset + entries.count * d * 4))
        }
        // Slow path. The blob is seen where SQLite read it: checked, written to the cache file and
        // copied once into the matrices.
        let matrices = try store.withArtifact(name: artifactName) { stored, metaJSON, data -> (ReadOnlyMatrix, ReadOnlyMatrix)? in
            // The artifact may have been replaced between the two reads: then this is not the one checked above.
            guard stored == fingerprint, metaJSON == info.meta, data.count == info.bytes else { return nil }
            let checksum = ContentChecksum.of(data)
            if let recorded = meta.checksum, recorded != checksum { return nil }
            try? ArtifactCacheFile.write(path: cachePath, header: .init(name: artifactName, fingerprint: fingerprint, meta: info.meta, bytes: data.count,
                                                                        checksum: checksum), payload: data)
            return (ReadOnlyMatrix(rows: entries.count, cols: d, copyingBytes: data),
                    ReadOnlyMatrix(rows: flagEntries.count, cols: d, copyingBytes: data, at: entries.count * d * 4))
        }
        guard let (phrases, flags) = matrices ?? nil else { return nil }
        return model(phrases, flags)
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
