import Foundation

/// Finds `models/manifest.json` and the model folders next to it, so `health` works from the
/// checkout, from a subdirectory of it, or from anywhere with `--models-dir` / `$HEALTH_MODELS_DIR`.
public struct ModelLocator: Sendable {
    public let modelsDirectory: URL

    public init(modelsDirectory: URL) { self.modelsDirectory = modelsDirectory }

    public static let defaultModelName = "all-MiniLM-L6-v2"

    /// Explicit path, else `$HEALTH_MODELS_DIR`, else the nearest `models/manifest.json` above the
    /// working directory, else above the executable (`.build/release/health` sits inside the checkout).
    public static func resolve(explicit: String? = nil) -> ModelLocator {
        if let explicit, !explicit.isEmpty { return ModelLocator(modelsDirectory: URL(fileURLWithPath: explicit)) }
        if let env = ProcessInfo.processInfo.environment["HEALTH_MODELS_DIR"], !env.isEmpty {
            return ModelLocator(modelsDirectory: URL(fileURLWithPath: env))
        }
        let starts = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
                      URL(fileURLWithPath: CommandLine.arguments.first ?? ".").deletingLastPathComponent()]
        for start in starts {
            var dir = start.standardizedFileURL
            for _ in 0..<8 {
                let candidate = dir.appendingPathComponent("models")
                if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("manifest.json").path) {
                    return ModelLocator(modelsDirectory: candidate)
                }
                let parent = dir.deletingLastPathComponent()
                if parent.path == dir.path { break }
                dir = parent
            }
        }
        return ModelLocator(modelsDirectory: URL(fileURLWithPath: "models"))
    }

    public var manifestURL: URL { modelsDirectory.appendingPathComponent("manifest.json") }

    public func manifest() throws -> ModelManifest { try ModelManifest.load(manifestURL) }

    public func directory(for name: String) -> URL { modelsDirectory.appendingPathComponent(name) }

    /// Loads and verifies the default sentence embedder.
    public func loadEmbedder(name: String = ModelLocator.defaultModelName, batchSize: Int = 32, shards: Int = 2) throws -> SentenceEmbedder {
        let manifest = try manifest()
        guard let model = manifest.model(named: name) else {
            throw EmbeddingError.invalidConfig(file: manifestURL.path, reason: "no model named \(name)")
        }
        return try SentenceEmbedder.load(directory: directory(for: name), manifestModel: model, batchSize: batchSize, shards: shards)
    }
}
