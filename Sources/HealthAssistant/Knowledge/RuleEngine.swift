import Foundation

/// Runs the safety rules on one question. It reports, for every rule, whether it fired and if not
/// why (`health rules explain`); the triage engine receives the ones that fired as evidence.
public struct RuleEngine: Sendable {
    /// A rule that fired: the flag to show and the words that triggered it.
    public struct Hit: Sendable {
        public var rule: SafetyRule
        public var flag: String
        public var clause: String
        /// Every clause its patterns matched (the first is `clause`).
        public var clauses: [String] = []
    }

    /// What became of one rule on one question.
    public struct Outcome: Sendable {
        public enum Status: Sendable, Equatable {
            case fired
            /// Some of its patterns matched, not all (the indices of those that did not).
            case patternsMissing([Int])
            /// Every pattern matched, but a condition did not hold (in words).
            case conditionFailed(String)
            /// Every pattern matched and its requirements held, but a veto stopped it (the veto, in words).
            case vetoed(String)
            /// None of its patterns matched.
            case silent
        }
        public var rule: SafetyRule
        public var status: Status
        /// For each pattern, the clause it matched (nil: none).
        public var matchedClauses: [String?]
        public var hit: Hit?
        /// Fired, or got part of the way: worth showing in an explanation.
        public var isNear: Bool { status != .silent }
    }

    public let rules: [SafetyRule]
    let denial: ExplicitDenial

    init(rules: [SafetyRule], denial: ExplicitDenial) { self.rules = rules; self.denial = denial }

    /// The rules that fire on these findings, in rule order.
    public func hits(_ findings: Findings) -> [Hit] {
        let input = RuleInput(findings)
        return rules.compactMap { evaluate($0, input, stopEarly: true).hit }
    }

    /// `hits`, and the rules among `ids` whose patterns all matched but a veto stopped (not a
    /// missing requirement): the exceptions the question is one of. Each rule is evaluated once.
    public func hitsAndVetoed(_ findings: Findings, among ids: Set<String>) -> (hits: [Hit], vetoed: Set<String>) {
        let input = RuleInput(findings)
        var hits: [Hit] = [], vetoed: Set<String> = []
        for rule in rules {
            let outcome = evaluate(rule, input, stopEarly: true)
            if let hit = outcome.hit { hits.append(hit) }
            if case .vetoed = outcome.status, ids.contains(rule.id) { vetoed.insert(rule.id) }
        }
        return (hits, vetoed)
    }

    /// Every rule's outcome (for explanations and per-rule tests).
    public func outcomes(_ findings: Findings) -> [Outcome] {
        let input = RuleInput(findings)
        return rules.map { evaluate($0, input, stopEarly: false) }
    }

    func evaluate(_ rule: SafetyRule, _ input: RuleInput, stopEarly: Bool) -> Outcome {
        var matched: [String?] = []
        for pattern in rule.all {
            let clause: String?
            switch rule.scope {
            case .positive: clause = input.positive.first(matching: pattern)
            case .anyClause: clause = input.anyClause.first(matching: pattern)
            case .unlessDenied: clause = denial.firstUndenied(pattern, in: input.text)
            }
            matched.append(clause)
            // The common case: the first pattern finds nothing, and the rest need not run.
            if clause == nil, stopEarly { return Outcome(rule: rule, status: .silent, matchedClauses: matched, hit: nil) }
        }
        let missing = matched.indices.filter { matched[$0] == nil }
        if !missing.isEmpty {
            return Outcome(rule: rule, status: missing.count == matched.count ? .silent : .patternsMissing(missing), matchedClauses: matched, hit: nil)
        }
        if let stopped = conditionFailure(rule, input) {
            // A threshold rule is near only when the question gave one of the readings it tests.
            let near = !rule.all.isEmpty || rule.readings.contains { $0.value(input.findings.vitals) != nil }
            return Outcome(rule: rule, status: near ? stopped : .silent, matchedClauses: matched, hit: nil)
        }
        let flag = Self.render(rule.flag, input.findings.vitals)
        let clause = matched.first.flatMap { $0 } ?? rule.shows.map { Self.render($0, input.findings.vitals) } ?? "vital signs"
        return Outcome(rule: rule, status: .fired, matchedClauses: matched, hit: Hit(rule: rule, flag: flag, clause: clause, clauses: matched.compactMap { $0 }))
    }

    /// Why the rule's conditions stop it (`.conditionFailed` or `.vetoed`), or nil when they let it fire.
    func conditionFailure(_ rule: SafetyRule, _ input: RuleInput) -> Outcome.Status? {
        if let requires = rule.requires, let failed = requires.firstFailure(input) { return .conditionFailed("needs \(failed)") }
        if !rule.requiresAny.isEmpty, !rule.requiresAny.contains(where: { $0.holds(input) }) {
            return .conditionFailed("needs one of: " + rule.requiresAny.map(\.description).joined(separator: "; "))
        }
        if let veto = rule.vetoes.first(where: { $0.holds(input) }), !rule.vetoOverrides.contains(where: { $0.holds(input) }) {
            return .vetoed("\(veto)")
        }
        return nil
    }

    /// Fills `{temperature}`, `{spo2}`, `{heart_rate}` and `{bp}` from the readings.
    static func render(_ template: String, _ v: Findings.Vitals) -> String {
        guard template.contains("{") else { return template }
        var s = template
        if let t = v.temperatureC { s = s.replacingOccurrences(of: "{temperature}", with: String(format: "%.1f °C", t)) }
        if let o = v.oxygenSaturation { s = s.replacingOccurrences(of: "{spo2}", with: String(Int(o))) }
        if let h = v.heartRate { s = s.replacingOccurrences(of: "{heart_rate}", with: String(Int(h))) }
        if let sys = v.systolic, let dia = v.diastolic { s = s.replacingOccurrences(of: "{bp}", with: "\(Int(sys))/\(Int(dia))") }
        return s
    }
}
