/// What the parser understood of a question.
public struct Findings: Sendable, Equatable {
    public struct Clause: Sendable, Equatable {
        public var text: String
        public var negated: Bool
        /// Said by the parser, not the person: a reading restated in words ("high temperature (38.4 °C measured)").
        public var derived = false
        /// Meets a finding only word for word, never by meaning: what a denial after it is about
        /// ("white of eye" in "white of eye not red", "his neck" in "his neck is not stiff": a few
        /// words that name a part; "chest pain not relieved by rest" keeps its chest pain).
        public var literalOnly = false
        /// Someone else's words, not the person's finding: another person's guess or something read
        /// ("my friend said it could be a heart attack"), or a relative's illness ("my grandad died of
        /// a heart attack"). No rule, concept or condition reads it, as a finding or as a denial
        /// (`AskPipeline.settingAsideNamedFears`, `reported` in rules/findings.yaml).
        public var reported = false
    }

    public struct Vitals: Sendable, Equatable {
        public var temperatureC: Double?
        public var heartRate: Double?
        public var systolic: Double?
        public var diastolic: Double?
        public var oxygenSaturation: Double?
        /// Peak flow as a percentage of the person's best.
        public var peakFlowPercent: Double?
        /// Whether a reading was given (peak flow, asked about asthma, is not counted here).
        public var isEmpty: Bool { temperatureC == nil && heartRate == nil && systolic == nil && oxygenSaturation == nil }
    }

    public enum Sex: String, Sendable, Equatable { case female, male }

    public var text: String
    /// Clauses in order; negated ones carry what the person does NOT have.
    public var clauses: [Clause]
    public var ageYears: Double?
    public var sex: Sex?
    public var pregnant = false
    /// Has recently given birth: pregnancy's conditions still apply.
    public var postpartum = false
    public var durationDays: Double?
    /// How long the trouble has lasted, from explicit spans only (see `FindingsParser.lasted`).
    public var lastedDays: Double?
    public var suddenOnset = false
    /// Said to have come on slowly ("gradually", "bit by bit").
    public var gradualOnset = false
    public var severe = false
    public var vitals = Vitals()
    public var history: [String] = []

    public var positive: [String] { clauses.filter { !$0.negated && !$0.reported }.map(\.text) }
    public var negative: [String] { clauses.filter { $0.negated && !$0.reported }.map(\.text) }

    /// The corpus's age groups this person falls in.
    public var ageGroup: String? {
        guard let a = ageYears else { return nil }
        switch a {
        case ..<1: return "infant"
        case ..<13: return "child"
        case ..<18: return "adolescent"
        case ..<65: return "adult"
        default: return "older-adult"
        }
    }
}

extension Findings {
    /// Words for the keyword (BM25) search: the content words of what the person has. Denied
    /// symptoms are left out (BM25 cannot read "no"), and so are function words, which match nearly
    /// every passage and only cost time. Falls back to the whole text when nothing is left.
    public var keywordQuery: String {
        let words = TextMatch.words(positive.joined(separator: " "))
            .filter { $0.count > 1 && !TextMatch.stopWords.contains($0) && !TextMatch.queryNoise.contains($0) }
        var seen = Set<String>()
        let unique = words.filter { seen.insert($0).inserted }
        return unique.isEmpty ? text : unique.joined(separator: " ")
    }
}
