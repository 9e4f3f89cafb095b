/// A red-flag concept from `rules/concepts/*.yaml`: lay exemplars of it and near misses that must
/// not count. The concept detector compares what a person wrote with the exemplars in embedding
/// space, so it recognises wordings nobody here wrote; patterns (`SafetyRule`) stay a second route.
public struct RedFlagConcept: Sendable, Identifiable {
    public var id: String
    public var level: TriageLevel
    /// Lay wording shown to the person.
    public var flag: String
    /// A critical state (unresponsive, not breathing, heavy bleeding, collapse, seizure, stroke,
    /// worst-ever or tearing pain): an emergency whatever the differential says.
    public var critical: Bool
    public var crisis: Bool
    public var source: String
    public var exemplars: [String]
    public var negatives: [String]
    /// Safety rules whose vetoes this concept honours (`gives_way_to`): when one of them matched
    /// the question and a veto stopped it (a usual seizure in known epilepsy, a simple faint,
    /// chest-wall pain), the concept does not raise the same sign by meaning.
    public var givesWayTo: [String] = []
    public var file: String
}

/// How the concept detector decides (`concepts:` in rules/triage-policy.yaml).
public struct ConceptPolicy: Sendable {
    /// Each text's score for a concept is the mean of its `neighbours` most similar exemplars.
    public var neighbours: Int
    /// The score a clause needs to count as the concept.
    public var minSimilarity: Float
    /// How far the score must stand above the concept's closest near miss.
    public var margin: Float
    /// Also score the whole question (when it denies nothing).
    public var wholeQuestion: Bool
    /// Concepts of words of suicide (`crisis_words` in the policy) have their own bar and margin,
    /// read on the whole question as well as each clause: missing them costs a life, and their
    /// words come in pieces ("I'm on the bridge. I'm going to jump.") that no clause holds alone.
    public var crisisWordIDs: Set<String>
    public var crisisMinSimilarity: Float
    public var crisisMargin: Float
    /// A clause read at the crisis bar holds at least this many words: one word split from a list
    /// ("leak when I cough, sneeze or jump") is too little meaning for the lower bar.
    public var crisisMinWords: Int = 1
}
