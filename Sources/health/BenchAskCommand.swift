import ArgumentParser
import Foundation
import HealthAssistant

/// `health ask` latency: warm Lite and Complete (p50/p95/p99 over a fixed question set) and the
/// cold first answer of a fresh process (models loaded from disk, index already built).
struct BenchAskCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "ask", abstract: "Ask latency: warm Lite and Complete, and a cold first answer.")

    @OptionGroup var options: AssistantOptions
    @Option(help: "Repetitions of the question set.") var rounds = 5
    @Flag(help: "End with one JSON line.") var json = false

    static let questions = [
        "sore throat and runny nose", "headache and tired", "itchy red rash on my arms for a week",
        "burning when I pee and needing to go often", "fever, cough and shortness of breath for 3 days, 70 year old with COPD",
        "lower back pain after lifting boxes, no numbness", "my 2 year old has a fever of 38.5 and is pulling her ear",
        "heartburn after meals most days for a month", "chest pain when breathing in deeply, no fever", "red itchy eyes with crusting in the morning",
    ]

    func run() async throws {
        let processes = try Self.coldProcesses(options: options)
        let assistant = options.assistant()
        let coldStart = Date()
        let steps = try await assistant.warmUp()
        _ = try await assistant.ask("sore throat and fever", options: .init(model: .complete))
        let cold = Date().timeIntervalSince(coldStart) * 1000
        print("in-process cold start (ms): " + steps.keys.sorted().map { String(format: "%@ %.1f", $0, steps[$0]!) }.joined(separator: ", ")
              + String(format: ", first answer %.1f", cold - steps.values.reduce(0, +)))
        // The embedding of one short question on its own (through the batcher, as ask does).
        var embedMs: [Double] = []
        for q in Self.questions {
            for _ in 0..<rounds {
                let t = Date()
                _ = try await assistant.batcher.embed([q])
                embedMs.append(Date().timeIntervalSince(t) * 1000)
            }
        }
        print(String(format: "one question's embedding: p50 %.2f ms", BenchSupport.percentile(embedMs, 50)))
        var results: [String: [Double]] = [:]
        for model in [ModelSelector.Request.lite, .complete] {
            var ms: [Double] = []
            var phases: [String: [Double]] = [:]
            for _ in 0..<rounds {
                for q in Self.questions {
                    let t = Date()
                    let a = try await assistant.ask(q, options: .init(model: model))
                    ms.append(Date().timeIntervalSince(t) * 1000)
                    for (k, v) in a.timings { phases[k, default: []].append(v) }
                }
            }
            print("  phases (p50 ms): " + phases.keys.sorted().map { String(format: "%@ %.1f", $0, BenchSupport.percentile(phases[$0]!, 50)) }.joined(separator: ", "))
            results[model.rawValue] = ms
            print(String(format: "%-8@ p50 %6.1f ms  p95 %6.1f ms  p99 %6.1f ms  (%d questions)", model.rawValue,
                         BenchSupport.percentile(ms, 50), BenchSupport.percentile(ms, 95), BenchSupport.percentile(ms, 99), ms.count))
        }
        print(String(format: "cold first answer in-process (load embedder, index, Complete model): %.1f ms; RSS %d MiB", cold, BenchSupport.residentBytes() / 1_048_576))
        let processP50 = BenchSupport.percentile(processes, 50)
        print(String(format: "cold `health ask` process end to end: p50 %.1f ms, min %.1f ms (%d runs)", processP50, processes.min() ?? 0, processes.count))
        if json {
            print(String(format: "{\"lite_p50_ms\": %.2f, \"complete_p50_ms\": %.2f, \"cold_ms\": %.1f, \"cold_process_ms\": %.1f}",
                         BenchSupport.percentile(results["lite"] ?? [], 50), BenchSupport.percentile(results["complete"] ?? [], 50), cold, processP50))
        }
    }

    /// Wall time of whole `health ask` processes (this binary), the way a person runs it.
    static func coldProcesses(options: AssistantOptions, runs: Int = 5) throws -> [Double] {
        let binary = BenchSupport.executable()
        var times: [Double] = []
        for _ in 0..<runs {
            let p = Process()
            p.executableURL = binary
            p.arguments = ["ask", "fever, stiff neck and headache since yesterday", "--json"] + options.passThroughArguments
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            let t = Date()
            try p.run()
            p.waitUntilExit()
            guard p.terminationStatus == 0 else { throw CLIError(message: "`health ask` exited with status \(p.terminationStatus) during the cold-start runs") }
            times.append(Date().timeIntervalSince(t) * 1000)
        }
        return times
    }
}
