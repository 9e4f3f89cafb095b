import ArgumentParser
import Foundation
import HealthAssistant

struct IndexCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Index a folder of Markdown/text files (default: corpus/) into the SQLite index, incrementally.")

    @OptionGroup var options: AssistantOptions
    @Flag(help: "Delete the index and build it again (after a model change or a damaged file).") var rebuild = false
    @Argument(help: "Folder to index (default: the project's corpus/).") var folder: String?

    func run() async throws {
        try await failingAsync {
            let assistant = options.assistant()
            let folderURL = folder.map { URL(fileURLWithPath: $0) } ?? assistant.configuration.corpusDirectory
            // The same route as the library's first-run build: documents, then the Complete model's
            // stored symptom-phrase matrix.
            let bar = ProgressBar()
            let report = try await assistant.index(folder: folderURL, rebuild: rebuild, progress: { bar.update($0) },
                                                   warn: { printErr("warning: \($0)") })
            bar.finish()
            if report.scanned == 0 { printErr("warning: \(folderURL.path) holds no .md or .txt files") }
            print("indexed \(folderURL.path) into \(assistant.configuration.databasePath): \(report.summary)")
        }
    }
}
