import Embeddings
import Foundation
import Linear
import Store

/// One question, top to bottom: parse → select → embed → retrieve → rank → triage → compose.
/// `HealthAssistant.ask` supplies the resources (the index, the Complete model, the embedding) as
/// the model cache leases them; every decision is made here, in this order.
struct AskPipeline: Sendable {
    let knowledge: ClinicalKnowledge
    let parser: FindingsParser
    let selector = ModelSelector()
    let rules: RuleEngine
    let triage: TriageEngine
    let conditionFlags: ConditionFlagFinder
    let composer: AnswerComposer
    /// Fused passages read per question.
    static let retrievalDepth = 60

    init(knowledge: ClinicalKnowledge) {
        self.knowledge = knowledge
        parser = knowledge.parser
        rules = knowledge.engine
        triage = TriageEngine(policy: knowledge.policy)
        conditionFlags = ConditionFlagFinder(policy: knowledge.policy)
        composer = AnswerComposer(likelihoodTemperature: knowledge.weights.likelihoodTemperature)
    }

    /// Times of the stages already done when `finish` starts.
    struct Clock: Sendable { var start: Date; var parsed: Date }

    // 1. parse
    func parse(_ question: String) -> Findings { parser.parse(question) }

    // 2. select
    func select(_ f: Findings, requested: ModelSelector.Request, completeFits: Bool) -> ModelSelector.Decision {
        selector.choose(f, requested: requested, completeFits: completeFits)
    }

    /// Clauses embedded one by one at most (the selector sends longer questions to Lite).
    static let maxEmbeddedClauses = ModelSelector.maxClauses

    /// The clauses embedded after the question, by index. Complete reads every clause (its
    /// symptom matching weighs denied ones too); Lite only feeds the concept detector, which reads
    /// the clauses the person does not deny, and a one-clause question's clause vector is the
    /// question's own, so Lite embeds nothing more for it.
    func embeddedClauses(_ f: Findings, _ decision: ModelSelector.Decision) -> [Int] {
        guard decision.choice == .complete else {
            return f.clauses.count <= 1 ? [] : Array(f.clauses.indices.filter { !f.clauses[$0].negated }.prefix(Self.maxEmbeddedClauses))
        }
        return Array(f.clauses.indices.prefix(Self.maxEmbeddedClauses))
    }

    /// What to embed, in one packed batch: the question, then the embedded clauses in order.
    func embeddingTexts(_ question: String, _ f: Findings, _ decision: ModelSelector.Decision) -> [String] {
        [question] + embeddedClauses(f, decision).map { f.clauses[$0].text }
    }

    /// 3–7: embed (awaited here, started earlier), retrieve, rank, triage, compose. `embedding` nil
    /// means a keyword-only answer; `model` is the Complete model when the selector chose it.
    func finish(_ f: Findings, decision: ModelSelector.Decision, embedding: Task<Matrix, Error>?, index: IndexResources,
                model: SymptomModel?, concepts: ConceptModel?, options: HealthAssistant.AskOptions, clock: Clock) async throws -> Answer {
        let embedded = embeddedClauses(f, decision)
        let f = Self.settingAsideNamedFears(f, names: index.conditionNames, hypothesis: parser.lexicon.hypothesis, reported: parser.lexicon.reported)
        var decision = decision
        var degraded: String?
        // 3. embed — the keyword half of retrieval needs no vector and runs while the embedding
        // finishes, and so do the safety rules, which read only the words: the embedding streams
        // its weights from memory, so the other work fits beside it on two cores.
        let keyword = try embedding.map { _ in try index.retriever.keywordCandidates(text: f.keywordQuery, k: Self.retrievalDepth, mode: .hybrid) }
        // The rules whose exception a concept or a can't-miss condition honours, and which of them
        // matched and were vetoed ("one of my usual seizures"): read once for both.
        let givingWay = knowledge.policy.cantMiss.givesWayTo
        let (ruleHits, vetoedRules) = rules.hitsAndVetoed(f, among: Set(givingWay.values.joined()).union(concepts?.concepts.flatMap(\.givesWayTo) ?? []))
        var vectors: Matrix?
        if let embedding {
            do {
                vectors = try await embedding.value
            } catch let error as EmbeddingError {
                // The model is unavailable: still answer, from keywords alone, and say so.
                decision = .init(choice: .lite, reason: "The embedding model is unavailable (\(error)); this answer uses keyword search only.")
            }
        }
        if vectors == nil {
            degraded = "bm25-only"
            if embedding == nil { decision = .init(choice: .lite, reason: "Keyword-only (BM25) answer, as requested.") }
        }
        let tEmbedded = Date()
        let queryVector = vectors.map { Array($0.row(0)) }
        let clauseVectors = vectors.flatMap { v in
            v.rows > 1 ? Matrix(rows: v.rows - 1, cols: v.cols, storage: Array(v.storage[v.cols...])) : nil
        }
        let useComplete = decision.choice == .complete && model != nil && clauseVectors?.rows == f.clauses.count

        // 4. retrieve — one pass over the vectors serves the retrieval and every condition's
        // closest passage (`densePerCondition`).
        let scores = queryVector.map { index.retriever.index.scores($0) }
        let results = try index.retriever.search(text: f.keywordQuery, vector: queryVector, k: Self.retrievalDepth,
                                                 mode: queryVector == nil ? .bm25 : .hybrid, keywordResults: queryVector == nil ? nil : keyword,
                                                 denseScores: scores)
        let tRetrieved = Date()

        // 5. rank
        let analyzer: any Analyzer = useComplete
            ? CompleteAnalyzer(model: model!, weights: options.completeWeights ?? knowledge.weights.complete)
            : LiteAnalyzer(weights: knowledge.weights.lite)
        // Every condition's closest passage: Complete weighs them all; both read how health-related the question is.
        let dense = Self.densePerCondition(scores, index: index)
        var input = AnalysisInput(findings: f, profiles: index.profiles, retrieval: Self.retrievalStrength(results, table: index.retriever.index.table),
                                  clauseVectors: useComplete ? clauseVectors : nil,
                                  dense: useComplete ? dense : [:],
                                  symptomLexicon: index.symptomLexicon, queryVector: queryVector, priors: knowledge.weights.priors)
        input.reversalWords = knowledge.policy.similarFlagReversalWords
        input.polarity = knowledge.findings.polarity
        input.contrasts = knowledge.findings.contrasts
        input.goneClauses = Set(f.clauses.indices.filter { ConditionFlagFinder.saysGone(f.clauses[$0].text, policy: knowledge.policy) })
        input.againstLexicon = index.againstLexicon
        var ranked = Array(analyzer.rank(input).prefix(max(10, options.maxConditions)))

        // 6. triage
        let ageIsThePatients = ageIsThePatients(f)
        var evidence = redFlags(f, ranked: ranked, clauseVectors: useComplete ? clauseVectors : nil, model: useComplete ? model : nil,
                                crisisFromRanking: concepts == nil || vectors == nil, index: index, ageIsThePatients: ageIsThePatients, ruleHits: ruleHits)
        if let concepts, let vectors { evidence = merge(evidence, conceptFlags(f, vectors: vectors, embedded: embedded, model: concepts, ranked: ranked,
                                                                                          vetoed: vetoedRules)) }
        // With no recognisable symptom or finding, say so: no guessed conditions, and safe advice.
        let understood = Self.understood(f, courtesy: knowledge.findings.courtesy, evidence: evidence, lexicon: index.symptomLexicon, names: index.conditionNames, closestCondition: dense.values.max(),
                                         minSimilarity: knowledge.policy.understoodMinSimilarity,
                                         oneWordMinSimilarity: knowledge.policy.understoodOneWordMinSimilarity)
        if !understood { ranked = [] }
        let verdict = understood
            ? triage.decide(f, flags: evidence, ranked: ranked.map { .init(profile: $0.profile, score: $0.score, keyCoverage: $0.keyCoverage,
                                                                     // A picture counts things said: matches resting on one clause count once.
                                                                     matched: min($0.matched.count, $0.supportingClauses ?? .max),
                                                                     contradicted: $0.contradicted.count,
                                                                     outlasted: $0.profile.outlasts(f, knowledge.weights.priors),
                                                                     outOfAge: ageIsThePatients && $0.profile.outOfAge(f, margin: knowledge.policy.cantMiss.ageMarginYears),
                                                                     supportingClauses: $0.supportingClauseTexts,
                                                                     // A can't-miss condition gives way where a rule reading its sign was vetoed.
                                                                     givesWay: givingWay[$0.profile.id]?.contains(where: vetoedRules.contains) ?? false) })
            : triage.notUnderstood()
        let tAnalyzed = Date()

        // 7. compose
        return try composer.compose(findings: f, understood: understood, ranked: ranked, results: results, triage: verdict, redFlags: evidence, index: index,
                                    model: .init(name: analyzer.name, reason: decision.reason), maxConditions: options.maxConditions,
                                    timings: [
                                        "parseMs": ms(clock.start, clock.parsed), "embedMs": ms(clock.parsed, tEmbedded),
                                        "retrieveMs": ms(tEmbedded, tRetrieved), "analyzeMs": ms(tRetrieved, tAnalyzed),
                                    ], started: clock.start, degraded: degraded)
    }

    /// A clause that names a condition as a fear or a guess ("freaking out that I'm having a heart
    /// attack", "could it be meningitis?") says what the person fears, not what they feel: it meets
    /// findings only word for word, so the name's meaning does not match the condition's findings.
    /// The rules still read it ("I think I'm having a heart attack" is its own red flag), and
    /// nothing is denied.
    /// One that names a condition in someone else's words — another person's guess, something read,
    /// a relative's illness ("my friend said it could be a heart attack", "I read an itchy throat can
    /// be anaphylaxis", "my grandad died of a heart attack") — is no finding of the person's at all:
    /// the rules do not read it either (`Clause.reported`). A professional's view or an event now
    /// ("my wife thinks I'm having a stroke") stays the person's (`reported.unless`).
    static let namedFearMaxWords = 10
    static let reportedMaxWords = 16

    static func settingAsideNamedFears(_ f: Findings, names: ConditionNames, hypothesis: CompiledPattern,
                                       reported: (says: CompiledPattern, unless: CompiledPattern, ahead: CompiledPattern?)? = nil) -> Findings {
        var f = f
        for i in f.clauses.indices where !f.clauses[i].negated && !f.clauses[i].derived {
            let text = f.clauses[i].text.lowercased()
            let words = text.split(separator: " ").count
            // "how will I know if I'm getting dehydrated": what to watch for later is nobody's finding yet.
            if let r = reported, let ahead = r.ahead, words <= Self.reportedMaxWords, ahead.matches(text), !r.unless.matches(text) {
                f.clauses[i].literalOnly = true
                f.clauses[i].reported = true
                continue
            }
            let fear = !f.clauses[i].literalOnly && words <= Self.namedFearMaxWords && hypothesis.matches(text)
            let others = reported.map { words <= Self.reportedMaxWords && $0.says.matches(text) && !$0.unless.matches(text) } ?? false
            guard fear || others, !names.named(in: [Set(TextMatch.stems(text))]).isEmpty else { continue }
            f.clauses[i].literalOnly = true
            if others { f.clauses[i].reported = true }
        }
        return f
    }

    /// Every red-flag signal, in the order shown: safety rules and vital signs (`ruleHits`, read while
    /// the embedding ran), the leading conditions' own flags, a crisis condition, then flags said in
    /// other words. One per flag text.
    /// `crisisFromRanking`: without the concept detector (keyword-only answers), a crisis condition
    /// leading the ranking stands in for crisis words no rule anticipated.
    /// `index`: its symptom lexicon tells specific one-word wordings, and the conditions the question
    /// names are checked for their flags too (`ConditionNames`).
    func redFlags(_ f: Findings, ranked: [RankedCondition], clauseVectors: Matrix?, model: SymptomModel?, crisisFromRanking: Bool = true,
                  index: IndexResources? = nil, ageIsThePatients: Bool, ruleHits: [RuleEngine.Hit]) -> [TriageEvidence] {
        var evidence = ruleHits.map { hit in
            var e = TriageEvidence(kind: .rule, level: hit.rule.level, flag: hit.flag, clause: hit.clause, id: hit.rule.id, crisis: hit.rule.crisis)
            e.readClauses = hit.clauses
            return e
        }
        let leading = ranked.prefix(knowledge.policy.conditionFlagCandidates)
        // A condition far outside the person's own age ("sepsis in babies" for a man of 52) lends
        // no warning signs: its flags said in his words describe something else.
        func ofAge(_ p: ConditionProfile) -> Bool { !(ageIsThePatients && p.outOfAge(f, margin: knowledge.policy.cantMiss.ageMarginYears)) }
        var candidates = leading.map(\.profile).filter(ofAge)
        var named: Set<String> = []
        if let index {
            let positive = f.clauses.filter { !$0.negated && !$0.reported }.map { Set(TextMatch.stems($0.text)) }
            for p in index.conditionNames.named(in: positive).map({ index.profiles[$0] }) {
                named.insert(p.id)
                if !candidates.contains(where: { $0.id == p.id }), ofAge(p) { candidates.append(p) }
            }
        }
        evidence += conditionFlags.lexicalFlags(f, candidates: candidates,
                                                matched: Dictionary(leading.map { ($0.profile.id, $0.matched) }, uniquingKeysWith: { a, _ in a }),
                                                named: named, lexicon: index?.symptomLexicon, polarity: knowledge.findings.polarity)
        var seen = Set<String>()
        evidence = evidence.filter { seen.insert($0.flag.lowercased()).inserted }
        if crisisFromRanking, !evidence.contains(where: \.crisis), let crisis = conditionFlags.crisisCondition(f, ranked: ranked) { evidence.insert(crisis, at: 0) }
        if let model, let clauseVectors {
            evidence += conditionFlags.similarFlags(f, clauseVectors: clauseVectors, model: model,
                                                    candidates: ranked.prefix(knowledge.policy.similarFlagCandidates).map(\.profile).filter(ofAge), existing: evidence,
                                                    polarity: knowledge.findings.polarity)
        }
        return evidence
    }

    /// Whether the question holds anything health-related the assistant recognises: a red flag
    /// of any kind, a vital sign, or else a whole finding or condition name in the words, in a
    /// question whose meaning comes near some condition's passage (`closestCondition`, the best
    /// cosine, at least `minSimilarity`): a recipe or a train timetable shares words with the
    /// library ("cream", "eggs", "hot") but not meaning. Denied words count too; filler words such
    /// as "today" or "how" do not. Words that are only part of a finding or a name ("toothache"
    /// of "throbbing toothache", a name's "test" or "three") count when the meaning
    /// comes nearer a condition's passage (`oneWordMinSimilarity`) than a film or weather question
    /// does. Without a question vector (keyword-only), words alone decide: a name's word or two
    /// words of the library's wordings.
    static func understood(_ f: Findings, courtesy: CompiledPattern? = nil, evidence: [TriageEvidence], lexicon: SymptomLexicon, names: ConditionNames, closestCondition: Double?,
                           minSimilarity: Double, oneWordMinSimilarity: Double) -> Bool {
        if !evidence.isEmpty || !f.vitals.isEmpty || f.vitals.peakFlowPercent != nil { return true }
        if let closestCondition, closestCondition < minSimilarity { return false }
        // A greeting or courtesy said as a whole clause holds no health words ("good morning to you").
        let said = f.clauses.filter { c in !(courtesy?.matches(c.text.lowercased().trimmingCharacters(in: .punctuationCharacters.union(.whitespaces))) ?? false) }
        let stems = Set(said.flatMap { TextMatch.words($0.text) }
            .filter { $0.count > 2 && !TextMatch.stopWords.contains($0) && !TextMatch.queryNoise.contains($0) }.map(TextMatch.stem))
        // A whole finding in the words ("sore throat", "I feel dizzy") or a condition named in full
        // ("eczema", "hydrocephalus" are names of one word) is understood at the lower bar. Loose words
        // of names and findings are not: "test", "one", "three", "work" and "won" are each part of
        // some name or wording ("positive pregnancy test", "three-day measles"), and a test message
        // or a football question holds two of them. They count only at the nearer meaning one
        // symptom word needs.
        if !lexicon.variantsContained(in: stems).isEmpty || !names.named(in: [stems]).isEmpty { return true }
        let nameWord = stems.contains(where: lexicon.nameVocabulary.contains), known = stems.filter { lexicon.postings[$0] != nil }.count
        guard let closestCondition else { return nameWord || known >= 2 }
        return closestCondition >= oneWordMinSimilarity && (nameWord || known >= 1)
    }

    /// Red-flag concepts recognised by meaning: the positive clauses, and the whole question when
    /// it denies nothing. Row 0 of `vectors` is the question; row k + 1 is clause `embedded[k]`.
    /// `vetoed`: the rules, among those the concepts give way to, that matched and were vetoed.
    func conceptFlags(_ f: Findings, vectors: Matrix, embedded: [Int], model: ConceptModel, ranked: [RankedCondition],
                      vetoed: Set<String>) -> [TriageEvidence] {
        var rows: [Int] = [], texts: [String] = []
        if knowledge.policy.concepts.wholeQuestion, !f.clauses.contains(where: { $0.negated || $0.reported }) { rows.append(0); texts.append(f.text) }
        if embedded.isEmpty, f.clauses.count == 1, !f.clauses[0].negated, !f.clauses[0].reported { rows.append(0); texts.append(f.clauses[0].text) }
        for (k, i) in embedded.enumerated() where !f.clauses[i].negated && !f.clauses[i].literalOnly && k + 1 < vectors.rows
            && !parser.statesHistoryOnly(f.clauses[i].text) { rows.append(k + 1); texts.append(f.clauses[i].text) }
        let policy = knowledge.policy
        // Rows past `read` hold the whole question for words of suicide alone (`crisis_words`): they
        // may sit in separate sentences, and it is scored in the same pass as the clauses.
        let read = rows.count
        if !policy.concepts.crisisWordIDs.isEmpty, !rows.contains(0) { rows.append(0); texts.append(f.text) }
        var picked = Matrix(rows: rows.count, cols: vectors.cols)
        for (r, row) in rows.enumerated() { for j in 0..<vectors.cols { picked[r, j] = vectors[row, j] } }
        // A clause saying something went away ("stopped bleeding after 5 minutes") is not a concept
        // none of whose exemplars says so (heavy bleeding); crisis concepts are never turned round.
        // Such clauses are read apart, so another clause can still raise the concept.
        let gone = texts.map { ConditionFlagFinder.saysGone($0, policy: policy) }
        let detector = ConceptDetector(policy: policy.concepts)
        let scores = detector.scores(vectors: picked, model: model)
        var found = detector.evidence(texts: texts, scores: scores, model: model, rows: { $0 < read && !gone[$0] })
        for e in detector.evidence(texts: texts, scores: scores, model: model, rows: { $0 < read && gone[$0] }) where !found.contains(where: { $0.id == e.id }) {
            guard let concept = model.concepts.first(where: { $0.id == e.id }) else { continue }
            if e.crisis || concept.exemplars.contains(where: { ConditionFlagFinder.saysGone($0, policy: policy) }) { found.append(e) }
        }
        // Words of suicide few exemplars resemble closely still count when the ranking agrees: a
        // crisis condition first (`concept_within_top`) and a positive clause near a crisis concept
        // at a lower bar. Either signal alone is too weak ("no thoughts of harming myself" ranks the
        // condition; a cut finger's "cut is closed up" sits near the self-harm exemplars).
        if !found.contains(where: \.crisis), conditionFlags.crisisCondition(f, ranked: ranked, withinTop: policy.crisisConceptWithinTop, needsMatch: false) != nil {
            found += detector.evidence(texts: texts, scores: scores, model: model, rows: { $0 < read },
                                       minSimilarity: policy.crisisConceptMinSimilarity).filter(\.crisis)
        }
        // Words of suicide at their own bar (`crisis_words`), on every positive clause and on the
        // whole question, denials and all: the near misses hold the denials ("no thoughts of
        // harming myself"), and the margin keeps them out.
        if !found.contains(where: \.crisis), !policy.concepts.crisisWordIDs.isEmpty {
            let minWords = policy.concepts.crisisMinWords
            found += detector.evidence(texts: texts, scores: scores, model: model,
                                       rows: { texts[$0].split(separator: " ").count >= minWords },
                                       minSimilarity: policy.concepts.crisisMinSimilarity, margin: policy.concepts.crisisMargin)
                .filter { policy.concepts.crisisWordIDs.contains($0.id) }
        }
        // A concept gives way where a rule it names matched and was vetoed ("one of my usual
        // seizures", a simple faint): the rule's exception holds for the same sign said by meaning.
        if !vetoed.isEmpty {
            found.removeAll { e in !e.crisis && (model.concepts.first { $0.id == e.id }?.givesWayTo.contains(where: vetoed.contains) ?? false) }
        }
        return found
    }

    /// A condition's age range is read against the age only when it is surely the patient's: no
    /// baby's age (a mother writes it), and in a message about someone else ("my husband is 57")
    /// only when the writer gives no age of their own ("I'm 31, my mum is 80" may be either's).
    func ageIsThePatients(_ f: Findings) -> Bool {
        (f.ageYears ?? 0) >= 1 && (!parser.mentionsAnotherPerson(f.text) || !parser.statesOwnAge(f.text))
    }

    /// Concept evidence after the rest, one per flag text.
    func merge(_ evidence: [TriageEvidence], _ more: [TriageEvidence]) -> [TriageEvidence] {
        var seen = Set(evidence.map { $0.flag.lowercased() })
        return evidence + more.filter { seen.insert($0.flag.lowercased()).inserted }
    }

    /// Condition strength from where its chunks rank in the fused list: Σ 1/(60 + rank), scaled to 0…1.
    /// Document kinds and paths come from the in-memory vector table, so this needs no database read.
    static func retrievalStrength(_ results: [HybridRetriever.Result], table: VectorTable) -> [String: Double] {
        var strength: [String: Double] = [:]
        for (rank, r) in results.enumerated() {
            guard let d = table.document(ofChunk: r.chunkID), d.kind == "condition" else { continue }
            strength[d.path, default: 0] += 1 / (60 + Double(rank + 1))
        }
        let top = strength.values.max() ?? 1
        return strength.mapValues { $0 / top }
    }

    /// Every condition's closest passage to the question (Complete weighs them all; Lite only what retrieval found).
    /// `scores`: the question's score against every passage (`ExactVectorIndex.scores`).
    static func densePerCondition(_ scores: [Float]?, index: IndexResources) -> [String: Double] {
        guard let scores else { return [:] }
        let table = index.retriever.index.table
        let best = index.retriever.index.bestScorePerDocument(scores: scores)
        var dense: [String: Double] = [:]
        for (i, d) in table.documents.enumerated() where d.kind == "condition" { dense[d.path] = Double(best[i]) }
        return dense
    }

    func ms(_ a: Date, _ b: Date) -> Double { (b.timeIntervalSince(a) * 100_000).rounded() / 100 }
}
