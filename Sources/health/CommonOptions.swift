import ArgumentParser
import Embeddings
import Linear

/// Options every model-using command shares.
struct ModelOptions: ParsableArguments {
    @Option(name: .long, help: "Folder holding models/manifest.json and fetched weights (default: nearest ./models, or $HEALTH_MODELS_DIR).")
    var modelsDir: String?

    @Option(name: .long, help: "OpenBLAS threads.")
    var threads: Int = 2

    func validate() throws {
        guard (1...256).contains(threads) else { throw ValidationError("--threads must be between 1 and 256") }
    }

    var locator: ModelLocator { ModelLocator.resolve(explicit: modelsDir) }

    func loadEmbedder(batchSize: Int = 32) throws -> SentenceEmbedder {
        BLAS.setThreads(threads)
        return try locator.loadEmbedder(batchSize: batchSize)
    }
}
