import ArgumentParser
import Foundation
import Linear
import Store

/// Exact top-10 over 100,000 random unit vectors (fixed seed): fp32 ground truth, the int8 scan
/// with fp32 re-scoring, and batched sgemm; beside faiss IndexFlatIP on the very same vectors when
/// the peer venv is installed.
struct BenchSearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "search", abstract: "Vector search speed and recall@10, beside faiss.")

    @Option(help: "Stored vectors.") var count = 100_000
    @Option(help: "Queries.") var queries = 100
    @Option(help: "Dimensions.") var dim = 384
    @Option(help: "Threads for the scan.") var threads = 2
    @Option(help: "Random seed.") var seed: UInt64 = 42
    @Flag(help: "Skip faiss even if installed.") var noPeers = false
    @Flag(help: "End with one JSON line.") var json = false

    typealias Generator = SplitMix64

    static func randomUnitVectors(_ n: Int, _ d: Int, _ rng: inout Generator) -> Matrix {
        var m = Matrix(rows: n, cols: d)
        m.storage.withUnsafeMutableBufferPointer { p in
            for i in 0..<(n * d) {
                // Box–Muller: Gaussian coordinates give directions uniform on the sphere.
                let u1 = Float.random(in: Float.ulpOfOne..<1, using: &rng), u2 = Float.random(in: 0..<1, using: &rng)
                p[i] = (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
            }
            for r in 0..<n { VectorMath.l2NormalizeInPlace(p.baseAddress! + r * d, count: d) }
        }
        return m
    }

    func run() throws {
        try failing {
            BLAS.setThreads(1)
            var rng = Generator(seed: seed)
            let data = Self.randomUnitVectors(count, dim, &rng)
            let q = Self.randomUnitVectors(queries, dim, &rng)
            // Store in a real SQLite file and time the load, as `health search` does.
            let dbPath = FileManager.default.temporaryDirectory.appendingPathComponent("health-bench-\(UUID().uuidString).sqlite").path
            defer { try? SQLiteStore.remove(path: dbPath) }
            let store = try SQLiteStore(path: dbPath, modelID: "bench-random", dimension: dim)
            let chunks = (0..<count).map { ChunkInput(ordinal: $0, headingPath: "", text: "v\($0)", tokenCount: 1) }
            try store.replaceDocument(DocumentInput(path: "bench", contentHash: "", title: "bench", kind: "bench"), chunks: chunks, vectors: data)
            let rss0 = BenchSupport.residentBytes()
            let t0 = BenchSupport.now()
            let index = ExactVectorIndex(table: try store.loadVectorTable(), shards: threads)
            let loadSeconds = BenchSupport.now() - t0
            let rss1 = BenchSupport.residentBytes()

            let queryRows = q.rowArrays
            let truth = queryRows.map { Set(index.search($0, k: 10, precision: .fp32).map(\.row)) }
            func timeSingle(_ precision: ExactVectorIndex.Precision) -> (ms: [Double], recall: Double) {
                _ = index.search(queryRows[0], k: 10, precision: precision)
                var ms: [Double] = []
                var found = 0
                for (i, query) in queryRows.enumerated() {
                    let t = BenchSupport.now()
                    let hits = index.search(query, k: 10, precision: precision)
                    ms.append((BenchSupport.now() - t) * 1000)
                    found += hits.filter { truth[i].contains($0.row) }.count
                }
                return (ms, Double(found) / Double(10 * queryRows.count))
            }
            let fp32 = timeSingle(.fp32)
            let int8 = timeSingle(.int8)
            _ = index.search(batch: q, k: 10)
            let tb = BenchSupport.now()
            let batch = index.search(batch: q, k: 10)
            let batchMs = (BenchSupport.now() - tb) * 1000 / Double(queries)
            var batchFound = 0
            for (i, hits) in batch.enumerated() { batchFound += hits.filter { truth[i].contains($0.row) }.count }
            let batchRecall = Double(batchFound) / Double(10 * queries)

            print("\(count) × \(dim) unit vectors (seed \(seed)), \(queries) queries, top-10, \(threads) threads")
            print(String(format: "index load %.2f s from SQLite; RSS +%d MiB (index holds %d MiB: fp32 + int8 codes)", loadSeconds,
                         (rss1 - rss0) / 1_048_576, index.residentBytes / 1_048_576))
            for (name, r) in [("fp32 sgemv", fp32), ("int8 scan + fp32 rescore", int8)] {
                print(String(format: "single  %-26@ p50 %.2f ms  p95 %.2f ms  p99 %.2f ms  recall@10 %.4f", name,
                             BenchSupport.percentile(r.ms, 50), BenchSupport.percentile(r.ms, 95), BenchSupport.percentile(r.ms, 99), r.recall))
            }
            print(String(format: "batch   %-26@ %.3f ms/query  recall@10 %.4f", "fp32 sgemm (100 queries)", batchMs, batchRecall))
            var faissSingle: Double?
            if !noPeers, let python = BenchSupport.peerPython() {
                let dir = FileManager.default.temporaryDirectory
                let dataFile = dir.appendingPathComponent("health-bench-data.f32"), queryFile = dir.appendingPathComponent("health-bench-queries.f32")
                try data.storage.withUnsafeBufferPointer { Data(buffer: $0) }.write(to: dataFile)
                try q.storage.withUnsafeBufferPointer { Data(buffer: $0) }.write(to: queryFile)
                defer { try? FileManager.default.removeItem(at: dataFile); try? FileManager.default.removeItem(at: queryFile) }
                let script = BenchSupport.benchmarksDirectory().appendingPathComponent("faiss_peer.py").path
                for row in BenchSupport.runPeer(python: python, arguments: [script, dataFile.path, queryFile.path, "\(dim)", "\(threads)"]) {
                    if let single = row["single_ms"] as? Double, let batchPeer = row["batch_ms"] as? Double {
                        faissSingle = single
                        print(String(format: "faiss IndexFlatIP (same vectors): single p50 %.2f ms, batch %.3f ms/query", single, batchPeer))
                        print(String(format: "→ health int8 single is %.2f× faiss; health batch is %.2f× faiss batch",
                                     single / BenchSupport.percentile(int8.ms, 50), batchPeer / batchMs))
                    }
                }
            }
            if json {
                var fields = String(format: "\"single_ms\": %.3f, \"single_fp32_ms\": %.3f, \"batch_ms\": %.4f, \"recall@10\": %.4f, \"load_s\": %.3f, \"rss_mib\": %d",
                                    BenchSupport.percentile(int8.ms, 50), BenchSupport.percentile(fp32.ms, 50), batchMs, int8.recall, loadSeconds, rss1 / 1_048_576)
                if let f = faissSingle { fields += String(format: ", \"faiss_single_ms\": %.3f", f) }
                print("{\(fields)}")
            }
        }
    }
}
