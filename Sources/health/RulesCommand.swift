import ArgumentParser
import Embeddings
import Foundation
import HealthAssistant

/// `health rules check` validates the clinical knowledge in `rules/` and runs every rule's own
/// cases; `health rules explain` shows how one sentence is read and which rules fire or nearly do.
struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rules", abstract: "Check and explain the clinical safety rules (rules/).",
                                                    subcommands: [Check.self, Explain.self])

    struct Location: ParsableArguments {
        @Option(help: "Models folder, to find the project (default: nearest ./models).") var modelsDir: String?
        @Option(help: "Rules folder (default: the project's rules/).") var rules: String?

        func load() throws -> ClinicalKnowledge {
            let dir = rules.map { URL(fileURLWithPath: $0) }
                ?? ModelLocator.resolve(explicit: modelsDir).modelsDirectory.deletingLastPathComponent().appendingPathComponent("rules")
            return try ClinicalKnowledge.load(from: dir)
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Validate rules/ and run every rule's must-fire and must-stay-quiet cases; non-zero exit on any failure.")
        @OptionGroup var location: Location
        @Flag(help: "Print every case, not only failures.") var verbose = false

        func run() throws {
            let knowledge = try failing { try location.load() }
            let results = knowledge.runCases()
            var failures = 0
            for rule in knowledge.rules {
                let mine = results.filter { $0.ruleID == rule.id }
                let bad = mine.filter { !$0.passed }
                failures += bad.count
                print(String(format: "%@ %-44@ %-9@ %d/%d cases", bad.isEmpty ? "ok  " : "FAIL", rule.id, rule.level.rawValue, mine.count - bad.count, mine.count))
                for r in mine where verbose || !r.passed {
                    print("      \(r.passed ? "ok" : "FAIL") must \(r.mustFire ? "fire" : "stay quiet"): \"\(r.sentence)\" — \(r.detail)")
                }
            }
            let lex = knowledge.lexicons.count, floors = knowledge.policy.selfCareFloor.count
            print("\n\(knowledge.rules.count) rules (\(knowledge.rules.filter { $0.level == .emergency }.count) emergency), \(lex) lexicons, "
                  + "\(knowledge.findings.historyNames.count) history terms, \(floors) self-care floors; \(results.count) cases, \(failures) failed")
            if failures > 0 {
                printErr("rules check: \(failures) case(s) failed")
                throw ExitCode(1)
            }
            print("rules check: ok")
        }
    }

    struct Explain: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the clauses and findings of a sentence, and each rule that fired or nearly fired, and why.")
        @OptionGroup var location: Location
        @Flag(help: "List every rule, also those that matched nothing.") var all = false
        @Argument(help: "The sentence to explain.") var sentence: String

        func run() throws {
            let knowledge = try failing { try location.load() }
            let findings = knowledge.parser.parse(sentence)
            for line in FindingsSummary(findings).lines { print(line) }
            print("")
            let outcomes = knowledge.engine.outcomes(findings)
            let shown = outcomes.filter { all || $0.isNear }
            if shown.isEmpty { print("no rule matched any part of it") }
            for o in shown.sorted(by: { ($0.status == .fired ? 0 : 1, $0.rule.level == .emergency ? 0 : 1) < ($1.status == .fired ? 0 : 1, $1.rule.level == .emergency ? 0 : 1) }) {
                let mark = o.status == .fired ? "FIRED" : "near "
                print("\(mark) \(o.rule.id) [\(o.rule.level.rawValue)] \(o.hit?.flag ?? o.rule.flag)")
                print("      \(ClinicalKnowledge.describe(o))  (\(o.rule.file))")
            }
        }
    }
}

/// What the parser understood, one line per aspect (`health ask --explain`, `health rules explain`).
struct FindingsSummary {
    let f: Findings
    init(_ f: Findings) { self.f = f }

    var lines: [String] {
        var v: [String] = []
        if let t = f.vitals.temperatureC { v.append(String(format: "temperature %.1f °C", t)) }
        if let h = f.vitals.heartRate { v.append("heart rate \(Int(h))") }
        if let s = f.vitals.systolic, let d = f.vitals.diastolic { v.append("BP \(Int(s))/\(Int(d))") }
        if let o = f.vitals.oxygenSaturation { v.append("SpO2 \(Int(o))%") }
        if let p = f.vitals.peakFlowPercent { v.append(String(format: "peak flow %.0f%% of best", p)) }
        return [
            "clauses: " + f.clauses.map { ($0.negated ? "NOT " : "") + $0.text }.joined(separator: " | "),
            "age: \(f.ageYears.map { String(format: "%g", $0) } ?? "-")  sex: \(f.sex?.rawValue ?? "-")  pregnant: \(f.pregnant)  postpartum: \(f.postpartum)  "
                + "duration (days): \(f.durationDays.map { String(format: "%g", $0) } ?? "-")  sudden: \(f.suddenOnset)  severe: \(f.severe)",
            "vitals: \(v.isEmpty ? "-" : v.joined(separator: ", "))  history: \(f.history.isEmpty ? "-" : f.history.joined(separator: ", "))",
        ]
    }
}
