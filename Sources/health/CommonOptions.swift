import ArgumentParser
import Foundation
import Embeddings
import Linear

/// Options every model-using command shares.
struct ModelOptions: ParsableArguments {
    @Option(name: .long, help: "Folder holding models/manifest.json and fetched weights (default: nearest ./models, or $HEALTH_MODELS_DIR).")
    var modelsDir: String?

    @Option(name: .long, help: "Worker threads (each runs single-threaded OpenBLAS on its own shard).")
    var threads: Int = 2

    func validate() throws {
        guard (1...256).contains(threads) else { throw ValidationError("--threads must be between 1 and 256") }
    }

    @Flag(name: .long, help: "Never download: fail if the model is missing (also $HEALTH_OFFLINE=1).")
    var noFetch = false

    var locator: ModelLocator { ModelLocator.resolve(explicit: modelsDir) }

    /// Loads the embedder; on the very first run (model files absent) fetches them first, with
    /// progress on stderr, so a newcomer's first question just works.
    func loadEmbedder(batchSize: Int = 32) throws -> SentenceEmbedder {
        BLAS.setThreads(1)
        let locator = self.locator
        do {
            return try locator.loadEmbedder(batchSize: batchSize, shards: threads)
        } catch EmbeddingError.modelMissing(let directory, let file) {
            let offline = noFetch || ProcessInfo.processInfo.environment["HEALTH_OFFLINE"] == "1"
            if offline { throw EmbeddingError.modelMissing(directory: directory, file: file) }
            printErr("First run: the embedding model is not here yet; fetching it (about 83 MB, once).")
            let manifest = try locator.manifest()
            let fetcher = ModelFetcher(manifest: manifest, modelsDirectory: locator.modelsDirectory)
            for model in manifest.models { _ = try fetcher.fetch(model) { printErr($0) } }
            return try locator.loadEmbedder(batchSize: batchSize, shards: threads)
        }
    }
}
