import Foundation
import Testing
@testable import HealthAssistant

/// `health corpus check`'s rule against templated text: no 12-word run in two files.
struct CorpusValidatorTests {
    /// A schema-v2 condition file with the given prose (the Overview) and red-flag wording.
    func condition(_ id: String, overview: String, flag: String = "a fever with a stiff neck", riskFactors: String = "older age") -> String {
        """
        ---
        schema: 2
        id: \(id)
        name: \(id.capitalized)
        system: neurology
        aliases: [\(id) alias]
        icd10: G03.9
        triage: urgent
        prevalence: rare
        age: {min: 0, max: 120}
        sex: any
        onset: days
        duration: days
        symptoms:
          - {name: fever, weight: key, lay: [burning up]}
          - {name: stiff neck, weight: typical}
          - {name: headache, weight: typical}
        red_flags:
          - {flag: "\(flag)", level: urgent, all: [fever, stiff neck]}
        risk_factors: [\(riskFactors)]
        sources: [https://www.nhs.uk/conditions/\(id)/]
        ---

        # \(id.capitalized)

        ## Overview
        \(overview)

        ## Symptoms
        Symptoms of \(id) vary.

        ## When to get help
        Get help for \(id) soon.

        ## Self-care
        Rest with \(id).

        ## Causes and risk factors
        Causes of \(id) differ.
        """
    }

    func check(_ files: [String: String], name: String = #function) throws -> CorpusValidator.Report {
        let folder = try makeFolder(files, name: name)
        defer { try? FileManager.default.removeItem(at: folder) }
        return CorpusValidator().check(corpus: folder)
    }

    /// Thirteen words no other text here uses; a window of 12 of them is a repeat.
    let shared = "the ache creeps outward from beneath the breastbone toward one shoulder blade slowly"

    @Test func twelveSharedWordsAcrossTwoFilesAreReportedWithBothNames() throws {
        // Case, punctuation and Markdown do not hide a copy.
        let copy = "The ache creeps outward, from **beneath** the breastbone toward one shoulder-blade slowly"
        let report = try check([
            "conditions/alpha.md": condition("alpha", overview: "Alpha starts quietly. \(shared). Then it fades."),
            "conditions/beta.md": condition("beta", overview: "Beta is loud. \(copy) in most people."),
            "conditions/gamma.md": condition("gamma", overview: "Gamma has nothing in common with the others at all, in any of its many long sentences."),
        ])
        #expect(report.repeats.count == 1)
        let r = try #require(report.repeats.first)
        #expect(r.first == "conditions/alpha.md" && r.second == "conditions/beta.md")
        #expect(r.words.joined(separator: " ") == shared)
        let errors = report.errors.map(\.description).filter { $0.contains("shares") }
        #expect(errors.count == 1)
        #expect(errors.first?.contains("conditions/alpha.md") == true && errors.first?.contains("conditions/beta.md") == true, "\(errors)")
        #expect(errors.first?.contains(shared) == true, "\(errors)")
    }

    @Test func elevenSharedWordsAreNotARepeat() throws {
        let eleven = shared.split(separator: " ").prefix(11).joined(separator: " ")
        let report = try check([
            "conditions/alpha.md": condition("alpha", overview: "Alpha starts quietly: \(eleven), then it fades."),
            "conditions/beta.md": condition("beta", overview: "Beta is loud when \(eleven) in most people."),
        ])
        #expect(report.repeats.isEmpty, "\(report.repeats)")
        #expect(!report.errors.contains { $0.message.contains("shares") })
    }

    @Test func aRepeatWithinOneFileIsAllowed() throws {
        let report = try check([
            "conditions/alpha.md": condition("alpha", overview: "\(shared). Again: \(shared).", flag: shared),
            "conditions/beta.md": condition("beta", overview: "Beta is a different story told in its own words from start to end."),
        ])
        #expect(report.repeats.isEmpty, "\(report.repeats)")
    }

    @Test func redFlagWordingsCountButYAMLListsDoNot() throws {
        let longRisk = "living in a crowded home with many other people who smoke indoors every day"
        let report = try check([
            "conditions/alpha.md": condition("alpha", overview: "Alpha starts quietly.", flag: shared, riskFactors: longRisk),
            "conditions/beta.md": condition("beta", overview: "Beta is loud.", riskFactors: longRisk),
            "topics/help.md": "---\nid: help\ntitle: Help\nsources: [https://www.nhs.uk/]\n---\n\n# Help\n\n## When to get help\nSeek care when \(shared).\n",
        ])
        #expect(report.repeats.map { [$0.first, $0.second] } == [["conditions/alpha.md", "topics/help.md"]], "\(report.repeats)")
    }

    @Test func eachPairIsReportedOnceAndThreeCopiesMakeThreePairs() {
        let finder = RepeatedTextFinder()
        let text = shared + " and then " + shared.uppercased()
        let repeats = finder.repeats(in: ["a", "b", "c"].map { RepeatedTextFinder.File(path: $0, segments: ["\($0). " + text]) })
        #expect(repeats.map { "\($0.first)-\($0.second)" } == ["a-b", "a-c", "b-c"])
        // The quote is the whole shared run, not only its first 12 words.
        #expect(repeats.first?.words.count == 2 * 13 + 2)
    }

    @Test func windowsDoNotSpanSegments() {
        let words = shared.split(separator: " ").map(String.init)
        let split = [words.prefix(6).joined(separator: " "), words.dropFirst(6).joined(separator: " ")]
        let repeats = RepeatedTextFinder().repeats(in: [RepeatedTextFinder.File(path: "a", segments: [shared]),
                                                        RepeatedTextFinder.File(path: "b", segments: split)])
        #expect(repeats.isEmpty)
    }

    @Test func standardSafetyWordingsMayRepeatButTheWordsAroundThemMayNot() {
        let standard = "call or text 988 in the US, call Samaritans on 116 123 in the UK, or contact your local crisis line"
        let a = "If the pain spreads to your jaw, " + standard + " straight away."
        let b = "When breathing gets hard, " + standard + " at once."
        let finder = RepeatedTextFinder(standard: [standard])
        #expect(finder.repeats(in: [.init(path: "a", segments: [a]), .init(path: "b", segments: [b])]).isEmpty)
        #expect(RepeatedTextFinder().repeats(in: [.init(path: "a", segments: [a]), .init(path: "b", segments: [b])]).count == 1,
                "without the list the same two texts are a repeat")
        // Copied prose next to a standard wording is still a copy.
        let copied = "this is not something to manage at home while waiting for help"
        #expect(finder.repeats(in: [.init(path: "a", segments: [copied + ". " + standard]),
                                    .init(path: "b", segments: [standard + ". " + copied])]).count == 1)
    }
}
