/// The analysis models' scoring weights, from `rules/weights.yaml`.
public struct AnalysisWeights: Sendable {
    /// Lite: fused retrieval strength plus lexical symptom matches.
    public struct Lite: Sendable {
        public var retrieval: Double
        public var symptoms: Double
        public var keyCoverage: Double
        public var denied: Double
    }

    /// Prior from prevalence and fit with age, sex and pregnancy.
    public struct Priors: Sendable {
        public var common: Double
        public var rare: Double
        public var ageMismatch: Double
        public var infantAgeMismatch: Double
        public var sexMismatch: Double
        public var pregnancyMatch: Double
        public var pregnancyConditionNotPregnant: Double
        /// Penalty when the person's symptoms have lasted longer than the condition's usual course.
        public var courseMismatch: Double
        /// The longest a condition of each usual course (schema v2 `duration`) plausibly lasts, in days.
        public var courseMaxDays: [String: Double]
        /// The longest a condition of each onset (schema v2 `onset`) takes to come on, in days: a
        /// trouble said to have crept up slowly over longer than that argues against it.
        public var onsetMaxDays: [String: Double] = [:]
        /// Penalty per reported finding that argues against a condition (its `against` list), in
        /// the ranking only; emergency and can't-miss conditions are spared.
        public var againstFinding: Double = 0
    }

    /// How much a symptom of each weight ("key", "typical", "occasional") counts.
    public var symptomWeights: [String: Double]
    public var priors: Priors
    public var lite: Lite
    public var complete: CompleteAnalyzer.Weights
    /// Softmax temperature of the relative likelihood shown with each condition.
    public var likelihoodTemperature: Double
}
