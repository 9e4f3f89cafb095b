import Embeddings
import Foundation
import Linear
import Store

/// The library a front-end uses: ask questions, stream answers, index a corpus, search, look up
/// conditions. Models are loaded lazily through a `ModelCache` under a memory budget.
///
/// ```swift
/// let assistant = try HealthAssistant(configuration: .init(projectDirectory: URL(fileURLWithPath: ".")))
/// let answer = try await assistant.ask("fever, stiff neck and headache since yesterday")
/// print(answer.triage.level, answer.conditions.first?.name ?? "")
/// ```
public final class HealthAssistant: Sendable {
    /// Where things live and how much memory models may use.
    public struct Configuration: Sendable {
        public var modelsDirectory: URL
        public var databasePath: String
        public var corpusDirectory: URL
        /// The clinical knowledge: safety rules, lexicons, triage policy, weights (`rules/`).
        public var rulesDirectory: URL
        /// Byte budget for resident models; nil = enough for everything.
        public var memoryLimit: Int?
        /// Worker threads for embedding.
        public var threads: Int
        /// Download the model on first use if it is missing.
        public var autoFetch: Bool
        /// Build the index from `corpusDirectory` on first use if it is empty.
        public var autoIndex: Bool
        /// Micro-batching of concurrent questions' embeddings.
        public var batching = EmbeddingBatcher.Options()

        public init(projectDirectory: URL, databasePath: String? = nil, memoryLimit: Int? = nil, threads: Int = 2,
                    autoFetch: Bool = true, autoIndex: Bool = true) {
            modelsDirectory = projectDirectory.appendingPathComponent("models")
            self.databasePath = databasePath ?? projectDirectory.appendingPathComponent(".health/index.sqlite").path
            corpusDirectory = projectDirectory.appendingPathComponent("corpus")
            rulesDirectory = projectDirectory.appendingPathComponent("rules")
            self.memoryLimit = memoryLimit
            self.threads = threads
            self.autoFetch = autoFetch
            self.autoIndex = autoIndex
        }
    }

    /// Per-question options.
    public struct AskOptions: Sendable {
        public var model: ModelSelector.Request
        public var maxConditions: Int
        /// Force a BM25-only answer (no embedding model), e.g. under memory pressure.
        public var keywordOnly: Bool
        /// Complete's scoring weights for evaluation and tuning; nil = the tuned ones in rules/weights.yaml.
        public var completeWeights: CompleteAnalyzer.Weights?
        public init(model: ModelSelector.Request = .auto, maxConditions: Int = 5, keywordOnly: Bool = false,
                    completeWeights: CompleteAnalyzer.Weights? = nil) {
            self.model = model; self.maxConditions = maxConditions; self.keywordOnly = keywordOnly; self.completeWeights = completeWeights
        }
    }

    public enum AskError: Error, CustomStringConvertible, Equatable {
        case emptyQuestion
        case tooLong(Int, limit: Int)
        case emptyIndex(String)
        public var description: String {
            switch self {
            case .emptyQuestion: return "the question is empty. Describe the symptoms, e.g. \"fever and sore throat for two days\"."
            case let .tooLong(n, limit): return "the question is \(n) characters; the limit is \(limit). Shorten it to the main symptoms."
            case .emptyIndex(let path): return "the index \(path) holds no documents. Fix: run `health index`."
            }
        }
    }

    public static let maxQuestionLength = 4000

    public let configuration: Configuration
    public let cache: ModelCache
    /// The clinical knowledge and the pipeline built on it, loaded and validated once.
    let pipelineCell = OnceCell<AskPipeline>()
    var embedderName: String { embedderSource.name }
    /// The store is opened once (opening runs migrations and checks) and reused by every question.
    let storeBox = StoreBox()

    /// Loads the embedding model through the cache.
    let embedderSource: EmbedderSource
    /// Concurrent questions share forward passes of the embedding model.
    public let batcher: EmbeddingBatcher

    public init(configuration: Configuration) {
        self.configuration = configuration
        let cache = ModelCache(budgetBytes: configuration.memoryLimit ?? Int.max / 4)
        self.cache = cache
        let source = EmbedderSource(configuration: configuration, cache: cache)
        embedderSource = source
        batcher = EmbeddingBatcher(options: configuration.batching) { texts in try await source.with { try $0.embed(texts) } }
    }

    // MARK: resources (loaded through the cache)

    /// The rules, lexicons, policy and weights from `configuration.rulesDirectory`, validated; a
    /// bad file throws a `KnowledgeError` naming it (never a partial rule set).
    public func knowledge() throws -> ClinicalKnowledge { try pipeline().knowledge }

    func pipeline() throws -> AskPipeline {
        try pipelineCell.get {
            // The fingerprint of the rules last validated in full is kept beside the index: while the
            // files are unchanged, patterns compile on first use rather than all at process start.
            let stamp = URL(fileURLWithPath: configuration.databasePath).deletingLastPathComponent().appendingPathComponent("rules.validated")
            let validated = (try? String(contentsOf: stamp, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            // The parsed YAML is kept there too (`ParsedRulesCache`), keyed by the same fingerprint.
            let parsed = stamp.deletingLastPathComponent().appendingPathComponent("rules.parsed")
            let knowledge = try ClinicalKnowledge.load(from: configuration.rulesDirectory, validated: validated, parsedCache: parsed)
            if validated != knowledge.fingerprint {
                try? FileManager.default.createDirectory(at: stamp.deletingLastPathComponent(), withIntermediateDirectories: true)
                try? knowledge.fingerprint.write(to: stamp, atomically: true, encoding: .utf8)
            }
            return AskPipeline(knowledge: knowledge)
        }
    }

    func withEmbedder<R: Sendable>(_ body: (SentenceEmbedder) async throws -> R) async throws -> R {
        try await embedderSource.with(body)
    }

    /// Embeds the texts of one question, batched with concurrent questions.
    func embedQuestion(_ texts: [String]) async throws -> Matrix {
        try await batcher.embed(texts)
    }

    /// Opens the store for the embedding model's id and dimension (no model load needed).
    func openStore() throws -> SQLiteStore {
        try storeBox.get { try openStoreUncached() }
    }

    func openStoreUncached() throws -> SQLiteStore {
        let manifest = try? ModelLocator(modelsDirectory: configuration.modelsDirectory).manifest()
        let dim = manifest?.model(named: embedderName)?.dimension ?? 384
        return try SQLiteStore(path: configuration.databasePath, modelID: embedderName, dimension: dim)
    }

    func indexBytes(_ store: SQLiteStore) -> Int {
        // Vectors (fp32 + int8), and up to ~3 KB per chunk of memoised passage text.
        storeBox.memo("indexBytes") { ((try? store.counts().vectors) ?? 0) * (store.dimension * 5 + 3_000) + 4_000_000 }
    }

    func withIndex<R: Sendable>(_ store: SQLiteStore, _ body: (IndexResources) async throws -> R) async throws -> R {
        let weights = try knowledge().weights.symptomWeights
        return try await cache.using("index", bytes: indexBytes(store), load: { try await IndexResources.load(store: store, symptomWeights: weights) }, body)
    }

    /// The Complete model; `index` supplies the condition profiles it is laid out by.
    func withSymptomModel<R: Sendable>(_ store: SQLiteStore, index: IndexResources, _ body: (SymptomModel) async throws -> R) async throws -> R {
        // Read once per index (the artifact is built on first use, so until then, ask each time).
        let bytes = storeBox.memoOnceKnown("completeArtifactBytes") { (try? store.artifactSize(name: SymptomModel.artifactName)) ?? 0 }
        let profiles = index.profiles, lexicon = index.symptomLexicon
        return try await cache.using("complete", bytes: max(bytes, 1_000_000), load: { [self] in
            let fp = try store.corpusFingerprint()
            if let m = try SymptomModel.load(from: store, fingerprint: fp, profiles: profiles, lexicon: lexicon) { return m }
            return try await withEmbedder { try SymptomModel.ensure(store: store, embedder: $0, profiles: profiles) }
        }, body)
    }

    /// The red-flag concepts' embedded exemplars (built on first use if the index lacks them).
    func withConceptModel<R: Sendable>(_ store: SQLiteStore, _ body: (ConceptModel) async throws -> R) async throws -> R {
        let knowledge = try knowledge()
        let bytes = (knowledge.concepts.reduce(0) { $0 + $1.exemplars.count + $1.negatives.count }) * 384 * 4 + 100_000
        return try await cache.using("concepts", bytes: bytes, load: { [self] in
            if let m = try ConceptModel.load(from: store, fingerprint: knowledge.conceptFingerprint, concepts: knowledge.concepts) { return m }
            return try await withEmbedder { try ConceptModel.ensure(store: store, embedder: $0, knowledge: knowledge) }
        }, body)
    }

    /// Bytes the Complete model would need resident, to let the selector respect the budget.
    func completeFits(_ store: SQLiteStore) -> Bool {
        let need = storeBox.memo("completeBytes") { embedderSource.bytes() + indexBytes(store) + ((try? store.artifactSize(name: SymptomModel.artifactName)) ?? 0) }
        return need <= cache.budget
    }

    // MARK: public API

    /// Indexes a folder (default: the configured corpus) and rebuilds the Complete model's parameters.
    /// `health index` and the first-run build both come here, so the two cannot drift apart.
    public func index(folder: URL? = nil, rebuild: Bool = false, progress: @escaping @Sendable (CorpusIndexer.Progress) -> Void = { _ in },
                      warn: @escaping @Sendable (String) -> Void = { _ in }) async throws -> CorpusIndexer.Report {
        // A rebuild starts from an empty file; call it before anything opened the store.
        if rebuild { try SQLiteStore.remove(path: configuration.databasePath) }
        let store = try openStore()
        let weights = try knowledge().weights.symptomWeights
        let report = try await withEmbedder { embedder in
            let tokenizer = embedder.tokenizer
            let indexer = CorpusIndexer(store: store, embedder: embedder, countTokens: { tokenizer.encode($0).count - 2 })
            let r = try indexer.index(folder: folder ?? configuration.corpusDirectory, warn: warn, progress: progress)
            try SymptomModel.ensure(store: store, embedder: embedder, profiles: try ConditionProfile.load(from: store, symptomWeights: weights))
            try ConceptModel.ensure(store: store, embedder: embedder, knowledge: try knowledge())
            return r
        }
        // The vector index and the Complete model now describe an older corpus: drop them.
        storeBox.forgetMemos()
        await cache.releaseAll()
        return report
    }

    /// Loads the models so the first question is fast. Returns how long each step took (ms):
    /// `store` (open + checks), `embedder` (load + one pass), `index` (vectors, profiles), `complete`.
    @discardableResult
    public func warmUp() async throws -> [String: Double] {
        var t = Date()
        var steps: [String: Double] = [:]
        func lap(_ name: String) { steps[name] = (Date().timeIntervalSince(t) * 100_000).rounded() / 100; t = Date() }
        let store = try await readyStore()
        lap("store")
        _ = try await withEmbedder { try $0.embed(["warm up"]).rows }
        lap("embedder")
        _ = try await withIndex(store) { index in
            lap("index")
            return try await withSymptomModel(store, index: index) { $0.entries.count }
        }
        lap("complete")
        return steps
    }

    /// Drops every model not in use (call on memory pressure).
    public func releaseModels() async { await cache.releaseAll() }

    /// Cache counters (hits, misses, loads, evictions, resident bytes).
    public var metrics: ModelCache.Counters { get async { await cache.counters } }

    /// The store, indexing the corpus first if it is empty and auto-indexing is on.
    func readyStore() async throws -> SQLiteStore {
        let store = try openStore()
        if storeBox.memo("documents", { (try? store.counts().documents) ?? 0 }) == 0 {
            storeBox.forgetMemos()
            guard configuration.autoIndex else { throw AskError.emptyIndex(configuration.databasePath) }
            FileHandle.standardError.write(Data("First run: building the index from \(configuration.corpusDirectory.path)…\n".utf8))
            let bar = SimpleProgress()
            _ = try await index(progress: { bar.update($0) })
            bar.finish()
        }
        return store
    }

    /// Answers one question: the pipeline's stages in order, with the resources each needs leased
    /// from the model cache as it goes.
    public func ask(_ question: String, options: AskOptions = AskOptions()) async throws -> Answer {
        let trimmed = question.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw AskError.emptyQuestion }
        guard trimmed.count <= Self.maxQuestionLength else { throw AskError.tooLong(trimmed.count, limit: Self.maxQuestionLength) }
        let t0 = Date()
        // On a cold start the embedding model loads on the other core while the rules load.
        let cold = !pipelineCell.isFilled
        if !options.keywordOnly, cold { Task { _ = try? await withEmbedder { _ in 0 } } }
        // The store opens beside them too (a first run builds the index here, with its progress).
        let opening = cold ? Task { try await readyStore() } : nil
        let pipeline = try pipeline()
        let findings = pipeline.parse(trimmed)
        let store: SQLiteStore
        if let opening { store = try await opening.value } else { store = try await readyStore() }
        // And the red-flag concepts load beside the index, which they do not need (the cache loads
        // each once, whoever asks first).
        if !options.keywordOnly, cold { Task { _ = try? await withConceptModel(store) { _ in 0 } } }
        let clock = AskPipeline.Clock(start: t0, parsed: Date())
        let decision = pipeline.select(findings, requested: options.model, completeFits: completeFits(store))
        // The embedding does not need the index: on a cold start the model loads and runs while
        // the index loads on the other core.
        // A question with misspellings corrected is embedded as corrected (`rules/spellings.yaml`).
        let texts = pipeline.embeddingTexts(findings.text == TextFolding.ascii(trimmed) ? trimmed : findings.text, findings, decision)
        let embedding: Task<Matrix, Error>? = options.keywordOnly ? nil : Task { try await embedQuestion(texts) }
        defer { embedding?.cancel() }
        return try await withIndex(store) { index in
            guard embedding != nil else {
                return try await pipeline.finish(findings, decision: decision, embedding: nil, index: index, model: nil, concepts: nil, options: options, clock: clock)
            }
            return try await withConceptModel(store) { concepts in
                if decision.choice == .complete {
                    return try await withSymptomModel(store, index: index) { model in
                        try await pipeline.finish(findings, decision: decision, embedding: embedding, index: index, model: model, concepts: concepts,
                                                  options: options, clock: clock)
                    }
                }
                return try await pipeline.finish(findings, decision: decision, embedding: embedding, index: index, model: nil, concepts: concepts,
                                                 options: options, clock: clock)
            }
        }
    }

    /// Streams an answer: the triage first, then each condition, then the evidence.
    public func askStream(_ question: String, options: AskOptions = AskOptions()) -> AsyncThrowingStream<AnswerEvent, Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let answer = try await ask(question, options: options)
                    for event in AnswerEvent.events(for: answer) { continuation.yield(event) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// A search hit for front-ends.
    public struct SearchHit: Sendable, Codable {
        public var path: String
        public var section: String
        public var text: String
        public var score: Double
    }

    /// Hybrid search over the corpus.
    public func search(_ query: String, limit: Int = 10) async throws -> [SearchHit] {
        let q = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !q.isEmpty else { throw AskError.emptyQuestion }
        let store = try await readyStore()
        let vector = Array(try await embedQuestion([q]).row(0))
        return try await withIndex(store) { index in
            let results = try index.retriever.search(text: q, vector: vector, k: max(1, min(limit, 100)), mode: .hybrid)
            let chunks = try store.chunks(ids: results.map(\.chunkID))
            return results.compactMap { r in chunks[r.chunkID].map { SearchHit(path: $0.documentPath, section: $0.headingPath, text: $0.text, score: r.score) } }
        }
    }

    /// One condition's profile by id (nil if unknown).
    public func condition(id: String) async throws -> ConditionProfile? {
        let store = try await readyStore()
        return try await withIndex(store) { $0.profiles.first { $0.id == id } }
    }
}

/// Progress to stderr for the first-run index build (a bar on a terminal, nothing when piped).
final class SimpleProgress: @unchecked Sendable {
    // Touched only from the indexing thread.
    let tty = isatty(2) == 1
    func update(_ p: CorpusIndexer.Progress) {
        guard tty else { return }
        FileHandle.standardError.write(Data(String(format: "\r  %d/%d files, %d chunks, %.0f s ", p.filesDone, p.filesTotal, p.chunksDone, p.elapsed).utf8))
    }
    func finish() { if tty { FileHandle.standardError.write(Data("\n".utf8)) } }
}

/// The opened store and a few numbers derived from it (shared by concurrent questions).
final class StoreBox: Sendable {
    private let store = OnceCell<SQLiteStore>()
    private let memos = LockedMemo<Int>()

    func get(_ open: () throws -> SQLiteStore) throws -> SQLiteStore { try store.get(open) }

    func memo(_ key: String, _ compute: () -> Int) -> Int { memos.value(for: key, compute) }

    /// Like `memo`, but a zero (not known yet) is not remembered, so it is asked again next time.
    func memoOnceKnown(_ key: String, _ compute: () -> Int) -> Int {
        memos.valueOnceKnown(for: key) { let value = compute(); return value > 0 ? value : nil } ?? 0
    }

    func forgetMemos() { memos.removeAll() }
}
