import Linear
import Testing
@testable import HealthAssistant

/// Complete's question-fit term on a hand-built two-condition model (no embedder needed).
struct CompleteAnalyzerTests {
    static func profile(_ id: String, _ symptoms: [String]) -> ConditionProfile {
        ConditionProfile(id: id, name: id, aliases: [], triage: .routine, prevalence: "common", ages: ["any"], sex: "any",
                         symptoms: symptoms.map { .init(name: $0, variants: [$0], weight: "key") }, redFlags: [],
                         path: "conditions/\(id).md", system: "")
    }

    /// Condition a's phrases point along axes 0 and 1, b's along axes 2 and 3.
    let model: SymptomModel = {
        let profiles = [profile("a", ["cough", "sputum"]), profile("b", ["itch", "rash"])]
        let (entries, flags) = SymptomModel.entries(of: profiles)
        var phrases = Matrix(rows: entries.count, cols: 4)
        for e in 0..<entries.count { phrases[e, e] = 1 }
        return SymptomModel(profiles: profiles, entries: entries, phrases: phrases, flagEntries: flags, flags: Matrix(rows: 0, cols: 4))
    }()

    @Test func theBestFittingConditionScoresZeroAndTheRestBelow() {
        let analyzer = CompleteAnalyzer(model: model)
        let fit = analyzer.questionFit([0.8, 0.6, 0, 0])
        #expect(fit[0] == 0)
        #expect(abs(fit[1] + 0.7) < 1e-6)  // a: mean(0.8, 0.6) = 0.7, b: 0
        let other = analyzer.questionFit([0, 0, 0.6, 0.8])
        #expect(other[1] == 0 && other[0] < 0)
    }

    @Test func onlyTheClosestPhrasesCount() throws {
        let analyzer = CompleteAnalyzer(model: model, weights: try .init(parsing: "questionFitPhrases=1"))
        // With one phrase, a's fit is its best phrase (0.8), not the mean.
        let fit = analyzer.questionFit([0.8, 0.6, 0.5, 0])
        #expect(abs(fit[1] - (0.5 - 0.8)) < 1e-6)
    }

    @Test func noQuestionVectorMeansNoFitTerm() {
        #expect(CompleteAnalyzer(model: model).questionFit(nil) == [0, 0])
    }
}
