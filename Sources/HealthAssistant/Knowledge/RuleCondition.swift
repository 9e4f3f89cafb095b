import Foundation

/// What a rule sees of one question, computed once: the findings, the lower-cased text, and the
/// clauses it may read.
public struct RuleInput: Sendable {
    public let findings: Findings
    let text: String
    let positive: ClauseSet
    /// Every clause, denied ones too, and the whole text (for rules read regardless of negation).
    let anyClause: ClauseSet

    public init(_ findings: Findings) {
        self.findings = findings
        text = findings.text.lowercased()
        positive = ClauseSet(findings.positive)
        anyClause = ClauseSet(findings.clauses.map(\.text) + [text])
    }
}

/// Clauses searched together: one pattern runs once over all of them, joined by line breaks (which
/// `.` does not cross, so a match stays inside one clause), instead of once per clause — a long
/// question of many clauses costs one pass per pattern, not hundreds. Identical clauses ("a, a, a,
/// …") are kept once: the answer cannot depend on repeats.
struct ClauseSet: Sendable {
    let clauses: [String]
    let joined: String
    /// Where each clause starts in `joined`, in UTF-16 offsets (what NSRegularExpression reports).
    let starts: [Int]

    init(_ all: [String]) {
        var seen = Set<String>()
        // A clause never holds a line break (the parser splits on them), but the whole text may.
        clauses = all.map { $0.replacingOccurrences(of: "\n", with: " ") }.filter { seen.insert($0).inserted }
        var starts: [Int] = [], offset = 0
        for c in clauses { starts.append(offset); offset += c.utf16.count + 1 }
        self.starts = starts
        joined = clauses.joined(separator: "\n")
    }

    var isEmpty: Bool { clauses.isEmpty }

    /// The first clause (in order) that the pattern matches, if any.
    func first(matching pattern: CompiledPattern) -> String? {
        guard !clauses.isEmpty, let m = pattern.regex.firstMatch(in: joined, range: NSRange(location: 0, length: joined.utf16.count)) else { return nil }
        // The last clause starting at or before the match.
        var lo = 0, hi = starts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if starts[mid] <= m.range.location { lo = mid } else { hi = mid - 1 }
        }
        return clauses[lo]
    }

    func contains(matching pattern: CompiledPattern) -> Bool { first(matching: pattern) != nil }
}

/// A vital-sign reading a condition can test.
enum Reading: String, CaseIterable, Sendable {
    case temperature, heartRate = "heart_rate", systolic, diastolic, oxygen, peakFlow = "peak_flow"

    func value(_ v: Findings.Vitals) -> Double? {
        switch self {
        case .temperature: return v.temperatureC
        case .heartRate: return v.heartRate
        case .systolic: return v.systolic
        case .diastolic: return v.diastolic
        case .oxygen: return v.oxygenSaturation
        case .peakFlow: return v.peakFlowPercent
        }
    }
}

/// One typed test on the findings. Unknown values never satisfy a test (an unknown age is not
/// "under 5"), except where the name says otherwise (`duration_under_days`,
/// `temperature_not_measured_below`); to let an unknown through, write the opposite as a veto.
enum Predicate: Sendable, CustomStringConvertible {
    case ageBelow(Double), ageAtLeast(Double), sex(Findings.Sex), pregnant(Bool)
    case history(String), historyAny([String])
    case severe(Bool), sudden(Bool), hasFindings(Bool)
    case below(Reading, Double), atLeast(Reading, Double)
    case temperatureNotMeasuredBelow(Double)
    case durationAtLeastDays(Double), durationUnderDays(Double)
    case clause(CompiledPattern), notClause(CompiledPattern), text(CompiledPattern), notText(CompiledPattern)

    func holds(_ input: RuleInput) -> Bool {
        let f = input.findings
        switch self {
        case .ageBelow(let x): return f.ageYears.map { $0 < x } ?? false
        case .ageAtLeast(let x): return f.ageYears.map { $0 >= x } ?? false
        case .sex(let s): return f.sex == s
        case .pregnant(let p): return f.pregnant == p
        case .history(let h): return f.history.contains(h)
        case .historyAny(let hs): return hs.contains(where: f.history.contains)
        case .severe(let b): return f.severe == b
        case .sudden(let b): return f.suddenOnset == b
        case .hasFindings(let b): return !input.positive.isEmpty == b
        case let .below(r, x): return r.value(f.vitals).map { $0 < x } ?? false
        case let .atLeast(r, x): return r.value(f.vitals).map { $0 >= x } ?? false
        case .temperatureNotMeasuredBelow(let x): return f.vitals.temperatureC.map { $0 >= x } ?? true
        case .durationAtLeastDays(let x): return f.durationDays.map { $0 >= x } ?? false
        case .durationUnderDays(let x): return f.durationDays.map { $0 < x } ?? true
        case .clause(let p): return input.positive.contains(matching: p)
        case .notClause(let p): return !input.positive.contains(matching: p)
        case .text(let p): return p.matches(input.text)
        case .notText(let p): return !p.matches(input.text)
        }
    }

    /// The reading it tests, if any.
    var reading: Reading? {
        switch self {
        case let .below(r, _), let .atLeast(r, _): return r
        case .temperatureNotMeasuredBelow: return .temperature
        default: return nil
        }
    }

    var description: String {
        switch self {
        case .ageBelow(let x): return "age below \(x.shortText)"
        case .ageAtLeast(let x): return "age at least \(x.shortText)"
        case .sex(let s): return "sex \(s.rawValue)"
        case .pregnant(let p): return p ? "pregnant" : "not pregnant"
        case .history(let h): return "history of \(h)"
        case .historyAny(let hs): return "history of any of \(hs.joined(separator: ", "))"
        case .severe(let b): return b ? "described as severe" : "not described as severe"
        case .sudden(let b): return b ? "sudden onset" : "not sudden"
        case .hasFindings(let b): return b ? "some finding described" : "no finding described"
        case let .below(r, x): return "\(r.rawValue) below \(x.shortText)"
        case let .atLeast(r, x): return "\(r.rawValue) at least \(x.shortText)"
        case .temperatureNotMeasuredBelow(let x): return "no temperature reading under \(x.shortText)"
        case .durationAtLeastDays(let x): return "lasting at least \(x.shortText) days"
        case .durationUnderDays(let x): return "lasting under \(x.shortText) days (or not said)"
        case .clause(let p): return "a clause matching /\(p.source.prefix(60))/"
        case .notClause(let p): return "no clause matching /\(p.source.prefix(60))/"
        case .text(let p): return "the question matching /\(p.source.prefix(60))/"
        case .notText(let p): return "the question not matching /\(p.source.prefix(60))/"
        }
    }
}

/// A conjunction of predicates, written as one YAML mapping: `{age_below: 5, pregnant: true}`.
struct RuleCondition: Sendable, CustomStringConvertible {
    var predicates: [Predicate]

    func holds(_ input: RuleInput) -> Bool { predicates.allSatisfy { $0.holds(input) } }

    /// The first predicate that does not hold, for `health rules explain`.
    func firstFailure(_ input: RuleInput) -> Predicate? { predicates.first { !$0.holds(input) } }

    var description: String { predicates.map(\.description).joined(separator: " and ") }

    static let numericKeys: [String: @Sendable (Double) -> Predicate] = {
        var keys: [String: @Sendable (Double) -> Predicate] = [
            "age_below": { .ageBelow($0) }, "age_at_least": { .ageAtLeast($0) },
            "temperature_not_measured_below": { .temperatureNotMeasuredBelow($0) },
            "duration_at_least_days": { .durationAtLeastDays($0) }, "duration_under_days": { .durationUnderDays($0) },
        ]
        for r in Reading.allCases {
            keys[r.rawValue + "_below"] = { .below(r, $0) }
            keys[r.rawValue + "_at_least"] = { .atLeast(r, $0) }
        }
        return keys
    }()
    static let boolKeys: [String: @Sendable (Bool) -> Predicate] = [
        "pregnant": { .pregnant($0) }, "severe": { .severe($0) }, "sudden": { .sudden($0) }, "has_findings": { .hasFindings($0) },
    ]
    static let patternKeys: [String: @Sendable (CompiledPattern) -> Predicate] = [
        "clause": { .clause($0) }, "not_clause": { .notClause($0) }, "text": { .text($0) }, "not_text": { .notText($0) },
    ]
    static var allKeys: [String] {
        (Array(numericKeys.keys) + Array(boolKeys.keys) + Array(patternKeys.keys) + ["sex", "history", "history_any"]).sorted()
    }

    /// Reads one condition mapping; `compile` turns a pattern (or list of alternatives) into a
    /// compiled pattern and `historyNames` are the names `findings.yaml` defines.
    static func read(_ map: StrictMapping, compile: (String, [String]) throws -> CompiledPattern, historyNames: Set<String>) throws -> RuleCondition {
        try map.rejectUnknownKeys(allKeys)
        guard !map.values.isEmpty else { throw map.error("", "an empty condition always holds", fix: "remove it or add a test") }
        var predicates: [Predicate] = []
        for key in map.values.keys.sorted() {
            if let make = numericKeys[key] { predicates.append(make(try map.requiredNumber(key))) }
            else if let make = boolKeys[key] {
                guard let b = try map.bool(key) else { continue }
                predicates.append(make(b))
            } else if let make = patternKeys[key] {
                predicates.append(make(try compile(map.field(key), try map.strings(key) ?? [])))
            } else if key == "sex" {
                let s = try map.requiredString(key)
                guard let sex = Findings.Sex(rawValue: s) else { throw map.error(key, "unknown sex '\(s)'", fix: "use female or male") }
                predicates.append(.sex(sex))
            } else if key == "history" || key == "history_any" {
                let names = try map.strings(key) ?? []
                for name in names where !historyNames.contains(name) {
                    throw map.error(key, "unknown history '\(name)'", fix: "use a name from rules/findings.yaml history: \(historyNames.sorted().joined(separator: ", "))")
                }
                predicates.append(key == "history" && names.count == 1 ? .history(names[0]) : .historyAny(names))
            }
        }
        return RuleCondition(predicates: predicates)
    }
}

extension Double {
    /// 40 rather than 40.0, 0.25 as is.
    var shortText: String { self == rounded() && abs(self) < 1e9 ? String(Int(self)) : String(self) }
}
