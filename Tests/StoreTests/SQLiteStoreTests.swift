import Foundation
import TestSupport
import GRDB
import Linear
import Testing
@testable import Store

func tempDB(_ name: String = #function) -> String {
    TestTemp.root.appendingPathComponent("store-\(name.filter { $0.isLetter })-\(UUID().uuidString).sqlite").path
}

/// A unit vector pointing mostly along axis `axis`, so tests know which vectors are nearest.
func axisVector(_ axis: Int, dim: Int = 8, noise: Float = 0.1) -> [Float] {
    var v = (0..<dim).map { Float(($0 * 7 + axis * 3) % 5) * noise / 5 }
    v[axis % dim] += 1
    let n = v.reduce(0) { $0 + $1 * $1 }.squareRoot()
    return v.map { $0 / n }
}

func addDoc(_ store: SQLiteStore, path: String, kind: String = "article", texts: [String], axes: [Int], front: String = "{}") throws {
    let chunks = texts.enumerated().map { ChunkInput(ordinal: $0, headingPath: "\(path) > part \($0)", text: $1, tokenCount: 5) }
    let vectors = Matrix(axes.map { axisVector($0, dim: store.dimension) })
    try store.replaceDocument(DocumentInput(path: path, contentHash: "h-\(path)-\(texts.joined().hashValue)", title: path, kind: kind, frontMatterJSON: front),
                              chunks: chunks, vectors: vectors)
}

struct SQLiteStoreTests {
    @Test func createsWALDatabaseAndRecordsTheModel() throws {
        let path = tempDB()
        let store = try SQLiteStore(path: path, modelID: "m1", dimension: 8)
        #expect(try store.journalMode() == "wal")
        try addDoc(store, path: "a.md", texts: ["fever and chills"], axes: [0])
        // Reopening with the same model works and keeps the data.
        let again = try SQLiteStore(path: path, modelID: "m1", dimension: 8)
        #expect(try again.counts() == .init(documents: 1, chunks: 1, vectors: 1))
    }

    @Test func anotherModelIsAClearErrorNamingRebuild() throws {
        let path = tempDB()
        _ = try SQLiteStore(path: path, modelID: "m1", dimension: 8)
        #expect { try SQLiteStore(path: path, modelID: "m2", dimension: 8) } throws: { error in
            guard case StoreError.modelMismatch = error else { return false }
            return "\(error)".contains("health index --rebuild") && "\(error)".contains(path)
        }
        #expect(throws: StoreError.self) { try SQLiteStore(path: path, modelID: "m1", dimension: 16) }
    }

    @Test func corruptFileIsReportedNotOverwritten() throws {
        let path = tempDB()
        let garbage = Data((0..<4096).map { UInt8($0 % 251) })
        try garbage.write(to: URL(fileURLWithPath: path))
        #expect { try SQLiteStore(path: path, modelID: "m", dimension: 8) } throws: { error in
            guard case StoreError.corrupt = error else { return false }
            return "\(error)".contains("--rebuild")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
    }

    @Test func damagedSQLiteFileIsReportedAsCorrupt() throws {
        let path = tempDB()
        do {
            let store = try SQLiteStore(path: path, modelID: "m", dimension: 8)
            for i in 0..<50 { try addDoc(store, path: "d\(i).md", texts: [String(repeating: "text \(i) ", count: 50)], axes: [i]) }
        }
        // Checkpointed into the main file by closing; now scribble over its middle pages.
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try handle.seek(toOffset: 4096 * 3)
        try handle.write(contentsOf: Data(repeating: 0xAB, count: 4096 * 4))
        try handle.close()
        try? FileManager.default.removeItem(atPath: path + "-wal")
        #expect(throws: StoreError.self) {
            let store = try SQLiteStore(path: path, modelID: "m", dimension: 8)
            _ = try store.loadVectorTable()
            let problems = try store.consistencyProblems()
            if !problems.isEmpty { throw StoreError.corrupt(path: path, detail: problems.joined()) }
        }
    }

    @Test func foreignDatabaseIsLeftAlone() throws {
        let path = tempDB()
        let queue = try DatabaseQueue(path: path)
        try queue.write { try $0.execute(sql: "CREATE TABLE invoices(id INTEGER PRIMARY KEY, total REAL)") }
        #expect { try SQLiteStore(path: path, modelID: "m", dimension: 8) } throws: { error in
            guard case StoreError.foreign = error else { return false }
            return "\(error)".contains("invoices")
        }
        let tables = try queue.read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type='table'") }
        #expect(tables == ["invoices"])
    }

    @Test func replacingADocumentLeavesNoOrphans() throws {
        let store = try SQLiteStore(path: tempDB(), modelID: "m", dimension: 8)
        try addDoc(store, path: "a.md", texts: ["one", "two", "three"], axes: [0, 1, 2])
        try addDoc(store, path: "a.md", texts: ["only"], axes: [3])
        #expect(try store.counts() == .init(documents: 1, chunks: 1, vectors: 1))
        #expect(try store.keywordSearch("two", limit: 5).isEmpty)
        #expect(try store.keywordSearch("only", limit: 5).count == 1)
        try store.removeDocuments(paths: ["a.md"])
        #expect(try store.counts() == .init(documents: 0, chunks: 0, vectors: 0))
        #expect(try store.consistencyProblems().isEmpty)
    }

    @Test func keywordSearchUsesPorterStemmingAndRanksByBM25() throws {
        let store = try SQLiteStore(path: tempDB(), modelID: "m", dimension: 8)
        try addDoc(store, path: "a.md", texts: ["vomiting and vomiting again, vomits"], axes: [0])
        try addDoc(store, path: "b.md", texts: ["a note on headaches that mentions vomiting once among many other words here"], axes: [1])
        let hits = try store.keywordSearch("vomited", limit: 10)
        #expect(hits.count == 2)
        let chunks = try store.chunks(ids: hits.map(\.chunkID))
        #expect(chunks[hits[0].chunkID]?.documentPath == "a.md")
        #expect(hits[0].score >= hits[1].score)
        #expect(try store.keywordSearch("   ", limit: 10).isEmpty)
        // FTS5 syntax in user text is neutralised, never an SQL error.
        #expect(try store.keywordSearch("((( \"\" )))", limit: 10).isEmpty)
        #expect(try store.keywordSearch("\"vomits AND OR NEAR(", limit: 10).count == 2)
        // The unfiltered search (FTS table alone) and a filtered one that keeps everything agree.
        let everything = try store.keywordSearch("vomited", limit: 10, filter: SearchFilter(pathPrefix: ""))
        #expect(everything.map(\.chunkID) == hits.map(\.chunkID))
        #expect(zip(everything, hits).allSatisfy { abs($0.score - $1.score) < 1e-9 })
    }

    @Test func keywordFiltersApplyBeforeTheLimit() throws {
        let store = try SQLiteStore(path: tempDB(), modelID: "m", dimension: 8)
        for i in 0..<30 { try addDoc(store, path: "topics/t\(i).md", kind: "topic", texts: ["rash rash rash rash"], axes: [i]) }
        try addDoc(store, path: "conditions/c.md", kind: "condition", texts: ["a long text where rash appears only one time among other words"], axes: [0],
                   front: "{\"triage\": \"urgent\", \"age\": [\"child\", \"adult\"]}")
        #expect(try store.keywordSearch("rash", limit: 1, filter: SearchFilter(kind: "condition")).count == 1)
        #expect(try store.keywordSearch("rash", limit: 1, filter: SearchFilter(pathPrefix: "conditions/")).count == 1)
        #expect(try store.keywordSearch("rash", limit: 1, filter: SearchFilter(field: ("triage", "urgent"))).count == 1)
        #expect(try store.keywordSearch("rash", limit: 1, filter: SearchFilter(field: ("age", "child"))).count == 1)
        #expect(try store.keywordSearch("rash", limit: 5, filter: SearchFilter(field: ("triage", "emergency"))).isEmpty)
    }

    @Test func diskFullMidRunRollsBackTheFileAndKeepsTheRest() throws {
        let path = tempDB()
        let store = try SQLiteStore(path: path, modelID: "m", dimension: 8, maxPageCount: 60)
        try addDoc(store, path: "small.md", texts: ["small"], axes: [0])
        let big = (0..<400).map { "chunk \($0) " + String(repeating: "words ", count: 40) }
        #expect { try addDoc(store, path: "big.md", texts: big, axes: Array(0..<400)) } throws: { error in
            guard case StoreError.diskFull = error else { return false }
            return "\(error)".contains("resume")
        }
        #expect(try store.counts() == .init(documents: 1, chunks: 1, vectors: 1))
        #expect(try store.consistencyProblems().isEmpty)
    }
}
