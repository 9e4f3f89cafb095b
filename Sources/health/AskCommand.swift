import ArgumentParser
import Embeddings
import Foundation
import HealthAssistant

/// Builds the library facade from the CLI's shared options.
struct AssistantOptions: ParsableArguments {
    @OptionGroup var model: ModelOptions
    @OptionGroup var index: IndexOptions
    @Option(name: .long, help: "Memory budget for resident models, e.g. 512M (default: $HEALTH_MEMORY_LIMIT or no limit).")
    var memoryLimit: String?

    func validate() throws {
        if let m = memoryLimit ?? ProcessInfo.processInfo.environment["HEALTH_MEMORY_LIMIT"], ModelCache.parseBytes(m) == nil {
            throw ValidationError("--memory-limit takes a size such as 512M or 2G")
        }
    }

    func assistant(batching: EmbeddingBatcher.Options = .init()) -> HealthAssistant {
        let locator = model.locator
        let root = locator.modelsDirectory.deletingLastPathComponent()
        let limit = (memoryLimit ?? ProcessInfo.processInfo.environment["HEALTH_MEMORY_LIMIT"]).flatMap(ModelCache.parseBytes)
        var config = HealthAssistant.Configuration(projectDirectory: root, databasePath: index.databasePath(locator: locator), memoryLimit: limit,
                                                   threads: model.threads, autoFetch: !model.noFetch && ProcessInfo.processInfo.environment["HEALTH_OFFLINE"] != "1")
        config.modelsDirectory = locator.modelsDirectory
        config.batching = batching
        return HealthAssistant(configuration: config)
    }

    /// The same options as arguments, for child `health` processes (benchmarks).
    var passThroughArguments: [String] {
        var args = ["--threads", "\(model.threads)"]
        if let dir = model.modelsDir { args += ["--models-dir", dir] }
        if model.noFetch { args.append("--no-fetch") }
        if let db = index.db { args += ["--db", db] }
        if let memoryLimit { args += ["--memory-limit", memoryLimit] }
        return args
    }
}

struct AskCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ask", abstract: "Ask about symptoms: urgency, conditions that fit and why, red flags, what to do, citations.")

    @OptionGroup var options: AssistantOptions
    @Option(help: "auto | lite | complete") var model: String = "auto"
    @Flag(help: "Answer from keyword search only (no embedding model).") var keywordOnly = false
    @Flag(help: "JSON output (schema v1).") var json = false
    @Flag(help: "Also print what the parser understood (clauses, negations, age, vitals).") var explain = false
    @Argument(help: "Your question, in your own words.") var question: String

    func validate() throws {
        guard ModelSelector.Request(rawValue: model) != nil else { throw ValidationError("--model must be auto, lite or complete") }
        guard !question.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw ValidationError("the question is empty; describe the symptoms, e.g. \"fever and sore throat for two days\"")
        }
    }

    func run() async throws {
        do {
            let assistant = options.assistant()
            if explain { printErr(FindingsSummary(try assistant.knowledge().parser.parse(question)).lines.joined(separator: "\n")) }
            let answer = try await assistant.ask(question, options: .init(model: ModelSelector.Request(rawValue: model)!, keywordOnly: keywordOnly))
            print(json ? answer.json() : AnswerPrinter(color: isatty(1) == 1).render(answer))
            // The answer is out and nothing is left to write (caches are written before answering):
            // end here rather than free the models, vectors and profiles one object at a time,
            // which took several ms of every cold `health ask`.
            fflush(nil)
            Foundation.exit(0)
        } catch {
            printErr("health: error: \(error)")
            throw ExitCode(1)
        }
    }
}

/// The human-readable answer: triage first, then conditions, red flags, advice, citations.
struct AnswerPrinter {
    let color: Bool

    func paint(_ s: String, _ code: String) -> String { color ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s }

    func render(_ a: Answer) -> String {
        var out: [String] = []
        let colors: [TriageLevel: String] = [.emergency: "1;97;41", .urgent: "1;30;43", .routine: "1;30;46", .selfCare: "1;30;42"]
        out.append(paint(" \(a.triage.level.rawValue.uppercased()) ", colors[a.triage.level]!) + "  " + a.triage.level.meaning)
        out.append("  why: " + a.triage.reason)
        if !a.triage.decidedBy.isEmpty { out.append("  decided by: " + a.triage.decidedBy.joined(separator: ", ")) }
        if let crisis = a.crisis {
            out.append("")
            out.append(paint("You matter, and help is available right now:", "1"))
            out += crisis.map { "  • " + $0 }
        }
        if !a.redFlags.isEmpty {
            out.append("")
            out.append(paint("Red flags", "1;31"))
            out += a.redFlags.map { "  ! \($0.flag)  (\"\($0.clause)\")  [\($0.source)]" }
        }
        if !a.conditions.isEmpty {
            out.append("")
            out.append(paint("Conditions that fit", "1"))
            for (i, c) in a.conditions.enumerated() {
                out.append(String(format: "  %d. %@  %.0f%%  [usually %@]", i + 1, c.name, c.score * 100, c.triage.rawValue))
                if !c.matched.isEmpty { out.append("     matches: " + c.matched.joined(separator: ", ")) }
                if !c.missing.isEmpty { out.append("     not mentioned (key): " + c.missing.joined(separator: ", ")) }
                if !c.contradicted.isEmpty { out.append("     you said no to: " + c.contradicted.joined(separator: ", ")) }
            }
        }
        out.append("")
        out.append(paint("What to do now", "1"))
        out += a.advice.map { "  • " + $0 }
        if !a.citations.isEmpty {
            out.append("")
            out.append(paint("Sources (local corpus)", "1"))
            out += a.citations.map { "  [\($0.index)] \($0.path) — \($0.section)" }
        }
        out.append("")
        let total = a.timings["totalMs"].map { String(format: "%.0f ms", $0) } ?? ""
        out.append(paint("model: \(a.model.name) — \(a.model.reason) \(total)", "2"))
        if let d = a.degraded { out.append(paint("degraded: \(d)", "2")) }
        out.append(paint(a.notice, "2"))
        return out.joined(separator: "\n")
    }
}
