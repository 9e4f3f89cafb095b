import Linear

/// Complete: every clause of the question against every symptom phrase of every condition, by
/// embedding similarity (one gemm: clauses × phrases) and exact/lexical match; scored by how well
/// the condition explains the findings, how many of its key symptoms are present, what the person
/// denies, prevalence/age/sex priors and the retrieval evidence. Explains each condition it ranks.
public struct CompleteAnalyzer: Analyzer {
    /// The scoring weights. Defaults were tuned on the even-numbered Symptom2Disease cases
    /// (`health eval diagnosis … --split even --weights …`; the odd half is the held-out check)
    /// under a safety constraint: the can't-miss emergencies in Tests/…/cant_miss_cases.jsonl
    /// must stay in the top 3 (a higher prior weight gained a little on Symptom2Disease by
    /// ranking common harmless conditions above meningitis for "fever, stiff neck, headache").
    /// The scoring weights (`complete:` in rules/weights.yaml). They were tuned on the even-numbered
    /// Symptom2Disease cases (`health eval diagnosis … --split even --weights …`; the odd half is the
    /// held-out check) under a safety constraint: the can't-miss emergencies in
    /// Tests/…/cant_miss_cases.jsonl must stay in the top 3.
    public struct Weights: Sendable, Equatable {
        /// Similarity at which a clause counts as expressing a symptom phrase.
        public var threshold: Float
        /// Share of the positive clauses the condition's symptoms explain.
        public var explained: Double
        /// Share of the condition's key symptoms present.
        public var keyCoverage: Double
        /// Weighted share of all its symptoms present.
        public var symptomCoverage: Double
        /// Fused retrieval rank strength (0…1).
        public var retrieval: Double
        /// Cosine of the question with the condition's closest passage, relative to the best condition.
        public var dense: Double
        /// Penalty per denied symptom (weighted).
        public var denied: Double
        /// Multiplier on the prevalence/age/sex prior.
        public var prior: Double
        /// "Can't miss": an emergency condition is lifted by this times its key-symptom coverage,
        /// so a rare but dangerous fit is not ranked below a common harmless one (rule out the
        /// worst first, as clinicians do).
        public var cantMiss: Double
        /// The question as a whole against the condition's symptom profile: the mean similarity of
        /// the question's embedding to the condition's `questionFitPhrases` closest symptom phrases,
        /// relative to the best condition. Clause matching misses what a long, run-on description
        /// says only taken together.
        public var questionFit: Double
        /// How many of a condition's closest symptom phrases `questionFit` averages: enough that one
        /// lucky phrase does not decide, few enough that long symptom lists are not diluted.
        public var questionFitPhrases: Int
        /// Each positive clause's best similarity to any of the condition's symptom phrases, with no
        /// threshold, averaged over the clauses and relative to the best condition: near misses
        /// ("bumps like knots" against "nodules") still say which condition the clauses lean to.
        public var clauseFit: Double
        /// A positive clause whose words all sit in a longer phrase, which has at least this many
        /// words more, names only part of it: "headache" is not "headache that goes at work and
        /// comes back at home" (0: off). The same holds for denials the other way round.
        public var partialMentionExtraWords: Int

        public static let names = ["threshold", "explained", "keyCoverage", "symptomCoverage", "retrieval", "dense", "denied", "prior",
                                   "cantMiss", "questionFit", "questionFitPhrases", "clauseFit", "partialMentionExtraWords"]

        /// From every name in `names` (the knowledge loader checks that all are present).
        public init(values: [String: Double]) {
            threshold = Float(values["threshold"] ?? 0); explained = values["explained"] ?? 0; keyCoverage = values["keyCoverage"] ?? 0
            symptomCoverage = values["symptomCoverage"] ?? 0; retrieval = values["retrieval"] ?? 0; dense = values["dense"] ?? 0
            denied = values["denied"] ?? 0; prior = values["prior"] ?? 0; cantMiss = values["cantMiss"] ?? 0
            questionFit = values["questionFit"] ?? 0; questionFitPhrases = max(1, Int(min(values["questionFitPhrases"] ?? 1, 1_000)))
            clauseFit = values["clauseFit"] ?? 0
            partialMentionExtraWords = Int(max(0, min(values["partialMentionExtraWords"] ?? 0, 1_000)))
        }

        /// These weights with "name=value,name=value" applied on top (the names above); unknown
        /// names are an error.
        public func applying(_ text: String) throws -> Weights {
            var w = self
            for pair in text.split(separator: ",") {
                let kv = pair.split(separator: "=").map { $0.trimmingCharacters(in: .whitespaces) }
                guard kv.count == 2, let v = Double(kv[1]), v.isFinite else { throw WeightsError.bad(String(pair)) }
                switch kv[0] {
                case "threshold": w.threshold = Float(v)
                case "explained": w.explained = v
                case "keyCoverage": w.keyCoverage = v
                case "symptomCoverage": w.symptomCoverage = v
                case "retrieval": w.retrieval = v
                case "dense": w.dense = v
                case "denied": w.denied = v
                case "prior": w.prior = v
                case "cantMiss": w.cantMiss = v
                case "questionFit": w.questionFit = v
                case "questionFitPhrases": w.questionFitPhrases = max(1, Int(min(v, 1_000)))
                case "clauseFit": w.clauseFit = v
                case "partialMentionExtraWords": w.partialMentionExtraWords = Int(max(0, min(v, 1_000)))
                default: throw WeightsError.bad(String(pair))
                }
            }
            return w
        }

        public enum WeightsError: Error, CustomStringConvertible {
            case bad(String)
            public var description: String {
                if case .bad(let s) = self { return "bad weight '\(s)': use name=value with " + Weights.names.joined(separator: ", ") }
                return ""
            }
        }
    }

    public let name = "complete"
    public let model: SymptomModel
    public var weights: Weights
    var threshold: Float { weights.threshold }

    public init(model: SymptomModel, weights: Weights) { self.model = model; self.weights = weights }

    public func rank(_ input: AnalysisInput) -> [RankedCondition] {
        let f = input.findings
        let clauses = f.clauses
        let profiles = model.profiles
        // sims[c][e]: clause c vs phrase entry e.
        var simByEntry: Matrix? = nil
        if let cv = input.clauseVectors, cv.rows == clauses.count, cv.rows > 0 {
            simByEntry = BLAS.matmulTransposed(cv, model.phrases)
        }
        let clauseStems = clauses.map { Set(TextMatch.stems($0.text)) }
        let exact = clauseStems.map(model.entriesContained)
        // A denial that names a finding, or part of it, denies it: "no pain" against "sudden severe
        // pain in one testicle" sits below any similarity bar, but the person said no to it.
        let named = clauses.indices.map { c in clauses[c].negated ? model.entriesNamedBy(denied: clauseStems[c].filter { !TextMatch.queryNoise.contains($0) }) : [] }
        // A positive clause that names only part of a much longer phrase does not match it.
        let extra = weights.partialMentionExtraWords
        let partial: [Set<Int>] = clauses.indices.map { c in
            guard extra > 0, !clauses[c].negated else { return [] }
            let stems = clauseStems[c].filter { !TextMatch.queryNoise.contains($0) }
            return model.entriesNamedBy(denied: stems).filter { model.entryStemCounts[$0] >= stems.count + extra }
        }
        // For each (condition, symptom): best similarity over positive clauses and over negated ones.
        var pos: [[Float]] = profiles.map { [Float](repeating: 0, count: $0.symptoms.count) }
        var neg = pos
        // Which clause explains each symptom best, for "explained findings".
        var clauseBest: [[Float]] = profiles.map { _ in [Float](repeating: 0, count: clauses.count) }
        var clauseNearest = clauseBest
        // Clauses saying something went away, and (asked only of close phrases) whether a phrase says so too.
        let resolved = clauses.indices.map { !clauses[$0].negated && input.goneClauses.contains($0) }
        var phraseResolves: [Int: Bool] = [:]
        // A clause saying the person can do something denies a finding worded as that ability lost
        // ("I can move it every which way" against "can't move it at all"), whatever the similarity says.
        let affirms = clauses.map { !$0.negated && !$0.reported && (input.polarity?.affirmsAbility($0.text, in: f.text) ?? false) }
        var phraseLoss: [Int: Bool] = [:]
        // A clause at one end of a scale ("the size of a quarter") meets no phrase at the other
        // ("larger than the palm of the hand") by meaning; word for word it still may.
        let clauseEnds = clauses.map { input.contrasts?.ends(of: $0.text) ?? 0 }
        var phraseEnds: [Int: UInt64] = [:]
        for (e, entry) in model.entries.enumerated() where !model.entryFlagOnly[e] {
            let w = model.entryWeights[e]
            for (c, clause) in clauses.enumerated() where !clause.reported {
                var s = clause.literalOnly ? 0 : simByEntry?[c, e] ?? 0
                if exact[c][e] { s = max(s, 0.95) }
                if clause.negated {
                    if named[c].contains(e) { s = max(s, 0.95) }
                    neg[entry.condition][entry.symptom] = max(neg[entry.condition][entry.symptom], s)
                } else {
                    if affirms[c], s >= threshold, let polarity = input.polarity {
                        if phraseLoss[e] == nil { phraseLoss[e] = polarity.saysLoss(entry.phrase) }
                        if phraseLoss[e] == true {
                            neg[entry.condition][entry.symptom] = max(neg[entry.condition][entry.symptom], s)
                            continue
                        }
                    }
                    if clauseEnds[c] != 0, s >= threshold, !exact[c][e], let contrasts = input.contrasts {
                        if phraseEnds[e] == nil { phraseEnds[e] = contrasts.ends(of: entry.phrase) }
                        if FindingContrasts.opposed(clauseEnds[c], phraseEnds[e]!) { continue }
                    }
                    clauseNearest[entry.condition][c] = max(clauseNearest[entry.condition][c], s)
                    if partial[c].contains(e) { continue }
                    if resolved[c], s >= threshold {
                        if phraseResolves[e] == nil { phraseResolves[e] = TextMatch.words(entry.phrase).contains(where: input.reversalWords.contains) }
                        if phraseResolves[e] == false { continue }
                    }
                    pos[entry.condition][entry.symptom] = max(pos[entry.condition][entry.symptom], s)
                    let credit = s >= threshold ? s * (0.55 + 0.45 * w) : 0
                    clauseBest[entry.condition][c] = max(clauseBest[entry.condition][c], credit)
                }
            }
        }
        let positiveCount = max(1, clauses.filter { !$0.negated && !$0.reported }.count)
        let questionFit = weights.questionFit != 0 ? self.questionFit(Self.affirmedVector(input)) : [Double](repeating: 0, count: profiles.count)
        let topDense = input.dense.values.max() ?? 0
        let clauseFit = Self.relativeToBest(clauseNearest.map { Double($0.reduce(0, +)) / Double(positiveCount) })
        let against = input.reportedAgainst()
        return profiles.enumerated().compactMap { ci, p -> RankedCondition? in
            var matched: [String] = [], missing: [String] = [], contradicted: [String] = []
            var keyTotal = 0.0, keyHit = 0.0, weightHit = 0.0, weightTotal = 0.0, denied = 0.0
            for (si, s) in p.symptoms.enumerated() where !s.flagOnly {
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
            let dense = (input.dense[p.path] ?? topDense) - topDense
            guard !matched.isEmpty || retrieval > 0.2 || dense > -0.05 else { return nil }
            let w = weights
            let score = w.explained * explained + w.keyCoverage * keyCoverage + w.symptomCoverage * (weightTotal > 0 ? weightHit / weightTotal : 0)
                + w.retrieval * retrieval + w.dense * dense - w.denied * denied + w.prior * p.prior(for: f, input.priors, reportedAgainst: against[p.path]?.count ?? 0)
                + (p.triage == .emergency ? w.cantMiss * keyCoverage : 0) + w.questionFit * questionFit[ci] + w.clauseFit * clauseFit[ci]
            return RankedCondition(profile: p, score: score, keyCoverage: keyCoverage, matched: matched, missing: missing, contradicted: contradicted,
                                   arguedAgainst: against[p.path] ?? [],
                                   supportingClauses: clauseBest[ci].filter { $0 > 0 }.count,
                                   supportingClauseTexts: clauses.indices.filter { clauseBest[ci][$0] > 0 && !clauses[$0].derived }.map { clauses[$0].text })
        }.sorted { $0.score > $1.score }
    }

    /// Per condition: mean cosine of the question with its closest symptom phrases, minus the best
    /// condition's (so 0 for the best fit, negative for the rest); zeros without a question vector.
    func questionFit(_ queryVector: [Float]?) -> [Double] {
        var fit = [Double](repeating: 0, count: model.profiles.count)
        guard let q = queryVector, q.count == model.phrases.cols, model.phrases.rows > 0 else { return fit }
        let sims = BLAS.matmulTransposed(Matrix(rows: 1, cols: q.count, storage: q), model.phrases).storage
        var byCondition: [[Float]] = model.profiles.map { _ in [] }
        for (e, entry) in model.entries.enumerated() where !model.entryFlagOnly[e] { byCondition[entry.condition].append(sims[e]) }
        let n = max(1, weights.questionFitPhrases)
        for (ci, s) in byCondition.enumerated() where !s.isEmpty {
            let closest = s.sorted(by: >).prefix(n)
            fit[ci] = Double(closest.reduce(0, +)) / Double(closest.count)
        }
        return Self.relativeToBest(fit)
    }

    /// The question's vector for `questionFit`: the whole question, unless it denies something ("no
    /// chest pain, just a cough"), when the mean of its positive clauses stands in, so the denied
    /// symptoms do not pull their conditions up.
    static func affirmedVector(_ input: AnalysisInput) -> [Float]? {
        let clauses = input.findings.clauses
        guard clauses.contains(where: { $0.negated || $0.reported }), let cv = input.clauseVectors, cv.rows == clauses.count else { return input.queryVector }
        var mean = [Float](repeating: 0, count: cv.cols)
        for (c, clause) in clauses.enumerated() where !clause.negated && !clause.reported { for j in 0..<cv.cols { mean[j] += cv[c, j] } }
        let norm = mean.reduce(0) { $0 + $1 * $1 }.squareRoot()
        guard norm > 0 else { return input.queryVector }
        return mean.map { $0 / norm }
    }

    /// Each value minus the largest: 0 for the best condition, negative for the rest.
    static func relativeToBest(_ values: [Double]) -> [Double] {
        let best = values.max() ?? 0
        return values.map { $0 - best }
    }
}
