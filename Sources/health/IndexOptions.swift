import ArgumentParser
import Embeddings
import Foundation
import HealthAssistant
import Store

/// Where the index lives: `--db`, else `$HEALTH_DB`, else `.health/index.sqlite` beside `models/`.
struct IndexOptions: ParsableArguments {
    @Option(name: .long, help: "Index database file (default: $HEALTH_DB or .health/index.sqlite in the project).")
    var db: String?

    func databasePath(locator: ModelLocator) -> String {
        if let db, !db.isEmpty { return db }
        if let env = ProcessInfo.processInfo.environment["HEALTH_DB"], !env.isEmpty { return env }
        return locator.modelsDirectory.deletingLastPathComponent().appendingPathComponent(".health/index.sqlite").path
    }

    /// The default corpus folder: `corpus/` beside `models/`.
    func defaultCorpus(locator: ModelLocator) -> URL {
        locator.modelsDirectory.deletingLastPathComponent().appendingPathComponent("corpus")
    }
}

/// A one-line progress bar on a terminal; silent when stderr is piped.
final class ProgressBar: @unchecked Sendable {
    // Only touched from the indexing thread that owns it.
    let enabled = isatty(2) == 1
    var lastDraw = 0.0

    func update(_ p: CorpusIndexer.Progress) {
        guard enabled, p.elapsed - lastDraw > 0.1 || p.filesDone == p.filesTotal else { return }
        lastDraw = p.elapsed
        let width = 28
        let fraction = p.filesTotal == 0 ? 1 : Double(p.filesDone) / Double(p.filesTotal)
        let filled = Int(fraction * Double(width))
        let rate = p.elapsed > 0 ? Double(p.chunksDone) / p.elapsed : 0
        let eta = fraction > 0 ? p.elapsed / fraction - p.elapsed : 0
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
        let line = String(format: "\r%@ %d/%d files  %d chunks  %.0f chunks/s  ETA %.0fs ", bar, p.filesDone, p.filesTotal, p.chunksDone, rate, eta)
        FileHandle.standardError.write(Data(line.utf8))
    }

    func finish() {
        if enabled { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
