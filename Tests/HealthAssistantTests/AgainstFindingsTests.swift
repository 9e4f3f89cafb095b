import Foundation
@testable import Store
import Testing
@testable import HealthAssistant

/// A condition file's `against` findings (schema v2: findings whose presence argues against it)
/// lower it in the ranking when the person reports one, in the library's own wordings, and not
/// when they deny it; emergency and can't-miss conditions are never lowered by them.
struct AgainstFindingsTests {
    /// A small library, derived as the index's front matter is: hay fever (no fever), a cold with
    /// the same nose but a blocked nose too, two files that word fever the lay way, and three
    /// findings worded with "hot".
    static func library(epiglottitisTriage: String = "emergency") throws -> [ConditionProfile] {
        func row(_ front: [String: Any]) throws -> SQLiteStore.DocumentRow {
            let id = front["id"] as! String
            return .init(path: "corpus/conditions/\(id).md", title: front["name"] as! String, kind: "condition",
                         frontMatterJSON: String(decoding: try JSONSerialization.data(withJSONObject: front), as: UTF8.self))
        }
        func symptom(_ name: String, _ weight: String, _ lay: [String] = []) -> [String: Any] { ["name": name, "weight": weight, "lay": lay] }
        let fever = symptom("fever", "key", ["high temperature", "temperature", "feeling hot"])
        let rows = try [
            row(["id": "hay-fever", "name": "Hay fever", "aliases": ["pollen allergy"], "triage": "self-care", "prevalence": "common",
                 "symptoms": [symptom("sneezing", "key"), symptom("runny nose", "key")], "against": ["fever"]]),
            row(["id": "common-cold", "name": "Common cold", "triage": "self-care", "prevalence": "common",
                 "symptoms": [symptom("sneezing", "key"), symptom("runny nose", "key"), symptom("blocked nose", "typical")]]),
            row(["id": "flu", "name": "Flu", "triage": "self-care", "symptoms": [fever, symptom("aching muscles", "key")]]),
            row(["id": "tonsillitis", "name": "Tonsillitis", "triage": "routine", "symptoms": [fever, symptom("sore throat", "key")]]),
            // Other findings worded with "hot": "feeling hot" is no clear sign of a fever.
            row(["id": "menopause", "name": "Menopause", "triage": "routine", "symptoms": [symptom("hot flushes", "key", ["hot sweats"])]]),
            row(["id": "gout", "name": "Gout", "triage": "urgent", "symptoms": [symptom("hot swollen joint", "key")]]),
            row(["id": "sunburn", "name": "Sunburn", "triage": "self-care", "symptoms": [symptom("skin hot to touch", "key")]]),
            row(["id": "epiglottitis", "name": "Epiglottitis", "triage": epiglottitisTriage, "cant_miss": true,
                 "symptoms": [symptom("sneezing", "key"), symptom("runny nose", "key")], "against": ["fever"]]),
        ]
        return ConditionProfile.derive(from: rows, symptomWeights: TestKnowledge.weights.symptomWeights)
    }

    func ranked(_ question: String, _ profiles: [ConditionProfile], priors: AnalysisWeights.Priors = TestKnowledge.weights.priors) -> [RankedCondition] {
        let input = AnalysisInput(findings: TestKnowledge.parser.parse(question), profiles: profiles, retrieval: [:], clauseVectors: nil, priors: priors)
        return LiteAnalyzer(weights: TestKnowledge.weights.lite).rank(input)
    }

    func condition(_ id: String, in ranking: [RankedCondition]) throws -> (rank: Int, condition: RankedCondition) {
        let rank = try #require(ranking.firstIndex { $0.profile.id == id })
        return (rank, ranking[rank])
    }

    /// "fever" is resolved to the wordings the library gives it; a wording listed only once, or
    /// one that mostly means something else, does not stand for it.
    @Test func anAgainstFindingTakesTheLibrarysWordingsForIt() throws {
        let hayFever = try #require(try Self.library().first { $0.id == "hay-fever" })
        #expect(hayFever.against.map(\.name) == ["fever"])
        let wordings = Set(hayFever.against[0].variants)
        #expect(wordings.isSuperset(of: ["fever", "high temperature", "temperature"]))
        #expect(!wordings.contains("feeling hot"), "listed under fever twice, but most findings worded with 'hot' are not fever")
    }

    @Test func aReportedAgainstFindingLowersTheCondition() throws {
        let profiles = try Self.library()
        let priors = TestKnowledge.weights.priors
        #expect(priors.againstFinding > 0)
        let without = try condition("hay-fever", in: ranked("sneezing and a runny nose", profiles))
        #expect(without.rank == 0 && without.condition.arguedAgainst.isEmpty)
        for question in ["sneezing and a runny nose, and a high temperature", "sneezing and a runny nose. I have a temperature"] {
            let with = try condition("hay-fever", in: ranked(question, profiles))
            #expect(with.condition.arguedAgainst == ["fever"], "\(question)")
            #expect(abs((without.condition.score - with.condition.score) - priors.againstFinding) < 1e-9, "\(question)")
            #expect(with.rank > without.rank, "the cold, which fever does not argue against, now leads: \(question)")
        }
        // The penalty comes from the weight alone: at 0 the score is as if fever were not said.
        var off = priors
        off.againstFinding = 0
        #expect(try condition("hay-fever", in: ranked("sneezing and a runny nose, and a high temperature", profiles, priors: off)).condition.score
            == without.condition.score)
    }

    @Test func aDeniedAgainstFindingDoesNotPenalise() throws {
        let profiles = try Self.library()
        let without = try condition("hay-fever", in: ranked("sneezing and a runny nose", profiles))
        for question in ["sneezing and a runny nose, no fever", "sneezing and a runny nose but I don't have a temperature"] {
            let denied = try condition("hay-fever", in: ranked(question, profiles))
            #expect(denied.condition.arguedAgainst.isEmpty, "\(question)")
            #expect(denied.condition.score == without.condition.score, "\(question)")
            #expect(denied.rank == without.rank, "\(question)")
        }
    }

    /// The words of the condition's own name are not a finding: "is it hay fever?" reports no fever.
    @Test func theConditionsOwnNameReportsNothing() throws {
        let profiles = try Self.library()
        let asked = try condition("hay-fever", in: ranked("is it hay fever? sneezing and a runny nose", profiles))
        #expect(asked.condition.arguedAgainst.isEmpty)
        let feverToo = try condition("hay-fever", in: ranked("I get hay fever every year and I'm sneezing, but now I have a high temperature", profiles))
        #expect(feverToo.condition.arguedAgainst == ["fever"])
    }

    /// Safety: an emergency or can't-miss condition is never lowered by an against finding, so the
    /// finding cannot move it out of the places triage reads.
    @Test func emergencyAndCantMissConditionsAreNotLowered() throws {
        for triage in ["emergency", "routine"] {
            let profiles = try Self.library(epiglottitisTriage: triage)
            let spared = try #require(profiles.first { $0.id == "epiglottitis" })
            #expect(!spared.againstCounts && !spared.against.isEmpty)
            let without = try condition("epiglottitis", in: ranked("sneezing and a runny nose", profiles))
            let with = try condition("epiglottitis", in: ranked("sneezing and a runny nose, and a high temperature", profiles))
            #expect(with.condition.score == without.condition.score && with.condition.arguedAgainst.isEmpty)
        }
    }
}
