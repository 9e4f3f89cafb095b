/// One piece of a streamed answer. Order: triage, then each condition, then red flags, advice,
/// citations, and finally the complete answer.
public enum AnswerEvent: Sendable {
    case triage(Answer.Triage)
    case condition(Answer.Condition)
    case redFlags([Answer.RedFlag])
    case advice([String])
    case citations([Answer.Citation])
    case done(Answer)

    public var name: String {
        switch self {
        case .triage: return "triage"
        case .condition: return "condition"
        case .redFlags: return "redFlags"
        case .advice: return "advice"
        case .citations: return "citations"
        case .done: return "done"
        }
    }

    static func events(for answer: Answer) -> [AnswerEvent] {
        [.triage(answer.triage)] + answer.conditions.map { .condition($0) }
            + [.redFlags(answer.redFlags), .advice(answer.advice), .citations(answer.citations), .done(answer)]
    }
}
