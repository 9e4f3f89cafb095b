/// What the parser understood of a question.
public struct Findings: Sendable, Equatable {
    public struct Clause: Sendable, Equatable {
        public var text: String
        public var negated: Bool
    }

    public struct Vitals: Sendable, Equatable {
        public var temperatureC: Double?
        public var heartRate: Double?
        public var systolic: Double?
        public var diastolic: Double?
        public var oxygenSaturation: Double?
        public var isEmpty: Bool { temperatureC == nil && heartRate == nil && systolic == nil && oxygenSaturation == nil }
    }

    public enum Sex: String, Sendable, Equatable { case female, male }

    public var text: String
    /// Clauses in order; negated ones carry what the person does NOT have.
    public var clauses: [Clause]
    public var ageYears: Double?
    public var sex: Sex?
    public var pregnant = false
    public var durationDays: Double?
    public var suddenOnset = false
    public var severe = false
    public var vitals = Vitals()
    public var history: [String] = []

    public var positive: [String] { clauses.filter { !$0.negated }.map(\.text) }
    public var negative: [String] { clauses.filter(\.negated).map(\.text) }

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
