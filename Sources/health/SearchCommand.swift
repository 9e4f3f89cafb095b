import ArgumentParser
import Foundation
import HealthAssistant
import Store

struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search", abstract: "Search the index: dense, BM25 or hybrid (reciprocal-rank fusion).")

    @OptionGroup var model: ModelOptions
    @OptionGroup var index: IndexOptions
    @Option(name: .short, help: "Number of results.") var k = 10
    @Option(help: "dense | bm25 | hybrid") var mode: String = "hybrid"
    @Option(help: "Only documents of this kind (condition, topic, article, text).") var kind: String?
    @Option(help: "Only documents whose path starts with this.") var pathPrefix: String?
    @Option(help: "Only documents whose front matter has FIELD=VALUE, e.g. triage=emergency.") var field: String?
    @Flag(help: "JSON output.") var json = false
    @Argument(help: "The query.") var query: String

    func validate() throws {
        guard (1...1000).contains(k) else { throw ValidationError("-k must be between 1 and 1000") }
        guard HybridRetriever.Mode(rawValue: mode) != nil else { throw ValidationError("--mode must be dense, bm25 or hybrid") }
        guard !query.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw ValidationError("the query is empty") }
        if let field, !field.contains("=") { throw ValidationError("--field takes FIELD=VALUE") }
    }

    func run() throws {
        try failing {
            let filter = SearchFilter(kind: kind, pathPrefix: pathPrefix,
                                      field: field.map { f in let p = f.split(separator: "=", maxSplits: 1); return (String(p[0]), String(p.count > 1 ? p[1] : "")) })
            let hits = try IndexSearch(model: model, index: index).search([query], k: k, mode: HybridRetriever.Mode(rawValue: mode)!, filter: filter)[0]
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                print(String(decoding: try encoder.encode(hits), as: UTF8.self))
            } else if hits.isEmpty {
                print("no results (is the index built? run `health index`)")
            } else {
                for h in hits {
                    print(String(format: "%2d. %.4f  %@  [%@]", h.rank, h.score, h.path, h.heading))
                    print("    " + String(h.text.prefix(160)).replacingOccurrences(of: "\n", with: " "))
                }
            }
        }
    }
}
