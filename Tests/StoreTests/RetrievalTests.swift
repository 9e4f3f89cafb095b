import Foundation
import Linear
import Testing
@testable import Store

struct RetrievalTests {
    func randomUnit(_ n: Int, _ d: Int, seed: UInt64) -> Matrix {
        var state = seed
        func next() -> Float {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Float(Int64(bitPattern: state >> 11) % 2_000_001) / 1_000_000 - 1
        }
        var m = Matrix(rows: n, cols: d, storage: (0..<(n * d)).map { _ in next() })
        m.storage.withUnsafeMutableBufferPointer { p in for r in 0..<n { VectorMath.l2NormalizeInPlace(p.baseAddress! + r * d, count: d) } }
        return m
    }

    func table(_ m: Matrix, kinds: (Int) -> String = { _ in "a" }) -> VectorTable {
        let docs = (0..<m.rows).map { VectorTable.DocumentInfo(kind: kinds($0), path: "p\($0)") }
        return VectorTable(chunkIDs: (0..<m.rows).map { Int64($0 + 1) }, vectors: m, rowDocuments: (0..<m.rows).map { Int32($0) }, documents: docs)
    }

    @Test func int8ScanReturnsTheExactFp32TopK() {
        let data = randomUnit(20_000, 64, seed: 1)
        let index = ExactVectorIndex(table: table(data))
        let queries = randomUnit(20, 64, seed: 2)
        for q in queries.rowArrays {
            let exact = index.search(q, k: 10, precision: .fp32)
            let fast = index.search(q, k: 10, precision: .int8)
            #expect(exact.map(\.row) == fast.map(\.row))
            #expect(zip(exact, fast).allSatisfy { abs($0.score - $1.score) < 1e-5 })
        }
    }

    @Test func batchSearchEqualsSingleSearch() {
        let index = ExactVectorIndex(table: table(randomUnit(3000, 32, seed: 3)))
        let queries = randomUnit(7, 32, seed: 4)
        let batch = index.search(batch: queries, k: 5)
        for (i, q) in queries.rowArrays.enumerated() {
            #expect(batch[i].map(\.row) == index.search(q, k: 5, precision: .fp32).map(\.row))
        }
    }

    @Test func filterAppliesBeforeTopK() {
        // Only every 50th row is of kind "b": a filtered search must still return k of them.
        let index = ExactVectorIndex(table: table(randomUnit(5000, 16, seed: 5), kinds: { $0 % 50 == 0 ? "b" : "a" }))
        let q = randomUnit(1, 16, seed: 6).rowArrays[0]
        for precision in ExactVectorIndex.Precision.allCases {
            let hits = index.search(q, k: 10, filter: SearchFilter(kind: "b"), precision: precision)
            #expect(hits.count == 10)
            #expect(hits.allSatisfy { $0.row % 50 == 0 })
        }
        #expect(index.search(batch: Matrix([q]), k: 10, filter: SearchFilter(kind: "b"))[0].count == 10)
        #expect(index.search(q, k: 10, filter: SearchFilter(kind: "zzz")).isEmpty)
    }

    @Test func hybridFusesByReciprocalRank() throws {
        let store = try SQLiteStore(path: tempDB(), modelID: "m", dimension: 8)
        try addDoc(store, path: "dense.md", texts: ["unrelated words entirely"], axes: [1])
        try addDoc(store, path: "both.md", texts: ["chest pain"], axes: [0])
        try addDoc(store, path: "keyword.md", texts: ["chest pain chest pain"], axes: [5])
        let retriever = HybridRetriever(store: store, index: ExactVectorIndex(table: try store.loadVectorTable()))
        let query = axisVector(0)
        let dense = try retriever.search(text: "chest pain", vector: query, k: 3, mode: .dense)
        let bm25 = try retriever.search(text: "chest pain", vector: query, k: 3, mode: .bm25)
        let hybrid = try retriever.search(text: "chest pain", vector: query, k: 3, mode: .hybrid)
        let paths = try store.chunks(ids: hybrid.map(\.chunkID))
        #expect(dense.count == 3 && bm25.count == 2)
        // "both.md" is near the top of both lists, so fusion puts it first.
        #expect(paths[hybrid[0].chunkID]?.documentPath == "both.md")
        #expect(hybrid[0].denseRank != nil && hybrid[0].keywordRank != nil)
        let expected = 1 / (60 + Double(hybrid[0].denseRank!)) + 1 / (60 + Double(hybrid[0].keywordRank!))
        #expect(abs(hybrid[0].score - expected) < 1e-12)
    }

    @Test func ndcgAndRecallMatchHandComputedValues() {
        let rel = ["a": 2, "b": 1, "c": 0]
        #expect(RetrievalMetrics.ndcg(ranked: ["a", "b"], relevance: rel, at: 10) == 1)
        let swapped = RetrievalMetrics.ndcg(ranked: ["b", "a"], relevance: rel, at: 10)
        let ideal = 2.0 + 1 / log2(3.0)
        #expect(abs(swapped - (1 + 2 / log2(3.0)) / ideal) < 1e-12)
        #expect(RetrievalMetrics.recall(ranked: ["x", "b"], relevance: rel, at: 100) == 0.5)
    }
}
