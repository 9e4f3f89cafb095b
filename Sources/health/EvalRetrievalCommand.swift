import ArgumentParser
import Embeddings
import Foundation
import Linear
import Store

/// NDCG@10 and Recall@100 on a BEIR folder (corpus.jsonl, queries.jsonl, qrels/test.tsv), indexed
/// into a temporary database, one vector per document (text = title + " " + text), as
/// sentence-transformers' reference figures were computed.
struct EvalRetrievalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "retrieval", abstract: "NDCG@10 and Recall@100 on a BEIR-format folder.")

    @OptionGroup var model: ModelOptions
    @Option(help: "dense | bm25 | hybrid") var mode: String = "hybrid"
    @Flag(help: "End with one JSON line {\"ndcg@10\": x, \"recall@100\": y}.") var json = false
    @Argument(help: "BEIR folder, e.g. ../shared/eval/nfcorpus") var folder: String

    func validate() throws {
        guard HybridRetriever.Mode(rawValue: mode) != nil else { throw ValidationError("--mode must be dense, bm25 or hybrid") }
    }

    static func jsonLines(_ url: URL) throws -> [[String: Any]] {
        guard let data = FileManager.default.contents(atPath: url.path) else { throw CLIError(message: "cannot read \(url.path)") }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    func run() throws {
        try failing {
            let root = URL(fileURLWithPath: folder)
            let docs = try Self.jsonLines(root.appendingPathComponent("corpus.jsonl"))
            let queries = try Self.jsonLines(root.appendingPathComponent("queries.jsonl"))
            guard let qrelText = try? String(contentsOf: root.appendingPathComponent("qrels/test.tsv"), encoding: .utf8) else {
                throw CLIError(message: "cannot read \(root.path)/qrels/test.tsv")
            }
            var qrels: [String: [String: Int]] = [:]
            for line in qrelText.split(separator: "\n").dropFirst() {
                let f = line.split(separator: "\t")
                guard f.count >= 3, let rel = Int(f[2]) else { continue }
                qrels[String(f[0]), default: [:]][String(f[1])] = rel
            }
            let embedder = try model.loadEmbedder()
            let dbPath = FileManager.default.temporaryDirectory.appendingPathComponent("health-eval-\(UUID().uuidString).sqlite").path
            defer { try? SQLiteStore.remove(path: dbPath) }
            let store = try SQLiteStore(path: dbPath, modelID: embedder.modelID, dimension: embedder.dimension)
            let t0 = Date()
            let ids = docs.map { $0["_id"] as? String ?? "" }
            let texts = docs.map { ((($0["title"] as? String) ?? "") + " " + (($0["text"] as? String) ?? "")).trimmingCharacters(in: .whitespaces) }
            let block = 256
            var start = 0
            while start < docs.count {
                let end = min(docs.count, start + block)
                let vectors = try embedder.embed(Array(texts[start..<end]))
                for i in start..<end {
                    let v = Matrix(rows: 1, cols: vectors.cols, storage: Array(vectors.row(i - start)))
                    try store.replaceDocument(DocumentInput(path: ids[i], contentHash: "", title: "", kind: "beir"),
                                              chunks: [ChunkInput(ordinal: 0, headingPath: "", text: texts[i], tokenCount: 0)], vectors: v)
                }
                start = end
                if isatty(2) == 1 { FileHandle.standardError.write(Data("\rindexed \(end)/\(docs.count) documents".utf8)) }
            }
            if isatty(2) == 1 { FileHandle.standardError.write(Data("\n".utf8)) }
            print(String(format: "indexed %d documents in %.1f s", docs.count, Date().timeIntervalSince(t0)))
            let retriever = HybridRetriever(store: store, index: ExactVectorIndex(table: try store.loadVectorTable()))
            let chunkToDoc = try Dictionary(uniqueKeysWithValues: store.chunks(ids: retriever.index.table.chunkIDs).map { ($0.key, $0.value.documentPath) })
            let evaluated = queries.filter { qrels[$0["_id"] as? String ?? ""] != nil }
            let qTexts = evaluated.map { $0["text"] as? String ?? "" }
            let qVectors = try embedder.embed(qTexts)
            var ndcgSum = 0.0, recallSum = 0.0
            for (i, q) in evaluated.enumerated() {
                let rel = qrels[q["_id"] as! String]!
                let results = try retriever.search(text: qTexts[i], vector: Array(qVectors.row(i)), k: 100, mode: HybridRetriever.Mode(rawValue: mode)!)
                let ranked = results.compactMap { chunkToDoc[$0.chunkID] }
                ndcgSum += RetrievalMetrics.ndcg(ranked: ranked, relevance: rel, at: 10)
                recallSum += RetrievalMetrics.recall(ranked: ranked, relevance: rel, at: 100)
            }
            let n = Double(max(1, evaluated.count))
            print(String(format: "%@ on %@: %d queries  NDCG@10 %.4f  Recall@100 %.4f", mode, root.lastPathComponent, evaluated.count, ndcgSum / n, recallSum / n))
            if json { print(String(format: "{\"ndcg@10\": %.4f, \"recall@100\": %.4f}", ndcgSum / n, recallSum / n)) }
        }
    }
}
