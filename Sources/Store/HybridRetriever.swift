import Linear

/// Dense (embedding) and keyword (FTS5 BM25) retrieval fused by reciprocal rank:
/// score(c) = Σ 1 / (rrfK + rank_i(c)). Rank fusion needs no score calibration between the two
/// lists, which is why it is robust across corpora.
public struct HybridRetriever: Sendable {
    public enum Mode: String, Sendable, CaseIterable { case dense, bm25, hybrid }

    public struct Result: Sendable, Equatable {
        public let chunkID: Int64
        public let score: Double
        public let denseRank: Int?
        public let keywordRank: Int?
        public let denseScore: Float?
    }

    public let store: SQLiteStore
    public let index: ExactVectorIndex
    /// The usual constant from Cormack et al. (2009).
    public var rrfK: Double = 60
    /// How deep each list is read before fusing.
    public var candidates: Int = 100

    public init(store: SQLiteStore, index: ExactVectorIndex) {
        self.store = store
        self.index = index
    }

    /// The keyword list `search` would read for this query (callers may fetch it early, e.g.
    /// while the query is still being embedded, and pass it back in).
    public func keywordCandidates(text: String, k: Int, mode: Mode, filter: SearchFilter = SearchFilter()) throws -> [(chunkID: Int64, score: Double)] {
        guard mode != .dense, k > 0 else { return [] }
        return try store.keywordSearch(text, limit: mode == .bm25 ? k : max(k, candidates), filter: filter)
    }

    public func search(text: String, vector: [Float]?, k: Int, mode: Mode, filter: SearchFilter = SearchFilter(),
                       keywordResults: [(chunkID: Int64, score: Double)]? = nil, denseScores: [Float]? = nil) throws -> [Result] {
        guard k > 0 else { return [] }
        let depth = max(k, candidates)
        var dense: [ExactVectorIndex.Hit] = []
        var keyword: [(chunkID: Int64, score: Double)] = []
        if mode != .bm25, let vector {
            // Small indexes: one fp32 gemv is exact and cheaper than the int8 scan plus re-scoring
            // of its shortlist; the compressed scan pays off once the fp32 scan is memory-bound.
            let precision: ExactVectorIndex.Precision = index.count < 20_000 ? .fp32 : .int8
            // The caller may have run that gemv already (`denseScores`, from `index.scores`).
            if precision == .fp32, let denseScores, denseScores.count == index.count {
                dense = index.search(scores: denseScores, k: mode == .dense ? k : depth, filter: filter)
            } else {
                dense = index.search(vector, k: mode == .dense ? k : depth, filter: filter, precision: precision)
            }
        }
        if mode != .dense { keyword = try keywordResults ?? keywordCandidates(text: text, k: k, mode: mode, filter: filter) }
        switch mode {
        case .dense:
            return dense.enumerated().map { Result(chunkID: $1.chunkID, score: Double($1.score), denseRank: $0 + 1, keywordRank: nil, denseScore: $1.score) }
        case .bm25:
            return keyword.enumerated().map { Result(chunkID: $1.chunkID, score: $1.score, denseRank: nil, keywordRank: $0 + 1, denseScore: nil) }
        case .hybrid:
            var fused: [Int64: (score: Double, dense: Int?, keyword: Int?, denseScore: Float?)] = [:]
            for (rank, hit) in dense.enumerated() {
                fused[hit.chunkID, default: (0, nil, nil, nil)].score += 1 / (rrfK + Double(rank + 1))
                fused[hit.chunkID]!.dense = rank + 1
                fused[hit.chunkID]!.denseScore = hit.score
            }
            for (rank, hit) in keyword.enumerated() {
                fused[hit.chunkID, default: (0, nil, nil, nil)].score += 1 / (rrfK + Double(rank + 1))
                fused[hit.chunkID]!.keyword = rank + 1
            }
            return fused.map { Result(chunkID: $0.key, score: $0.value.score, denseRank: $0.value.dense, keywordRank: $0.value.keyword, denseScore: $0.value.denseScore) }
                .sorted { $0.score > $1.score || ($0.score == $1.score && $0.chunkID < $1.chunkID) }
                .prefix(k).map { $0 }
        }
    }
}
