/// The triage engine's constants, from `rules/triage-policy.yaml` (what each means is said there).
public struct TriagePolicyData: Sendable {
    public struct RunnerUp: Sendable {
        public var withinTop: Int
        public var scoreRatio: Double
        public var minKeyCoverage: Double
        public var atMost: TriageLevel
        /// A runner-up with this share of its key findings, none denied, counts whatever its score.
        public var fullKeyCoverage: Double
    }

    /// A circumstance that raises self-care to routine.
    public struct Floor: Sendable {
        public var id: String
        var when: RuleCondition
        public var reason: String
    }

    public struct CantMiss: Sendable {
        public var withinTop: Int
        public var typicalKeyCoverage: Double
        public var typicalMinMatched: Int
        public var someKeyCoverage: Double
        public var otherwise: TriageLevel
        /// A typical picture counts only within this score of the leading condition.
        public var maxScoreGap: Double
        /// Conditions, each with the safety rules that read its sign: where one of them matched and
        /// its exception holds (vetoed: "one of my usual seizures, came round as normal"), the
        /// condition gives way too, possible at most, never a typical picture or an emergency lead.
        public var givesWayTo: [String: [String]] = [:]
        /// A person more than this many years outside a condition's ages contests its picture.
        public var ageMarginYears: Double = 10
    }

    public var leadingEmergencyWithoutSign: TriageLevel
    /// …when its matches rest on at least this many things said (clauses).
    public var leadingEmergencyMinMatched: Int
    /// …and at least this share of its key findings (0: none needed).
    public var leadingEmergencyMinKeyCoverage: Double = 0
    public var cantMiss: CantMiss
    public var runnerUp: RunnerUp
    public var conditionFlagCandidates: Int
    public var conditionFlagMinWords: Int
    /// …or of one word that at most this many conditions use in their findings.
    public var conditionFlagSingleWordMaxConditions: Int
    /// A v2 flag met through one finding alone fires only when another finding of its condition is present.
    public var loneFindingNeedsContext: Bool
    /// …unless that finding is one of the condition's key findings.
    public var loneKeyFindingStands: Bool
    public var similarFlagCandidates: Int
    public var similarFlagMinSimilarity: Float
    /// Words that turn a statement round ("not", "won't"): a flag and a clause that differ in them
    /// say opposite things however close their embeddings.
    public var similarFlagPolarityWords: Set<String>
    /// Words that say something goes on ("still", "keeps"): the same side as a negated stop.
    public var similarFlagPersistenceWords: Set<String>
    /// Words that say something went away ("fades", "stopped"): a clause holding one, against a flag without.
    public var similarFlagReversalWords: Set<String>
    public var crisisConditionIDs: Set<String>
    public var crisisWithinTop: Int
    /// With a crisis condition among the first `crisisConceptWithinTop` (matched or ranked by retrieval), a
    /// clause `crisisConceptMinSimilarity` close to a crisis concept's exemplars counts as the
    /// concept: below the concepts' own bar, two weak signals that agree.
    public var crisisConceptWithinTop: Int
    public var crisisConceptMinSimilarity: Float
    public var selfCareFloor: [Floor]
    public var concepts: ConceptPolicy
    /// The level of an answer to a message with no recognisable finding.
    public var notUnderstood: TriageLevel
    /// Below this cosine between the question and its closest condition passage, words alone do
    /// not make a message understood.
    public var understoodMinSimilarity: Double
    /// A single symptom word ("dizzy", "toothache") makes a message understood when its meaning
    /// comes at least this near a condition passage: a higher bar than two words need.
    public var understoodOneWordMinSimilarity: Double
    /// Self-care needs a mild condition that fits: this share of its key findings at least.
    public var selfCareMinKeyCoverage: Double
    public var selfCareWeakFitReason: String
}
