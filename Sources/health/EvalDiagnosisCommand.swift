import ArgumentParser
import Foundation
import HealthAssistant

/// Diagnosis and triage accuracy on a JSONL file of cases: {"text", "diagnosis": [names], "triage"?}.
struct EvalDiagnosisCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "diagnosis", abstract: "Top-1/3/10 and triage accuracy on JSONL cases.")

    @OptionGroup var options: AssistantOptions
    @Option(help: "auto | lite | complete") var model: String = "complete"
    @Option(help: "Evaluate only the first N cases.") var limit: Int?
    @Option(help: "all | even | odd: evaluate every case, or only the even- or odd-numbered lines (tune on one half, report the other).")
    var split: String = "all"
    @Option(help: "Override Complete's weights, e.g. dense=2,explained=0.8 (for tuning).") var weights: String?
    @Flag(help: "List the misses.") var verbose = false
    @Flag(help: "End with one JSON line of the metrics.") var json = false
    @Argument(help: "Cases file, e.g. ../shared/eval/symptom2disease/cases.jsonl") var file: String

    static func normalize(_ s: String) -> String {
        s.lowercased().replacingOccurrences(of: "'", with: "").replacingOccurrences(of: "-", with: " ").trimmingCharacters(in: .whitespaces)
    }

    func validate() throws {
        guard ["all", "even", "odd"].contains(split) else { throw ValidationError("--split must be all, even or odd") }
    }

    func run() async throws {
        guard let data = FileManager.default.contents(atPath: file) else { throw CLIError(message: "cannot read \(file)") }
        let cases = String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.enumerated().filter { i, _ in split == "all" || (split == "even") == (i % 2 == 0) }.map(\.element).prefix(limit ?? Int.max)
        let assistant = options.assistant()
        let completeWeights = try weights.map { try assistant.knowledge().weights.complete.applying($0) }
        var top1 = 0, top3 = 0, top10 = 0, withDx = 0, triaged = 0, triageExact = 0, triageSafe = 0, underEmergency = 0
        var latencies: [Double] = []
        // How often each level is given: on cases without a gold level (Symptom2Disease is mostly
        // mild illness) a high emergency share means red flags fire on ordinary words.
        var byLevel: [TriageLevel: Int] = [:]
        for c in cases {
            guard let text = c["text"] as? String else { continue }
            let answer = try await assistant.ask(text, options: .init(model: ModelSelector.Request(rawValue: model) ?? .complete, maxConditions: 10, completeWeights: completeWeights))
            latencies.append(answer.timings["totalMs"] ?? 0)
            byLevel[answer.triage.level, default: 0] += 1
            if verbose, c["triage"] == nil, answer.triage.level == .emergency {
                print("EMERGENCY (\(answer.triage.reason)) ← \(text.prefix(100))")
            }
            if let dx = c["diagnosis"] as? [String], !dx.isEmpty {
                withDx += 1
                let wanted = Set(dx.map(Self.normalize))
                let rank = answer.conditions.firstIndex { cond in
                    ([cond.name, cond.id.replacingOccurrences(of: "-", with: " ")] + cond.aliases).map(Self.normalize).contains(where: wanted.contains)
                }
                if let r = rank {
                    if r < 1 { top1 += 1 }
                    if r < 3 { top3 += 1 }
                    if r < 10 { top10 += 1 }
                }
                if verbose, rank == nil || rank! >= 3 {
                    print("MISS [\(dx[0])] got: \(answer.conditions.prefix(3).map(\.name).joined(separator: ", ")) ← \(text.prefix(100))")
                }
            }
            if let gold = (c["triage"] as? String).flatMap(TriageLevel.init(rawValue:)) {
                triaged += 1
                if answer.triage.level == gold { triageExact += 1 }
                if answer.triage.level >= gold { triageSafe += 1 } else if verbose && gold != .emergency {
                    print("UNDER \(gold.rawValue)→\(answer.triage.level.rawValue) [\(answer.conditions.first?.name ?? "-")]: \(text)")
                }
                if gold == .emergency && answer.triage.level != .emergency {
                    underEmergency += 1
                    if verbose { print("UNDER-TRIAGED emergency as \(answer.triage.level.rawValue): \(text)") }
                }
            }
        }
        func pct(_ a: Int, _ b: Int) -> Double { b == 0 ? 0 : Double(a) / Double(b) }
        print(String(format: "%d cases (%@, split %@): top-1 %.3f  top-3 %.3f  top-10 %.3f", withDx, model, split, pct(top1, withDx), pct(top3, withDx), pct(top10, withDx)))
        if triaged > 0 {
            print(String(format: "triage on %d cases: exact %.3f  safe (at or above gold) %.3f  emergencies under-triaged: %d", triaged, pct(triageExact, triaged), pct(triageSafe, triaged), underEmergency))
        }
        let total = byLevel.values.reduce(0, +)
        print("answers by triage: " + TriageLevel.allCases.reversed().map { String(format: "%@ %d (%.1f%%)", $0.rawValue, byLevel[$0] ?? 0, 100 * pct(byLevel[$0] ?? 0, total)) }.joined(separator: ", "))
        let sorted = latencies.sorted()
        if !sorted.isEmpty { print(String(format: "latency p50 %.1f ms  p95 %.1f ms", sorted[sorted.count / 2], sorted[Int(Double(sorted.count - 1) * 0.95)])) }
        if json {
            print(String(format: "{\"top1\": %.4f, \"top3\": %.4f, \"top10\": %.4f, \"triage_exact\": %.4f, \"triage_safe\": %.4f, \"under_triaged_emergencies\": %d}",
                         pct(top1, withDx), pct(top3, withDx), pct(top10, withDx), pct(triageExact, triaged), pct(triageSafe, triaged), underEmergency))
        }
    }
}
