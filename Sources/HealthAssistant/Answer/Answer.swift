import Foundation

/// Urgency, ordered from least to most urgent so `max` picks the safer level.
public enum TriageLevel: String, Codable, Sendable, CaseIterable, Comparable {
    case selfCare = "self-care", routine, urgent, emergency

    var rank: Int { Self.allCases.firstIndex(of: self)! }
    public static func < (a: TriageLevel, b: TriageLevel) -> Bool { a.rank < b.rank }

    /// What the level means for the person, in one line.
    public var meaning: String {
        switch self {
        case .emergency: return "Call emergency services (911 / 999 / 112) or go to the emergency department now."
        case .urgent: return "Get medical care today: urgent care, a same-day appointment or an out-of-hours service."
        case .routine: return "Book an appointment with your doctor in the coming days to weeks."
        case .selfCare: return "This can usually be looked after at home; a pharmacist can advise."
        }
    }
}

/// The answer to one question, the same whichever model produced it. Encoded as JSON schema v1.
public struct Answer: Codable, Sendable {
    public struct Triage: Codable, Sendable {
        public var level: TriageLevel
        public var reason: String
        /// The evidence that set the level: `rule:<id>`, `condition-flag:<condition>`,
        /// `similar-flag:<condition>`, `crisis-condition:<id>`, `differential:<condition>`, `floor:<id>`.
        public var decidedBy: [String]
    }

    public struct Condition: Codable, Sendable {
        public var id: String
        public var name: String
        public var aliases: [String]
        /// Relative likelihood among the listed conditions, 0…1.
        public var score: Double
        public var triage: TriageLevel
        public var matched: [String]
        public var missing: [String]
        public var contradicted: [String]
        public var source: String
    }

    public struct RedFlag: Codable, Sendable {
        public var flag: String
        /// The words of the question that triggered it.
        public var clause: String
        public var condition: String?
        /// The level this flag alone calls for.
        public var level: TriageLevel
        /// Where it came from: `rule:<id>`, `condition-flag:<condition>`, …
        public var source: String
    }

    public struct Citation: Codable, Sendable {
        public var index: Int
        public var path: String
        public var section: String
        public var excerpt: String
    }

    public struct ModelInfo: Codable, Sendable { public var name: String; public var reason: String }

    /// 2: `understood`, `triage.decidedBy`, `redFlags[].level` and `redFlags[].source` were added.
    public var schema = 2
    /// False when the question held no recognisable symptom or finding (junk, a greeting, another
    /// language): no conditions are listed and the advice asks the person to describe what they feel.
    public var understood = true
    public var triage: Triage
    public var conditions: [Condition]
    public var redFlags: [RedFlag]
    public var advice: [String]
    public var citations: [Citation]
    public var model: ModelInfo
    public var timings: [String: Double]
    public var notice: String
    public var crisis: [String]?
    public var degraded: String?

    public static let notice = "Not a diagnosis: general information from a local library. If you are worried, contact a health professional; in an emergency call 911 / 999 / 112."

    /// What a person hears when their message held nothing recognisable.
    public static let notUnderstoodAdvice = [
        "I could not recognise a symptom in your message. Please describe what you feel: where, since when, how bad, and anything that makes it better or worse.",
        "Call emergency services now (911 / 999 / 112) if someone is unconscious or will not wake, is not breathing normally or is choking, is bleeding heavily, has chest pain, a seizure, sudden weakness of the face or an arm or slurred speech, or has thoughts of ending their life.",
        "If you are unsure and worried, contact a doctor, nurse or pharmacist today.",
    ]

    public static let crisisHelp = [
        "If you are in immediate danger, call emergency services now: 911 (US), 999 (UK), 112 (EU).",
        "US: call or text 988 (Suicide & Crisis Lifeline). UK & Ireland: Samaritans 116 123 (free, 24/7).",
        "Text HOME to 741741 (US) or SHOUT to 85258 (UK) to reach a crisis counsellor.",
        "Stay with someone you trust, and move away from anything you could use to hurt yourself.",
    ]

    public func json(pretty: Bool = false) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }
}
