import ArgumentParser
import Embeddings
import Foundation
import HealthAssistant

struct CorpusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "corpus", abstract: "Work on the health corpus.", subcommands: [Check.self, CorpusReachCommand.self])

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Validate every corpus file and print coverage; exits non-zero on any error.")
        @Option(help: "Models folder, to find the project (default: nearest ./models).") var modelsDir: String?
        @Argument(help: "Corpus folder (default: the project's corpus/).") var folder: String?
        @Option(help: "Minimum number of conditions.") var minConditions = 600
        @Option(help: "Minimum number of topics.") var minTopics = 40

        func run() throws {
            let root = folder.map { URL(fileURLWithPath: $0) }
                ?? ModelLocator.resolve(explicit: modelsDir).modelsDirectory.deletingLastPathComponent().appendingPathComponent("corpus")
            let report = CorpusValidator().check(corpus: root)
            func table(_ title: String, _ counts: [String: Int]) {
                print("\n\(title)")
                for (k, v) in counts.sorted(by: { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }) {
                    print(String(format: "  %-16@ %4d", k, v))
                }
            }
            print("\(report.conditions) conditions, \(report.topics) topics in \(root.path)")
            table("by body system", report.bySystem)
            table("by triage level", report.byTriage)
            table("by age group", report.byAge)
            print("\nfile pairs sharing a 12-word run: \(report.repeats.count)")
            var errors = report.errors.map(\.description)
            if report.conditions < minConditions { errors.append("only \(report.conditions) conditions (need ≥ \(minConditions))") }
            if report.topics < minTopics { errors.append("only \(report.topics) topics (need ≥ \(minTopics))") }
            if errors.isEmpty {
                print("\ncorpus check: ok")
            } else {
                for e in errors { printErr("error: \(e)") }
                printErr("corpus check: \(errors.count) error(s)")
                throw ExitCode(1)
            }
        }
    }
}
