import Embeddings
import Foundation
import Linear

/// The embedding model as a cache entry: where it lives, how big it is, how to load it (fetching it
/// first on a fresh machine when allowed).
struct EmbedderSource: Sendable {
    let configuration: HealthAssistant.Configuration
    let cache: ModelCache
    let name = ModelLocator.defaultModelName

    /// Resident size: the weights file (mapped) dominates.
    func bytes() -> Int {
        let file = configuration.modelsDirectory.appendingPathComponent(name).appendingPathComponent("model.safetensors")
        return ((try? FileManager.default.attributesOfItem(atPath: file.path)[.size]) as? NSNumber)?.intValue ?? 91_000_000
    }

    func load() throws -> SentenceEmbedder {
        BLAS.setThreads(1)
        let locator = ModelLocator(modelsDirectory: configuration.modelsDirectory)
        do {
            return try locator.loadEmbedder(shards: configuration.threads)
        } catch EmbeddingError.modelMissing where configuration.autoFetch {
            let manifest = try locator.manifest()
            let fetcher = ModelFetcher(manifest: manifest, modelsDirectory: locator.modelsDirectory)
            FileHandle.standardError.write(Data("First run: fetching the embedding model (about 83 MB, once)…\n".utf8))
            for m in manifest.models { _ = try fetcher.fetch(m) { FileHandle.standardError.write(Data(($0 + "\n").utf8)) } }
            return try locator.loadEmbedder(shards: configuration.threads)
        }
    }

    /// Runs `body` with the model leased from the cache (loaded on first use).
    func with<R: Sendable>(_ body: (SentenceEmbedder) async throws -> R) async throws -> R {
        try await cache.using("embedder", bytes: bytes(), load: { try load() }, body)
    }
}
