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
    /// Advice sentences per condition, filled as answers need them.
    let adviceMemo = LockedMemo<AdviceSections>()

    public static func load(store: SQLiteStore) throws -> IndexResources {
        let index = ExactVectorIndex(table: try store.loadVectorTable())
        let profiles = try ConditionProfile.load(from: store)
        return IndexResources(store: store, retriever: HybridRetriever(store: store, index: index), profiles: profiles,
                              profileByPath: Dictionary(profiles.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a }),
                              symptomLexicon: SymptomLexicon(profiles: profiles))
    }
}
