/// One safety rule from `rules/safety/*.yaml`: the flag to show, its level, what must be present
/// (each pattern in some clause) and the typed conditions around it. See the header of
/// `rules/safety/emergency.yaml` for the format.
public struct SafetyRule: Sendable, Identifiable {
    public enum Scope: String, Sendable {
        /// Patterns are looked for in clauses the person does not deny.
        case positive
        /// Patterns are looked for in every clause, denied ones too, and in the whole question:
        /// words of suicide or self-harm get crisis help even when denied.
        case anyClause = "any-clause"
        /// Like `any-clause`, but words the person explicitly denies ("no thoughts of harming
        /// myself", "I didn't hurt myself") do not count (`explicit_denial` in rules/negation.yaml).
        /// Only a narrow denial right before the words counts as one — not the parser's broad
        /// negation, which would read "no one would care if I killed myself" as denied.
        case unlessDenied = "unless-denied"
    }

    public struct Cases: Sendable {
        /// Sentences the rule must fire on.
        public var fire: [String]
        /// Sentences it must stay quiet on.
        public var quiet: [String]
    }

    public var id: String
    public var level: TriageLevel
    /// Lay wording shown to the person; `{spo2}`, `{temperature}`, `{heart_rate}`, `{bp}` show a reading.
    public var flag: String
    /// What to show as the trigger when no pattern is involved (a reading, e.g. "SpO2 {spo2}%").
    public var shows: String?
    /// Crisis-help text follows this rule's answer.
    public var crisis: Bool
    public var scope: Scope
    /// Each must match some clause in scope.
    var all: [CompiledPattern]
    /// Every predicate of this must hold.
    var requires: RuleCondition?
    /// One of these must hold.
    var requiresAny: [RuleCondition]
    /// None of these may hold, unless one of `vetoOverrides` holds.
    var vetoes: [RuleCondition]
    var vetoOverrides: [RuleCondition]
    public var rationale: String
    public var source: String
    public var cases: Cases
    /// The file it came from, relative to the project.
    public var file: String

    /// The vital-sign readings its conditions test.
    var readings: Set<Reading> {
        let conditions = (requires.map { [$0] } ?? []) + requiresAny + vetoes + vetoOverrides
        return Set(conditions.flatMap(\.predicates).compactMap(\.reading))
    }
}
