import Store

/// The loaded index a question needs: vectors in memory for exact search, the retriever, and the
/// condition profiles. One cache entry ("index").
public struct IndexResources: Sendable {
    public let store: SQLiteStore
    public let retriever: HybridRetriever
    public let profiles: [ConditionProfile]
    public let profileByPath: [String: ConditionProfile]
    /// Symptom stem → the symptom variants that use it: a question's words find the few
    /// conditions that can match lexically without testing all of them.
    public let symptomLexicon: SymptomLexicon
    /// The same for the findings that argue against each condition (`ConditionProfile.against`).
    public let againstLexicon: SymptomLexicon
    /// The conditions' names and aliases, to find those a question names.
    public let conditionNames: ConditionNames
    /// Advice sentences per condition, filled as answers need them.
    let adviceMemo = LockedMemo<AdviceSections>()
    /// Cited passages by chunk id, and each condition's passages by path: answers keep citing the
    /// same few hundred passages, so after warm-up they come from memory, not SQLite. Bounded by
    /// the corpus (its text is a few MB; `HealthAssistant.indexBytes` budgets for it).
    let chunkMemo = LockedMemo<StoredChunk>()
    let documentChunksMemo = LockedMemo<[StoredChunk]>()

    /// Chunks by id, read from the store only the first time each is needed.
    func chunks(ids: [Int64]) throws -> [Int64: StoredChunk] {
        let (found, missing) = chunkMemo.values(for: ids.map(String.init))
        var out = Dictionary(uniqueKeysWithValues: found.values.map { ($0.id, $0) })
        let read = try store.chunks(ids: missing.compactMap { Int64($0) })
        chunkMemo.insert(Dictionary(uniqueKeysWithValues: read.map { (String($0.key), $0.value) }))
        out.merge(read) { a, _ in a }
        return out
    }

    /// One document's chunks in order (empty if it cannot be read; a failed read is not remembered).
    func chunks(documentPath: String) -> [StoredChunk] {
        documentChunksMemo.valueOnceKnown(for: documentPath) { try? store.chunks(documentPath: documentPath) } ?? []
    }

    /// `symptomWeights`: how much each symptom weight counts (rules/weights.yaml).
    /// The vectors and the condition profiles are read at the same time (two readers of the
    /// store): on a cold start they are the longest step before the first answer.
    public static func load(store: SQLiteStore, symptomWeights: [String: Double]) async throws -> IndexResources {
        async let vectors = ExactVectorIndex(table: try store.loadVectorTable())
        let (profiles, lexicon, againstLexicon, names) = try ConditionProfile.loadWithLexicon(from: store, symptomWeights: symptomWeights)
        let index = try await vectors
        return IndexResources(store: store, retriever: HybridRetriever(store: store, index: index), profiles: profiles,
                              profileByPath: Dictionary(profiles.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a }),
                              symptomLexicon: lexicon, againstLexicon: againstLexicon, conditionNames: names)
    }
}
