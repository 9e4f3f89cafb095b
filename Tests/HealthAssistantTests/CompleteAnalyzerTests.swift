import Linear
import Testing
@testable import HealthAssistant

/// Complete's question-fit term on a hand-built two-condition model (no embedder needed).
struct CompleteAnalyzerTests {
    static func profile(_ id: String, _ symptoms: [String]) -> ConditionProfile {
        ConditionProfile(id: id, name: id, aliases: [], triage: .routine, prevalence: "common", ages: ["any"], sex: "any",
                         symptoms: symptoms.map { .init(name: $0, variants: [$0], weight: "key", weightValue: 1) }, redFlags: [],
                         path: "conditions/\(id).md", system: "")
    }

    /// Two one-phrase conditions whose phrases point along axes 0 and 1.
    static func orthogonal(_ profiles: [ConditionProfile]) -> SymptomModel {
        let (entries, flags) = SymptomModel.entries(of: profiles)
        return SymptomModel(profiles: profiles, entries: entries, phrases: Matrix(rows: 2, cols: 2, storage: [1, 0, 0, 1]),
                            flagEntries: flags, flags: Matrix(rows: 0, cols: 2))
    }

    /// Condition a's phrases point along axes 0 and 1, b's along axes 2 and 3.
    let model: SymptomModel = {
        let profiles = [profile("a", ["cough", "sputum"]), profile("b", ["itch", "rash"])]
        let (entries, flags) = SymptomModel.entries(of: profiles)
        var phrases = Matrix(rows: entries.count, cols: 4)
        for e in 0..<entries.count { phrases[e, e] = 1 }
        return SymptomModel(profiles: profiles, entries: entries, phrases: phrases, flagEntries: flags, flags: Matrix(rows: 0, cols: 4))
    }()

    /// The tuned weights from rules/weights.yaml.
    static let weights = TestKnowledge.weights.complete

    @Test func theBestFittingConditionScoresZeroAndTheRestBelow() {
        let analyzer = CompleteAnalyzer(model: model, weights: Self.weights)
        let fit = analyzer.questionFit([0.8, 0.6, 0, 0])
        #expect(fit[0] == 0)
        #expect(abs(fit[1] + 0.7) < 1e-6)  // a: mean(0.8, 0.6) = 0.7, b: 0
        let other = analyzer.questionFit([0, 0, 0.6, 0.8])
        #expect(other[1] == 0 && other[0] < 0)
    }

    @Test func onlyTheClosestPhrasesCount() throws {
        let analyzer = CompleteAnalyzer(model: model, weights: try Self.weights.applying("questionFitPhrases=1"))
        // With one phrase, a's fit is its best phrase (0.8), not the mean.
        let fit = analyzer.questionFit([0.8, 0.6, 0.5, 0])
        #expect(abs(fit[1] - (0.5 - 0.8)) < 1e-6)
    }

    @Test func noQuestionVectorMeansNoFitTerm() {
        #expect(CompleteAnalyzer(model: model, weights: Self.weights).questionFit(nil) == [0, 0])
    }
}

extension CompleteAnalyzerTests {
    /// Clauses close to a condition's phrases, though below the match threshold, still favour it.
    @Test func nearMissClausesLeanTowardsTheirCondition() throws {
        let findings = TestKnowledge.parser.parse("zzq and qqz")
        #expect(findings.positive.count == 2)
        let clauses = Matrix(rows: 2, cols: 4, storage: [0.5, 0, 0.3, 0, 0, 0.5, 0, 0.3])
        let input = AnalysisInput(findings: findings, profiles: model.profiles, retrieval: [:], clauseVectors: clauses, priors: TestKnowledge.weights.priors)
        let ranked = CompleteAnalyzer(model: model, weights: Self.weights).rank(input)
        #expect(ranked.first?.profile.id == "a")
        #expect(ranked.allSatisfy { $0.matched.isEmpty })
        let flat = CompleteAnalyzer(model: model, weights: try Self.weights.applying("clauseFit=0")).rank(input)
        #expect(abs(flat[0].score - flat[1].score) < 1e-9)
        // The gap is the weight times the difference in mean nearest similarity (0.5 − 0.3).
        #expect(abs((ranked[0].score - ranked[1].score) - Self.weights.clauseFit * 0.2) < 1e-6)
    }

    /// "headache" names part of "headache that goes away at work" (four more words), so a clause
    /// saying only "headache" does not match it, however close the embeddings; the short phrase
    /// "headache" still matches.
    @Test func aClauseNamingPartOfALongerPhraseDoesNotMatchIt() throws {
        let profiles = [Self.profile("home", ["headache that goes away at work"]), Self.profile("plain", ["headache"])]
        let model = Self.orthogonal(profiles)
        let findings = TestKnowledge.parser.parse("headache")
        // The clause's vector is close to both phrases.
        let input = AnalysisInput(findings: findings, profiles: profiles, retrieval: [:], clauseVectors: Matrix(rows: 1, cols: 2, storage: [0.8, 0.8]),
                                  priors: TestKnowledge.weights.priors)
        let ranked = CompleteAnalyzer(model: model, weights: try Self.weights.applying("partialMentionExtraWords=2")).rank(input)
        #expect(ranked.first { $0.profile.id == "home" }?.matched.isEmpty == true)
        #expect(ranked.first { $0.profile.id == "plain" }?.matched == ["headache"])
        let off = CompleteAnalyzer(model: model, weights: try Self.weights.applying("partialMentionExtraWords=0")).rank(input)
        #expect(off.first { $0.profile.id == "home" }?.matched == ["headache that goes away at work"])
    }

    /// "I can move it every which way" sits as close to "can't move it at all" as its own words do;
    /// with the polarity words it denies that finding instead of matching it. Without them (nil), it matches.
    @Test func aClauseSayingAnAbilityDeniesItsLoss() throws {
        let profiles = [Self.profile("fracture", ["can't move it at all"]), Self.profile("sprain", ["swollen wrist"])]
        let model = Self.orthogonal(profiles)
        let findings = TestKnowledge.parser.parse("I can move it every which way")
        #expect(findings.positive.count == 1)
        var input = AnalysisInput(findings: findings, profiles: profiles, retrieval: [:], clauseVectors: Matrix(rows: 1, cols: 2, storage: [0.9, 0]),
                                  priors: TestKnowledge.weights.priors)
        let blind = CompleteAnalyzer(model: model, weights: Self.weights).rank(input)
        #expect(blind.first { $0.profile.id == "fracture" }?.matched == ["can't move it at all"])
        input.polarity = TestKnowledge.knowledge.findings.polarity
        let told = try #require(CompleteAnalyzer(model: model, weights: Self.weights).rank(input).first { $0.profile.id == "fracture" })
        #expect(told.matched.isEmpty)
        #expect(told.contradicted == ["can't move it at all"])
    }

    /// A clause at one end of a scale ("the size of a quarter") sits close by meaning to a phrase at
    /// the other ("larger than the palm of the hand"); with the contrasts it does not meet it, while
    /// a phrase of its own end still does. Without them (nil), it meets both.
    @Test func aClauseAtOneEndOfAScaleDoesNotMeetTheOther() throws {
        let profiles = [Self.profile("severe", ["burn larger than the palm of the hand"]), Self.profile("minor", ["small red burn"])]
        let model = Self.orthogonal(profiles)
        let findings = TestKnowledge.parser.parse("the burn is about the size of a quarter")
        #expect(findings.positive.count == 1)
        var input = AnalysisInput(findings: findings, profiles: profiles, retrieval: [:], clauseVectors: Matrix(rows: 1, cols: 2, storage: [0.8, 0.8]),
                                  priors: TestKnowledge.weights.priors)
        let blind = CompleteAnalyzer(model: model, weights: Self.weights).rank(input)
        #expect(blind.first { $0.profile.id == "severe" }?.matched.isEmpty == false)
        input.contrasts = try #require(TestKnowledge.knowledge.findings.contrasts)
        let told = CompleteAnalyzer(model: model, weights: Self.weights).rank(input)
        #expect(told.first { $0.profile.id == "severe" }?.matched.isEmpty ?? true)
        #expect(told.first { $0.profile.id == "minor" }?.matched == ["small red burn"])
        let contrasts = try #require(TestKnowledge.knowledge.findings.contrasts)
        #expect(FindingContrasts.opposed(contrasts.ends(of: "cut is small"), contrasts.ends(of: "deep cut")))
        #expect(!FindingContrasts.opposed(contrasts.ends(of: "a small but deep cut"), contrasts.ends(of: "deep cut")), "a clause naming both ends is not at one end")
        #expect(!FindingContrasts.opposed(contrasts.ends(of: "my chest hurts"), contrasts.ends(of: "large burn")))
    }
}
