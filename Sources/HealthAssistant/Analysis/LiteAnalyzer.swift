/// Lite: conditions scored from retrieval (the query embedding and BM25 fused over the corpus)
/// plus lexical symptom matches. No per-symptom embedding work, so it costs a few milliseconds.
public struct LiteAnalyzer: Analyzer {
    public let name = "lite"
    public let weights: AnalysisWeights.Lite
    public init(weights: AnalysisWeights.Lite) { self.weights = weights }

    public func rank(_ input: AnalysisInput) -> [RankedCondition] {
        let lexicon = input.symptomLexicon ?? SymptomLexicon(profiles: input.profiles)
        // A symptom counts as present when the positive clauses together hold its words ("neck …
        // stiff" split by punctuation still counts), and as denied when one negated clause does.
        let matchedBy = lexicon.symptomsContained(in: Set(input.findings.positive.flatMap(TextMatch.stems)))
        var deniedBy: [Int: Set<Int>] = [:]
        for clause in input.findings.negative {
            for (p, symptoms) in lexicon.symptomsContained(in: Set(TextMatch.stems(clause))) { deniedBy[p, default: []].formUnion(symptoms) }
        }
        let against = input.reportedAgainst()
        // Only conditions that retrieval surfaced or that match a symptom are ranked at all.
        return input.profiles.indices.compactMap { index -> RankedCondition? in
            // Most of the library is neither retrieved nor matched: those are passed over before
            // their profile is copied out of the array.
            let r = input.retrieval[input.profiles[index].path] ?? 0
            guard r > 0 || matchedBy[index] != nil else { return nil }
            let p = input.profiles[index]
            // Flag-only findings raise their flags, not the condition (`Symptom.flagOnly`).
            let matched = (matchedBy[index] ?? []).filter { !p.symptoms[$0].flagOnly }
            guard r > 0 || !matched.isEmpty else { return nil }
            let contradicted = (deniedBy[index] ?? []).subtracting(matched).filter { !p.symptoms[$0].flagOnly }
            let total = p.symptoms.reduce(0) { $0 + ($1.flagOnly ? 0 : $1.weightValue) }
            let got = matched.reduce(0) { $0 + p.symptoms[$1].weightValue }
            let keys = p.symptoms.indices.filter { p.symptoms[$0].weight == "key" }
            let keyCov = keys.isEmpty ? 0 : Double(keys.filter(matched.contains).count) / Double(keys.count)
            let bad = contradicted.reduce(0) { $0 + p.symptoms[$1].weightValue }
            let w = weights
            let score = w.retrieval * r + w.symptoms * (total > 0 ? got / total : 0) + w.keyCoverage * keyCov - w.denied * bad
                + p.prior(for: input.findings, input.priors, reportedAgainst: against[p.path]?.count ?? 0)
            return RankedCondition(profile: p, score: score, keyCoverage: keyCov,
                                   matched: matched.sorted().map { p.symptoms[$0].label },
                                   missing: keys.filter { !matched.contains($0) && !contradicted.contains($0) }.map { p.symptoms[$0].label },
                                   contradicted: contradicted.sorted().map { p.symptoms[$0].label }, arguedAgainst: against[p.path] ?? [])
        }.sorted { $0.score > $1.score }
    }
}
