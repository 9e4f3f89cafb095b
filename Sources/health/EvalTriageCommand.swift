import ArgumentParser
import Foundation
import HealthAssistant

/// Triage quality on a JSONL set of messages with gold levels: {"text", "triage": level or
/// "not-understood", "split"?: "dev" | "test"}. Prints the figures the safety targets are stated in.
/// Misses are listed only for the dev half: the test half is scored, never read while tuning.
struct EvalTriageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "triage", abstract: "Triage safety figures on a labelled message set (e.g. eval/blind-triage/cases.jsonl).")

    @OptionGroup var options: AssistantOptions
    @Option(help: "auto | lite | complete") var model: String = "auto"
    @Option(help: "all | dev | test: evaluate every case, or one half of a set split by scenario.") var split: String = "all"
    @Flag(help: "List the cases that miss a target (refused on the test half).") var verbose = false
    @Flag(help: "End with one JSON line of the figures.") var json = false
    @Option(help: "Write every case's answer (gold, level, the evidence that set it) as JSON lines to this file, to study a mechanism across a set (refused on the test half).")
    var decisions: String?
    @Argument(help: "Cases file.") var file: String

    func validate() throws {
        guard ["all", "dev", "test"].contains(split) else { throw ValidationError("--split must be all, dev or test") }
        guard ModelSelector.Request(rawValue: model) != nil else { throw ValidationError("--model must be auto, lite or complete") }
        if verbose && split != "dev" { throw ValidationError("--verbose lists misses only for --split dev: the test half is scored, not read") }
        if decisions != nil && split != "dev" { throw ValidationError("--decisions writes answers only for --split dev: the test half is scored, not read") }
    }

    struct Case: Decodable { let text: String; let triage: String; let split: String? }

    func run() async throws {
        guard let data = FileManager.default.contents(atPath: file) else { throw CLIError(message: "cannot read \(file)") }
        let cases = try String(decoding: data, as: UTF8.self).split(separator: "\n").map { try JSONDecoder().decode(Case.self, from: Data($0.utf8)) }
            .filter { split == "all" || $0.split == split }
        guard !cases.isEmpty else { throw CLIError(message: "no cases in \(file) for split \(split)") }
        let assistant = options.assistant()
        var counts: [String: [TriageLevel: Int]] = [:]
        var junkUnderstood = 0, junkWithConditions = 0, junk = 0
        var misses: [String] = []
        var trace: [String] = []
        for c in cases {
            let answer = try await assistant.ask(c.text, options: .init(model: ModelSelector.Request(rawValue: model)!))
            let got = answer.triage.level
            if decisions != nil {
                let line: [String: Any] = ["text": c.text, "gold": c.triage, "level": got.rawValue, "understood": answer.understood,
                                           "decided_by": answer.triage.decidedBy, "reason": answer.triage.reason,
                                           "conditions": answer.conditions.prefix(3).map(\.id)]
                if let d = try? JSONSerialization.data(withJSONObject: line, options: [.sortedKeys]) { trace.append(String(decoding: d, as: UTF8.self)) }
            }
            if c.triage == "not-understood" {
                junk += 1
                if answer.understood { junkUnderstood += 1; misses.append("[junk understood as \(got.rawValue)] \(c.text)") }
                if !answer.conditions.isEmpty { junkWithConditions += 1 }
                continue
            }
            guard let gold = TriageLevel(rawValue: c.triage) else { throw CLIError(message: "unknown triage '\(c.triage)' in \(file)") }
            counts[gold.rawValue, default: [:]][got, default: 0] += 1
            let missed = (gold == .emergency && got != .emergency) || (gold == .urgent && got < .urgent)
                || (gold <= .routine && got > .urgent) || (gold <= .routine && got == .emergency)
            if missed { misses.append("[\(gold.rawValue) → \(got.rawValue)] \(c.text)  {\(answer.triage.decidedBy.joined(separator: ", "))}") }
        }
        func n(_ gold: [TriageLevel], _ got: (TriageLevel) -> Bool) -> (Int, Int) {
            var hit = 0, all = 0
            for g in gold { for (level, k) in counts[g.rawValue] ?? [:] { all += k; if got(level) { hit += k } } }
            return (hit, all)
        }
        func pct(_ x: (Int, Int)) -> String { x.1 == 0 ? "  -  " : String(format: "%.3f (%d/%d)", Double(x.0) / Double(x.1), x.0, x.1) }
        let emergency = n([.emergency]) { $0 == .emergency }
        let emergencyLow = n([.emergency]) { $0 <= .routine }
        let urgent = n([.urgent]) { $0 >= .urgent }
        let mildNotAboveUrgent = n([.routine, .selfCare]) { $0 <= .urgent }
        let mildNotEmergency = n([.routine, .selfCare]) { $0 != .emergency }
        let exact = n(TriageLevel.allCases) { _ in false }
        var exactHits = 0
        for g in TriageLevel.allCases { exactHits += counts[g.rawValue]?[g] ?? 0 }
        print("\(cases.count) messages (\(file), split \(split), model \(model))")
        print("emergencies called emergency         \(pct(emergency))   target ≥ 0.95")
        print("emergencies sent to routine/self-care \(emergencyLow.0)   target 0")
        print("urgent at urgent or above            \(pct(urgent))   target ≥ 0.97")
        print("routine/self-care not above urgent   \(pct(mildNotAboveUrgent))   target ≥ 0.85")
        print("routine/self-care not emergency      \(pct(mildNotEmergency))   target ≥ 0.95")
        print("exact level                          \(pct((exactHits, exact.1)))")
        if junk > 0 {
            print("junk/off-topic: understood:false     \(pct((junk - junkUnderstood, junk)))   with conditions: \(junkWithConditions)")
        }
        print("by gold level (rows) → answer: " + TriageLevel.allCases.reversed().map { g in
            "\(g.rawValue) [" + TriageLevel.allCases.reversed().map { "\(counts[g.rawValue]?[$0] ?? 0)" }.joined(separator: " ") + "]"
        }.joined(separator: "  "))
        if verbose { for m in misses { print("MISS " + m) } }
        if let decisions {
            do { try (trace.joined(separator: "\n") + "\n").write(toFile: decisions, atomically: true, encoding: .utf8) } catch {
                throw CLIError(message: "cannot write \(decisions): \(error.localizedDescription); choose a writable path")
            }
        }
        if json {
            func f(_ x: (Int, Int)) -> Double { x.1 == 0 ? 0 : Double(x.0) / Double(x.1) }
            print(String(format: "{\"emergency\": %.4f, \"emergency_to_routine_or_self_care\": %d, \"urgent_or_above\": %.4f, \"mild_not_above_urgent\": %.4f, \"mild_not_emergency\": %.4f, \"junk_not_understood\": %.4f}",
                         f(emergency), emergencyLow.0, f(urgent), f(mildNotAboveUrgent), f(mildNotEmergency), junk == 0 ? 0 : Double(junk - junkUnderstood) / Double(junk)))
        }
    }
}
