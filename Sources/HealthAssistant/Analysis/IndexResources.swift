import Store

/// The loaded index a question needs: vectors in memory for exact search, the retriever, and the
/// condition profiles. One cache entry ("index").
public struct IndexResources: Sendable {
    public let store: SQLiteStore
    public let retriever: HybridRetriever
    public let profiles: [ConditionProfile]
    public let profileByPath: [String: ConditionProfile]
    /// Symptom stem → indexes of the profiles whose symptoms use it: a question's words find the
    /// few conditions that can match lexically without testing all of them.
    public let lexicon: [String: [Int]]
    /// Advice sentences per condition, filled as answers need them.
    let adviceMemo = LockedMemo<AdviceSections>()

    public static func load(store: SQLiteStore) throws -> IndexResources {
        let index = ExactVectorIndex(table: try store.loadVectorTable())
        let profiles = try ConditionProfile.load(from: store)
        var lexicon: [String: [Int]] = [:]
        for (i, p) in profiles.enumerated() {
            for stem in Set(p.symptoms.flatMap { $0.variantStems.joined() }) { lexicon[stem, default: []].append(i) }
        }
        return IndexResources(store: store, retriever: HybridRetriever(store: store, index: index), profiles: profiles,
                              profileByPath: Dictionary(profiles.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a }), lexicon: lexicon)
    }
}
