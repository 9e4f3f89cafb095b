import ArgumentParser
import Foundation
import HealthAssistant
import Store

struct IndexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Index a folder of Markdown/text files (default: corpus/) into the SQLite index, incrementally.")

    @OptionGroup var model: ModelOptions
    @OptionGroup var index: IndexOptions
    @Flag(help: "Delete the index and build it again (after a model change or a damaged file).") var rebuild = false
    @Argument(help: "Folder to index (default: the project's corpus/).") var folder: String?

    func run() throws {
        try failing {
            let locator = model.locator
            let folderURL = folder.map { URL(fileURLWithPath: $0) } ?? index.defaultCorpus(locator: locator)
            let embedder = try model.loadEmbedder()
            let dbPath = index.databasePath(locator: locator)
            let store = try IndexRunner.openStore(path: dbPath, embedder: embedder, rebuild: rebuild)
            let report = try IndexRunner.run(folder: folderURL, store: store, embedder: embedder)
            if report.scanned == 0 { printErr("warning: \(folderURL.path) holds no .md or .txt files") }
            print("indexed \(folderURL.path) into \(dbPath): \(report.summary)")
        }
    }
}
