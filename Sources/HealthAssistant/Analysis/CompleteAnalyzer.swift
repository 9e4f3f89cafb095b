import Linear

/// Complete: every clause of the question against every symptom phrase of every condition, by
/// embedding similarity (one gemm: clauses × phrases) and exact/lexical match; scored by how well
/// the condition explains the findings, how many of its key symptoms are present, what the person
/// denies, prevalence/age/sex priors and the retrieval evidence. Explains each condition it ranks.
public struct CompleteAnalyzer: Analyzer {
    public let name = "complete"
    public let model: SymptomModel
    /// Similarity at which a clause counts as expressing a symptom phrase.
    public var threshold: Float = 0.62

    public init(model: SymptomModel) { self.model = model }

    public func rank(_ input: AnalysisInput) -> [RankedCondition] {
        let f = input.findings
        let clauses = f.clauses
        let profiles = model.profiles
        // sims[c][e]: clause c vs phrase entry e.
        var simByEntry: Matrix? = nil
        if let cv = input.clauseVectors, cv.rows == clauses.count, cv.rows > 0 {
            simByEntry = BLAS.matmul(cv, model.phrases, transposeB: true)
        }
        let stems = clauses.map { Set(TextMatch.stems($0.text)) }
        // For each (condition, symptom): best similarity over positive clauses and over negated ones.
        var pos: [[Float]] = profiles.map { [Float](repeating: 0, count: $0.symptoms.count) }
        var neg = pos
        // Which clause explains each symptom best, for "explained findings".
        var clauseBest: [[Float]] = profiles.map { _ in [Float](repeating: 0, count: clauses.count) }
        for (e, entry) in model.entries.enumerated() {
            let p = profiles[entry.condition]
            let phraseStems = model.entryStems[e]
            let w = Float(p.symptoms[entry.symptom].weightValue)
            for (c, clause) in clauses.enumerated() {
                var s = simByEntry?[c, e] ?? 0
                if !phraseStems.isEmpty && phraseStems.allSatisfy(stems[c].contains) { s = max(s, 0.95) }
                if clause.negated {
                    neg[entry.condition][entry.symptom] = max(neg[entry.condition][entry.symptom], s)
                } else {
                    pos[entry.condition][entry.symptom] = max(pos[entry.condition][entry.symptom], s)
                    let credit = s >= threshold ? s * (0.55 + 0.45 * w) : 0
                    clauseBest[entry.condition][c] = max(clauseBest[entry.condition][c], credit)
                }
            }
        }
        let positiveCount = max(1, clauses.filter { !$0.negated }.count)
        return profiles.enumerated().compactMap { ci, p -> RankedCondition? in
            var matched: [String] = [], missing: [String] = [], contradicted: [String] = []
            var keyTotal = 0.0, keyHit = 0.0, weightHit = 0.0, weightTotal = 0.0, denied = 0.0
            for (si, s) in p.symptoms.enumerated() {
                weightTotal += s.weightValue
                let isKey = s.weight == "key"
                if isKey { keyTotal += 1 }
                if pos[ci][si] >= threshold {
                    matched.append(s.label)
                    weightHit += s.weightValue
                    if isKey { keyHit += 1 }
                } else if neg[ci][si] >= max(threshold, 0.7) {
                    contradicted.append(s.label)
                    denied += s.weightValue
                } else if isKey {
                    missing.append(s.label)
                }
            }
            let explained = Double(clauseBest[ci].reduce(0, +)) / Double(positiveCount)
            let keyCoverage = keyTotal > 0 ? keyHit / keyTotal : 0
            let retrieval = input.retrieval[p.path] ?? 0
            guard !matched.isEmpty || retrieval > 0.2 else { return nil }
            let score = 1.0 * explained + 0.3 * keyCoverage + 0.15 * (weightTotal > 0 ? weightHit / weightTotal : 0)
                + 0.35 * retrieval - 0.5 * denied + p.prior(for: f)
            return RankedCondition(profile: p, score: score, keyCoverage: keyCoverage, matched: matched, missing: missing, contradicted: contradicted)
        }.sorted { $0.score > $1.score }
    }
}
