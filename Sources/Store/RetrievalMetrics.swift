import Foundation

/// The standard IR metrics as BEIR computes them (graded gains, log2 discount).
public enum RetrievalMetrics {
    public static func ndcg(ranked: [String], relevance: [String: Int], at k: Int) -> Double {
        var dcg = 0.0
        var seen = Set<String>()
        for (i, doc) in ranked.prefix(k).enumerated() where seen.insert(doc).inserted {
            dcg += Double(relevance[doc] ?? 0) / log2(Double(i + 2))
        }
        let ideal = relevance.values.filter { $0 > 0 }.sorted(by: >).prefix(k).enumerated()
            .reduce(0.0) { $0 + Double($1.element) / log2(Double($1.offset + 2)) }
        return ideal > 0 ? dcg / ideal : 0
    }

    public static func recall(ranked: [String], relevance: [String: Int], at k: Int) -> Double {
        let relevant = Set(relevance.filter { $0.value > 0 }.keys)
        guard !relevant.isEmpty else { return 0 }
        return Double(Set(ranked.prefix(k)).intersection(relevant).count) / Double(relevant.count)
    }
}
