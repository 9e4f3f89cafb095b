import Foundation
import Linear
import Store

/// Turns retrieval evidence and an analyser's ranking into the `Answer`: red flags, triage,
/// conditions with likelihoods, advice and numbered citations.
struct AnswerComposer: Sendable {
    static let crisisConditions: Set<String> = ["suicidal-thoughts", "self-harm"]
    let detector = RedFlagDetector()
    /// Fused passages read per question.
    static let retrievalDepth = 60
    let policy = TriagePolicy()

    /// Condition strength from where its chunks rank in the fused list: Σ 1/(60 + rank), scaled to 0…1.
    /// Document kinds and paths come from the in-memory vector table, so this needs no database read.
    func retrievalStrength(_ results: [HybridRetriever.Result], table: VectorTable) -> [String: Double] {
        var strength: [String: Double] = [:]
        for (rank, r) in results.enumerated() {
            guard let d = table.document(ofChunk: r.chunkID), d.kind == "condition" else { continue }
            strength[d.path, default: 0] += 1 / (60 + Double(rank + 1))
        }
        let top = strength.values.max() ?? 1
        return strength.mapValues { $0 / top }
    }

    func compose(findings: Findings, queryVector: [Float]?, clauseVectors: Matrix?, index: IndexResources,
                 analyzer: any Analyzer, flagModel: SymptomModel?, decision: ModelSelector.Decision, maxConditions: Int,
                 times: (start: Date, parsed: Date, embedded: Date), degraded: String? = nil,
                 keywordResults: [(chunkID: Int64, score: Double)]? = nil) throws -> Answer {
        let results = try index.retriever.search(text: findings.keywordQuery, vector: queryVector, k: Self.retrievalDepth,
                                                 mode: queryVector == nil ? .bm25 : .hybrid, keywordResults: keywordResults)
        let table = index.retriever.index.table
        let tRetrieved = Date()
        var dense: [String: Double] = [:]
        // Only Complete weighs every condition's closest passage; Lite ranks from retrieval alone.
        if let queryVector, analyzer is CompleteAnalyzer {
            let best = index.retriever.index.bestScorePerDocument(queryVector)
            for (i, d) in table.documents.enumerated() where d.kind == "condition" { dense[d.path] = Double(best[i]) }
        }
        let input = AnalysisInput(findings: findings, profiles: index.profiles, retrieval: retrievalStrength(results, table: table),
                                  clauseVectors: clauseVectors, dense: dense, symptomLexicon: index.symptomLexicon, queryVector: queryVector)
        let ranked = Array(analyzer.rank(input).prefix(max(10, maxConditions)))
        var flags = detector.detect(findings, candidates: ranked.prefix(5).map(\.profile))
        // Words of suicide or self-harm phrased in ways no rule anticipated still reach the
        // matching crisis conditions: when one leads the ranking, answer with crisis help.
        if !flags.contains(where: \.crisis), let crisis = ranked.prefix(3).first(where: { AnswerComposer.crisisConditions.contains($0.profile.id) && !$0.matched.isEmpty }) {
            flags.insert(.init(flag: "possible thoughts of suicide or self-harm", clause: findings.positive.first ?? findings.text, level: .emergency,
                               crisis: true, condition: crisis.profile.id), at: 0)
        }
        if let model = flagModel, let cv = clauseVectors { flags += embeddingFlags(findings, clauseVectors: cv, model: model, candidates: ranked.prefix(3).map(\.profile), existing: flags) }
        let triage = policy.decide(findings, flags: flags, ranked: ranked.map { ($0.profile, $0.score, $0.keyCoverage) })
        let tAnalyzed = Date()

        // Likelihood: a softmax over the ranked scores (relative, not a probability of disease).
        let shown = Array(ranked.prefix(max(1, maxConditions)))
        let maxScore = ranked.first?.score ?? 0
        let expScores = ranked.map { Foundation.exp(($0.score - maxScore) / 0.25) }
        let z = expScores.reduce(0, +)
        let conditions = shown.enumerated().map { i, r in
            Answer.Condition(id: r.profile.id, name: r.profile.name, aliases: r.profile.aliases, score: ((expScores[i] / max(z, 1e-9)) * 1000).rounded() / 1000,
                             triage: r.profile.triage, matched: r.matched, missing: r.missing, contradicted: r.contradicted, source: r.profile.path)
        }
        // Text is read only for the passages that can be cited: the leading results and the best
        // passage of each of the first three conditions.
        let citedPaths = Set(shown.prefix(3).map(\.profile.path))
        var wanted = Set(results.prefix(12).map(\.chunkID))
        var covered = Set<String>()
        for r in results {
            if let d = table.document(ofChunk: r.chunkID), citedPaths.contains(d.path), covered.insert(d.path).inserted { wanted.insert(r.chunkID) }
        }
        let chunks = try index.chunks(ids: results.map(\.chunkID).filter(wanted.contains))
        let citations = cite(results: results, chunks: chunks, conditions: shown.prefix(3).map(\.profile), index: index)
        let crisis = flags.contains { $0.crisis }
        var answer = Answer(
            triage: .init(level: triage.level, reason: triage.reason),
            conditions: conditions,
            redFlags: flags.map { .init(flag: $0.flag, clause: $0.clause, condition: $0.condition) },
            advice: advice(level: triage.level, top: shown.first?.profile, crisis: crisis, index: index),
            citations: citations,
            model: .init(name: analyzer.name, reason: decision.reason),
            timings: [
                "parseMs": ms(times.start, times.parsed), "embedMs": ms(times.parsed, times.embedded),
                "retrieveMs": ms(times.embedded, tRetrieved), "analyzeMs": ms(tRetrieved, tAnalyzed), "totalMs": ms(times.start, Date()),
            ],
            notice: Answer.notice)
        if crisis { answer.crisis = Answer.crisisHelp }
        answer.degraded = degraded
        return answer
    }

    func keywordOnly(findings: Findings, index: IndexResources, maxConditions: Int, reason: String, started: Date) throws -> Answer {
        let now = Date()
        return try compose(findings: findings, queryVector: nil, clauseVectors: nil, index: index, analyzer: LiteAnalyzer(),
                           flagModel: nil, decision: .init(choice: .lite, reason: reason), maxConditions: maxConditions,
                           times: (started, now, now), degraded: "bm25-only")
    }

    func ms(_ a: Date, _ b: Date) -> Double { (b.timeIntervalSince(a) * 100_000).rounded() / 100 }

    /// Red flags of the leading conditions that a clause expresses in other words (embedding match).
    func embeddingFlags(_ f: Findings, clauseVectors: Matrix, model: SymptomModel, candidates: [ConditionProfile], existing: [RedFlagDetector.Hit]) -> [RedFlagDetector.Hit] {
        let ids = Set(candidates.map(\.id))
        var hits: [RedFlagDetector.Hit] = []
        for (e, entry) in model.flagEntries.enumerated() where ids.contains(model.profiles[entry.condition].id) {
            let profile = model.profiles[entry.condition]
            for (c, clause) in f.clauses.enumerated() where !clause.negated && c < clauseVectors.rows {
                var s: Float = 0
                for j in 0..<clauseVectors.cols { s += clauseVectors[c, j] * model.flags[e, j] }
                // A clause that only repeats some of the flag's words ("shivering" against
                // "shivering has stopped") lacks exactly the part that makes it a red flag, however
                // close the two sentences sit in embedding space.
                if s >= 0.8, !existing.contains(where: { $0.flag == entry.phrase }), !Self.saysOnlyPartOf(entry.phrase, clause: clause.text) {
                    hits.append(.init(flag: entry.phrase, clause: clause.text, level: profile.triage == .emergency ? .emergency : .urgent, crisis: false, condition: profile.id))
                }
            }
        }
        return hits
    }

    /// True when every content word of the clause is among the phrase's, and some of the phrase's are missing.
    static func saysOnlyPartOf(_ phrase: String, clause: String) -> Bool {
        let p = Set(TextMatch.stems(phrase)), c = Set(TextMatch.stems(clause))
        return c.isSubset(of: p) && c.count < p.count
    }

    /// Numbered citations: the best-ranked passage of each leading condition, then general topics.
    func cite(results: [HybridRetriever.Result], chunks: [Int64: StoredChunk], conditions: [ConditionProfile], index: IndexResources) -> [Answer.Citation] {
        var picked: [StoredChunk] = []
        for p in conditions {
            if let best = results.lazy.compactMap({ chunks[$0.chunkID] }).first(where: { $0.documentPath == p.path }) { picked.append(best) }
            else if let first = index.chunks(documentPath: p.path).first(where: { $0.headingPath.hasSuffix("Overview") }) { picked.append(first) }
        }
        for r in results {
            guard picked.count < 5, let c = chunks[r.chunkID],
                  !picked.contains(where: { $0.id == c.id || ($0.documentPath == c.documentPath && $0.headingPath == c.headingPath) }) else { continue }
            if c.documentKind != "condition" || picked.count < 3 { picked.append(c) }
        }
        return picked.prefix(5).enumerated().map { i, c in
            Answer.Citation(index: i + 1, path: c.documentPath, section: c.headingPath, excerpt: String(c.text.prefix(240)))
        }
    }

    func advice(level: TriageLevel, top: ConditionProfile?, crisis: Bool, index: IndexResources) -> [String] {
        var out = [level.meaning]
        if crisis { out.append("You do not have to face this alone: talk to someone now — call or text 988 (US) or Samaritans on 116 123 (UK).") }
        guard let top, !crisis else { return out }
        let sections = index.adviceMemo.value(for: top.path) {
            let chunks = index.chunks(documentPath: top.path)
            func firstSentences(_ heading: String, _ n: Int) -> String? {
                guard let c = chunks.first(where: { $0.headingPath.hasSuffix(heading) }) else { return nil }
                return Chunker.sentences(c.text).prefix(n).joined(separator: " ").replacingOccurrences(of: "**", with: "")
            }
            return AdviceSections(help: firstSentences("When to get help", 2), selfCare: firstSentences("Self-care", 2))
        }
        if let help = sections.help { out.append(help) }
        if level <= .routine, let care = sections.selfCare { out.append(care) }
        return out
    }
}

/// The advice sentences of one condition. They depend only on the corpus, and every answer led by
/// that condition repeats them, so they are read from the index once (`IndexResources.adviceMemo`).
struct AdviceSections: Sendable {
    var help: String?
    var selfCare: String?
}
