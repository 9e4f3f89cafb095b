/// One signal about urgency, with its own level and where it came from. The triage engine turns a
/// question's evidence into one level; nothing else sets a level.
public struct TriageEvidence: Sendable, Codable, Equatable {
    public enum Kind: String, Sendable, Codable {
        /// A safety rule or vital-sign threshold from `rules/safety/`.
        case rule
        /// A red-flag concept recognised by meaning (`rules/concepts/`).
        case concept
        /// A red flag listed in a candidate condition's file, found in the question's words.
        case conditionFlag = "condition-flag"
        /// A candidate condition's red flag said in other words (embedding match).
        case similarFlag = "similar-flag"
        /// A crisis condition (suicidal thoughts, self-harm) leading the ranking.
        case crisisCondition = "crisis-condition"
        /// The ranking itself: the leading condition's usual level, or a dangerous runner-up.
        case differential
        /// A circumstance that raises self-care to routine (age, pregnancy, duration, history).
        case floor
    }

    public var kind: Kind
    public var level: TriageLevel
    /// What to show: the flag in lay words, or the reason.
    public var flag: String
    /// The words of the question that triggered it (empty for the differential and floors).
    public var clause: String
    /// Rule id, condition id or floor id.
    public var id: String
    public var condition: String?
    /// Crisis-help text must follow.
    public var crisis: Bool
    /// Every clause a safety rule read (its patterns may read several); not part of the answer.
    public var readClauses: [String] = []

    enum CodingKeys: String, CodingKey { case kind, level, flag, clause, id, condition, crisis }

    public init(kind: Kind, level: TriageLevel, flag: String, clause: String, id: String, condition: String? = nil, crisis: Bool = false) {
        self.kind = kind; self.level = level; self.flag = flag; self.clause = clause; self.id = id; self.condition = condition; self.crisis = crisis
    }

    /// How the answer names it: `rule:stiff-neck-with-fever`, `condition-flag:meningitis`, `floor:pregnancy`.
    public var source: String { "\(kind.rawValue):\(id)" }

    /// Red flags are shown to the person; the differential and floors are reasons, not flags.
    public var isRedFlag: Bool { kind != .differential && kind != .floor }
}
