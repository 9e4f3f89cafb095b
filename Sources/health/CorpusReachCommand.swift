import ArgumentParser
import Foundation
import HealthAssistant
import Store

/// `health corpus reach`: every condition must be found by its own name, and nearly always by each
/// of its aliases. A condition that its own name does not retrieve can never lead an answer, however
/// well its file is written; an alias that retrieves something else is a wording the library does
/// not yet recognise. Searches go through `IndexSearch`, the path `health search --kind condition` uses.
struct CorpusReachCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reach",
        abstract: "Search each indexed condition's name and aliases (kind=condition) and report the queries whose own condition is not in the top N.",
        discussion: "Exits non-zero if any name misses its condition, or if fewer than --min-alias-rate of the aliases reach theirs.")

    @OptionGroup var model: ModelOptions
    @OptionGroup var index: IndexOptions
    @Option(help: "A query reaches its condition when that condition is among the first N distinct conditions found.") var top = 3
    @Option(help: "The share of aliases (0–1) that must reach their condition.") var minAliasRate = 0.9
    @Option(help: "dense | bm25 | hybrid") var mode = "hybrid"

    func validate() throws {
        guard (1...50).contains(top) else { throw ValidationError("--top must be between 1 and 50") }
        guard (0...1).contains(minAliasRate) else { throw ValidationError("--min-alias-rate must be between 0 and 1") }
        guard HybridRetriever.Mode(rawValue: mode) != nil else { throw ValidationError("--mode must be dense, bm25 or hybrid") }
    }

    /// One name or alias, and the condition it should find.
    struct Query { let text: String; let path: String; let isAlias: Bool }

    /// Chunks read per query: deep enough that the first `top` distinct conditions are all in it
    /// (a condition has a profile and five sections, so its chunks can crowd the head of the list).
    static let depth = 100

    func run() throws {
        try failing {
            let search = try IndexSearch(model: model, index: index)
            let conditions = try search.store.documents(kind: "condition")
            guard !conditions.isEmpty else {
                throw CLIError(message: "the index holds no conditions. Fix: build it with `health index` (or pass --db).")
            }
            var titles: [String: String] = [:]
            var queries: [Query] = []
            for c in conditions {
                titles[c.path] = c.title
                let front = (try? JSONSerialization.jsonObject(with: Data(c.frontMatterJSON.utf8))) as? [String: Any] ?? [:]
                queries.append(Query(text: (front["name"] as? String) ?? c.title, path: c.path, isAlias: false))
                for alias in front["aliases"] as? [Any] ?? [] { queries.append(Query(text: "\(alias)", path: c.path, isAlias: true)) }
            }
            let results = try search.search(queries.map(\.text), k: Self.depth, mode: HybridRetriever.Mode(rawValue: mode)!,
                                            filter: SearchFilter(kind: "condition"))
            var misses: [(query: Query, ranked: [String], ownRank: Int?)] = []
            for (query, hits) in zip(queries, results) {
                var ranked: [String] = []
                for h in hits where !ranked.contains(h.path) { ranked.append(h.path) }
                if ranked.prefix(top).contains(query.path) { continue }
                misses.append((query, Array(ranked.prefix(top)), ranked.firstIndex(of: query.path).map { $0 + 1 }))
            }
            func rate(_ alias: Bool) -> (reached: Int, total: Int) {
                let total = queries.filter { $0.isAlias == alias }.count
                return (total - misses.filter { $0.query.isAlias == alias }.count, total)
            }
            let names = rate(false), aliases = rate(true)
            func percent(_ r: (reached: Int, total: Int)) -> String {
                r.total == 0 ? "–" : String(format: "%.1f%%", 100 * Double(r.reached) / Double(r.total))
            }
            print("\(conditions.count) conditions in \(index.databasePath(locator: model.locator)); \(mode) search, kind=condition, top \(top)")
            print("names reach their condition:   \(names.reached)/\(names.total) (\(percent(names)))")
            print("aliases reach their condition: \(aliases.reached)/\(aliases.total) (\(percent(aliases)))")
            for alias in [false, true] {
                let group = misses.filter { $0.query.isAlias == alias }
                guard !group.isEmpty else { continue }
                print("\n\(alias ? "aliases" : "names") that miss their condition:")
                for m in group {
                    let own = m.ownRank.map { "its own is #\($0)" } ?? "its own is not in the first \(Self.depth) chunks"
                    let instead = m.ranked.enumerated().map { "\($0.offset + 1). \(titles[$0.element] ?? $0.element)" }.joined(separator: ", ")
                    print("  \"\(m.query.text)\" (\(titles[m.query.path] ?? m.query.path)): \(instead.isEmpty ? "nothing found" : instead); \(own)")
                }
            }
            var errors: [String] = []
            if names.reached < names.total { errors.append("\(names.total - names.reached) condition name(s) miss their own condition") }
            if aliases.total > 0, Double(aliases.reached) < minAliasRate * Double(aliases.total) {
                errors.append("aliases reach \(percent(aliases)), below --min-alias-rate \(minAliasRate)")
            }
            if errors.isEmpty {
                print("\ncorpus reach: ok")
            } else {
                for e in errors { printErr("error: \(e)") }
                throw ExitCode(1)
            }
        }
    }
}
