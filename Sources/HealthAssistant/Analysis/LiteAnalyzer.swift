/// Lite: conditions scored from retrieval (the query embedding and BM25 fused over the corpus)
/// plus lexical symptom matches. No per-symptom embedding work, so it costs a few milliseconds.
public struct LiteAnalyzer: Analyzer {
    public let name = "lite"
    public init() {}

    public func rank(_ input: AnalysisInput) -> [RankedCondition] {
        let positive = input.findings.positive.map { Set(TextMatch.stems($0)) }
        let negative = input.findings.negative.map { Set(TextMatch.stems($0)) }
        let joined = Set(positive.flatMap { $0 })
        // Only profiles sharing a word with the question can match lexically; the rest need
        // retrieval evidence to be ranked at all.
        let lexical: Set<Int>? = input.lexicon.map { lexicon in
            Set(joined.union(negative.flatMap { $0 }).flatMap { lexicon[$0] ?? [] })
        }
        return input.profiles.enumerated().compactMap { index, p -> RankedCondition? in
            let r = input.retrieval[p.path] ?? 0
            let canMatch = lexical?.contains(index) ?? true
            guard r > 0 || canMatch else { return nil }
            var (matched, contradicted) = canMatch ? LexicalEvidence.match(p, positive: positive, negative: negative) : ([], [])
            // Across clauses too: "neck … stiff" split by punctuation still counts.
            for (i, s) in p.symptoms.enumerated() where canMatch && !matched.contains(i) && s.matches(joined) {
                matched.insert(i)
                contradicted.remove(i)
            }
            guard r > 0 || !matched.isEmpty else { return nil }
            let total = p.symptoms.reduce(0) { $0 + $1.weightValue }
            let got = matched.reduce(0) { $0 + p.symptoms[$1].weightValue }
            let keys = p.symptoms.indices.filter { p.symptoms[$0].weight == "key" }
            let keyCov = keys.isEmpty ? 0 : Double(keys.filter(matched.contains).count) / Double(keys.count)
            let bad = contradicted.reduce(0) { $0 + p.symptoms[$1].weightValue }
            let score = r + 0.5 * (total > 0 ? got / total : 0) + 0.2 * keyCov - 0.4 * bad + p.prior(for: input.findings)
            return RankedCondition(profile: p, score: score, keyCoverage: keyCov,
                                   matched: matched.sorted().map { p.symptoms[$0].label },
                                   missing: keys.filter { !matched.contains($0) && !contradicted.contains($0) }.map { p.symptoms[$0].label },
                                   contradicted: contradicted.sorted().map { p.symptoms[$0].label })
        }.sorted { $0.score > $1.score }
    }
}
