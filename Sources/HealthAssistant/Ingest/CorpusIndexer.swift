import Embeddings
import Foundation
import Linear
import Store

/// `health index`: brings the database in line with a folder. Each file is one transaction keyed
/// by its content hash, so unchanged files are skipped, changed ones replaced, deleted ones
/// removed, and a run killed half-way resumes where it stopped. Chunks of several files are
/// embedded together (the encoder is fastest on full batches) but written file by file.
public struct CorpusIndexer: Sendable {
    public struct Progress: Sendable {
        public var filesDone: Int
        public var filesTotal: Int
        public var chunksDone: Int
        public var elapsed: Double
        public var currentPath: String
    }

    public struct Report: Sendable, Equatable {
        public var scanned = 0
        public var indexed = 0
        public var unchanged = 0
        public var removed = 0
        public var skipped: [String] = []
        public var chunks = 0
        public var seconds = 0.0
        public var summary: String {
            var s = "\(scanned) files: \(indexed) indexed (\(chunks) chunks), \(unchanged) unchanged, \(removed) removed"
            if !skipped.isEmpty { s += ", \(skipped.count) skipped" }
            return s + String(format: " in %.1f s", seconds)
        }
    }

    public enum IndexError: Error, CustomStringConvertible, Equatable {
        /// The folder held no text files, yet the index holds documents from it.
        case nothingFound(folder: String, documents: Int, database: String)
        public var description: String {
            switch self {
            case let .nothingFound(folder, documents, database):
                return "\(folder) holds no .md or .txt files, but the index \(database) holds \(documents) documents from it; "
                    + "refusing to remove them, the index is unchanged. Fix: check the folder path (a link to a folder or a "
                    + "mount that is not there?); if the folder really is empty now and the index should follow it, "
                    + "`health index <folder> --db \(database) --rebuild` recreates the index from that folder alone."
            }
        }
    }

    public let store: SQLiteStore
    public let embedder: any Embedder
    public let chunker: Chunker
    public var reader = CorpusReader()
    /// Chunks gathered before one embedding call.
    public var embedBatch = 64

    public init(store: SQLiteStore, embedder: any Embedder, countTokens: @escaping @Sendable (String) -> Int) {
        self.store = store
        self.embedder = embedder
        self.chunker = Chunker(countTokens: countTokens)
    }

    struct Prepared {
        var document: DocumentInput
        var chunks: [ChunkInput]
        var embedTexts: [String]
    }

    public func index(folder: URL, warn: @Sendable (String) -> Void = { _ in },
                      progress: @Sendable (Progress) -> Void = { _ in }) throws -> Report {
        let start = Date()
        var report = Report()
        let files = try reader.list(folder, warn: warn)
        report.scanned = files.count
        let known = try store.documentHashes()
        let prefix = CorpusReader.pathPrefix(of: folder)
        let seen = Set(files.map(\.path))
        let gone = known.keys.filter { $0.hasPrefix(prefix) && !seen.contains($0) }.sorted()
        // Finding nothing where the index holds documents is far likelier a wrong path, an unmounted
        // disk or a link the walk could not follow than a library deleted on purpose; removing
        // them all would lose the index silently. Files deleted while others remain are still removed.
        if files.isEmpty && !gone.isEmpty {
            throw IndexError.nothingFound(folder: folder.path, documents: gone.count, database: store.path)
        }
        try store.removeDocuments(paths: gone)
        report.removed = gone.count

        var pending: [Prepared] = []
        var pendingChunks = 0
        var filesDone = 0
        func flush() throws {
            guard !pending.isEmpty else { return }
            let vectors = try embedder.embed(pending.flatMap(\.embedTexts))
            var row = 0
            for p in pending {
                let n = p.chunks.count
                let slice = Matrix(rows: n, cols: vectors.cols, storage: Array(vectors.storage[(row * vectors.cols)..<((row + n) * vectors.cols)]))
                try store.replaceDocument(p.document, chunks: p.chunks, vectors: slice)
                row += n
                report.indexed += 1
                report.chunks += n
            }
            pending = []
            pendingChunks = 0
            progress(Progress(filesDone: filesDone, filesTotal: files.count, chunksDone: report.chunks,
                              elapsed: Date().timeIntervalSince(start), currentPath: ""))
        }
        for file in files {
            filesDone += 1
            switch reader.read(file) {
            case .failure(let problem):
                warn(problem.description)
                report.skipped.append(file.path)
            case .success(let (text, data)):
                let hash = FileChecksum.sha256(of: data)
                if known[file.path] == hash { report.unchanged += 1; continue }
                do {
                    let prepared = try prepare(file: file, text: text, hash: hash)
                    if prepared.chunks.isEmpty {
                        warn("skipped \(file.path): no text to index")
                        report.skipped.append(file.path)
                        continue
                    }
                    pending.append(prepared)
                    pendingChunks += prepared.chunks.count
                } catch {
                    warn("skipped \(file.path): \(error)")
                    report.skipped.append(file.path)
                }
            }
            if pendingChunks >= embedBatch { try flush() }
        }
        try flush()
        report.seconds = Date().timeIntervalSince(start)
        return report
    }

    func prepare(file: CorpusReader.SourceFile, text: String, hash: String) throws -> Prepared {
        let fallback = file.url.deletingPathExtension().lastPathComponent
        let document: MarkdownDocument
        if file.url.pathExtension.lowercased().hasPrefix("t") {
            // Plain text: one section, titled by the file name.
            document = try MarkdownDocument(text: "# \(fallback)\n\n" + text, fallbackTitle: fallback)
        } else {
            document = try MarkdownDocument(text: text, fallbackTitle: fallback)
        }
        let front = document.frontMatter
        let kind = (front["kind"] as? String)
            ?? (front["triage"] != nil && front["symptoms"] != nil ? "condition" : (file.url.pathExtension.lowercased().hasPrefix("t") ? "text" : "article"))
        var chunks: [ChunkInput] = []
        var embedTexts: [String] = []
        if kind == "condition", let summary = ConditionSummary.text(frontMatter: front, title: document.title) {
            let heading = "\(document.title) > Profile"
            chunks.append(ChunkInput(ordinal: 0, headingPath: heading, text: summary, tokenCount: chunker.countTokens(summary)))
            embedTexts.append(summary)
        }
        for chunk in chunker.chunks(document) {
            chunks.append(ChunkInput(ordinal: chunks.count, headingPath: chunk.headingLabel, text: chunk.text, tokenCount: chunk.tokenCount))
            // The heading gives a short chunk its subject ("Meningitis > When to get help: …").
            embedTexts.append(chunk.headingLabel + ": " + chunk.text)
        }
        let doc = DocumentInput(path: file.path, contentHash: hash, title: document.title, kind: kind, frontMatterJSON: document.frontMatterJSON)
        return Prepared(document: doc, chunks: chunks, embedTexts: embedTexts)
    }
}
