import Foundation
import Linear
import Store

/// Formats a decided answer: conditions with their relative likelihood, the red flags and the
/// evidence that set the triage level, advice and numbered citations. It makes no decision; the
/// pipeline (`AskPipeline`) has ranked and triaged before it is called.
struct AnswerComposer: Sendable {
    /// Softmax temperature of the relative likelihood (rules/weights.yaml).
    let likelihoodTemperature: Double
    /// Cited when nothing else can be: what to do in an emergency.
    static let emergencyTopic = "corpus/topics/when-to-call-emergency-services.md"

    func compose(findings: Findings, understood: Bool, ranked: [RankedCondition], results: [HybridRetriever.Result], triage: TriageEngine.Decision,
                 redFlags: [TriageEvidence], index: IndexResources, model: Answer.ModelInfo, maxConditions: Int,
                 timings: [String: Double], started: Date, degraded: String?) throws -> Answer {
        // Likelihood: a softmax over the ranked scores (relative, not a probability of disease).
        let shown = Array(ranked.prefix(max(1, maxConditions)))
        let maxScore = ranked.first?.score ?? 0
        let expScores = ranked.map { Foundation.exp(($0.score - maxScore) / likelihoodTemperature) }
        let z = expScores.reduce(0, +)
        let conditions = shown.enumerated().map { i, r in
            Answer.Condition(id: r.profile.id, name: r.profile.name, aliases: r.profile.aliases, score: ((expScores[i] / max(z, 1e-9)) * 1000).rounded() / 1000,
                             triage: r.profile.triage, matched: r.matched, missing: r.missing, contradicted: r.contradicted, source: r.profile.path)
        }
        // Text is read only for the passages that can be cited: the leading results and the best
        // passage of each of the first three conditions.
        let table = index.retriever.index.table
        let citedPaths = Set(shown.prefix(3).map(\.profile.path))
        var wanted = Set(results.prefix(12).map(\.chunkID))
        var covered = Set<String>()
        for r in results {
            if let d = table.document(ofChunk: r.chunkID), citedPaths.contains(d.path), covered.insert(d.path).inserted { wanted.insert(r.chunkID) }
        }
        let chunks = try index.chunks(ids: results.map(\.chunkID).filter(wanted.contains))
        // Not understood: cite general guidance (topics), not conditions nobody described.
        var citations = cite(results: understood ? results : results.filter { table.document(ofChunk: $0.chunkID)?.kind != "condition" },
                             chunks: chunks, conditions: shown.prefix(3).map(\.profile), index: index)
        if citations.isEmpty, let c = index.chunks(documentPath: Self.emergencyTopic).first {
            citations = [Answer.Citation(index: 1, path: c.documentPath, section: c.headingPath, excerpt: String(c.text.prefix(240)))]
        }
        let crisis = redFlags.contains { $0.crisis }
        var allTimings = timings
        allTimings["totalMs"] = (Date().timeIntervalSince(started) * 100_000).rounded() / 100
        var answer = Answer(
            triage: .init(level: triage.level, reason: triage.reason, decidedBy: triage.decidedBy.map(\.source)),
            conditions: conditions,
            redFlags: redFlags.map { .init(flag: $0.flag, clause: $0.clause, condition: $0.condition, level: $0.level, source: $0.source) },
            advice: understood ? advice(level: triage.level, top: shown.first?.profile, crisis: crisis, index: index) : Answer.notUnderstoodAdvice,
            citations: citations,
            model: model,
            timings: allTimings,
            notice: Answer.notice)
        answer.understood = understood
        if crisis { answer.crisis = Answer.crisisHelp }
        answer.degraded = degraded
        return answer
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
