/// Chooses Lite or Complete for a question, and says why in words.
public struct ModelSelector: Sendable {
    public enum Choice: String, Sendable, Codable { case lite, complete }
    public enum Request: String, Sendable, Codable, CaseIterable { case auto, lite, complete }

    public struct Decision: Sendable { public var choice: Choice; public var reason: String }

    public init() {}

    /// Questions of more clauses than this are answered by Lite: Complete weighs every clause
    /// embedded on its own, and a run-on list of hundreds would cost more than it tells.
    public static let maxClauses = 32

    /// `completeFits`: whether the Complete model fits the cache budget.
    public func choose(_ f: Findings, requested: Request = .auto, completeFits: Bool = true) -> Decision {
        switch requested {
        case .lite: return Decision(choice: .lite, reason: "Lite was requested explicitly.")
        case .complete where completeFits: return Decision(choice: .complete, reason: "Complete was requested explicitly.")
        case .complete: return Decision(choice: .lite, reason: "Complete was requested but does not fit the memory limit, so Lite answered.")
        case .auto: break
        }
        if f.clauses.count > Self.maxClauses {
            return Decision(choice: .lite, reason: "A long question of \(f.clauses.count) parts: Lite weighs it as a whole.")
        }
        var reasons: [String] = []
        let symptoms = f.positive.count
        if symptoms >= 3 { reasons.append("\(symptoms) distinct findings") }
        if !f.negative.isEmpty { reasons.append("denied symptoms to weigh") }
        if !f.history.isEmpty { reasons.append("history (\(f.history.joined(separator: ", ")))") }
        if let age = f.ageYears, age < 2 || age >= 75 { reasons.append("age at an extreme (\(age < 2 ? "under 2" : "75 or over"))") }
        if f.pregnant { reasons.append("pregnancy") }
        if !f.vitals.isEmpty { reasons.append("vital signs") }
        if f.text.count > 160 { reasons.append("a long description") }
        if reasons.isEmpty {
            return Decision(choice: .lite, reason: "A short question with \(symptoms) finding\(symptoms == 1 ? "" : "s") and no complicating factors: Lite is enough.")
        }
        if !completeFits {
            return Decision(choice: .lite, reason: "Complete would suit this question (\(reasons.joined(separator: ", "))) but does not fit the memory limit, so Lite answered.")
        }
        return Decision(choice: .complete, reason: "Complete, because of " + reasons.joined(separator: ", ") + ".")
    }
}
