import Foundation
import TestSupport
import GRDB
import Store
import Testing

struct IndexCLITests {
    func folder(files: Int, name: String = #function) throws -> URL {
        let dir = TestTemp.root.appendingPathComponent("cli-\(name.filter { $0.isLetter })-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let words = ["fever", "cough", "rash", "pain", "headache", "nausea", "fluids", "rest", "doctor", "swelling", "breath", "chest"]
        for i in 0..<files {
            let body = (0..<12).map { s in (0..<14).map { words[(i * 7 + s * 3 + $0) % words.count] }.joined(separator: " ") + "." }.joined(separator: " ")
            try Data("# Note \(i)\n\n## Part\n\(body)\n\n## More\n\(body)".utf8).write(to: dir.appendingPathComponent(String(format: "n%03d.md", i)))
        }
        return dir
    }

    func documentCount(_ db: String) throws -> Int {
        var config = Configuration()
        config.readonly = true
        let q = try DatabaseQueue(path: db, configuration: config)
        return try q.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM documents") ?? 0 }
    }

    @Test func killedRunLeavesConsistentDatabaseAndNextRunResumes() throws {
        let dir = try folder(files: 240)
        let db = dir.appendingPathComponent("index.sqlite").path
        let p = Process()
        p.executableURL = CLIRunner.binary
        p.arguments = ["index", dir.path, "--db", db]
        p.currentDirectoryURL = packageRoot
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        // Wait until some files are committed, then kill -9 mid-run.
        let deadline = Date().addingTimeInterval(120)
        var committed = 0
        while Date() < deadline {
            if FileManager.default.fileExists(atPath: db), let n = try? documentCount(db), n >= 20 { committed = n; break }
            usleep(20_000)
        }
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        #expect(p.terminationReason == .uncaughtSignal)
        #expect(committed >= 20)
        let store = try SQLiteStore(path: db, modelID: "all-MiniLM-L6-v2", dimension: 384)
        #expect(try store.consistencyProblems().isEmpty)
        let afterKill = try store.counts().documents
        #expect(afterKill >= committed && afterKill < 240, "the run finished before it could be killed (\(afterKill) documents)")

        let r = try CLIRunner.run(["index", dir.path, "--db", db])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("\(afterKill) unchanged"), "\(r.stdout)")
        #expect(r.stdout.contains("\(240 - afterKill) indexed"), "\(r.stdout)")
        #expect(try store.counts().documents == 240)
        #expect(try store.consistencyProblems().isEmpty)
        try? FileManager.default.removeItem(at: dir)
    }

    @Test func reindexingWithOneChangedFileTouchesOnlyIt() throws {
        let dir = try folder(files: 12)
        let db = dir.appendingPathComponent("i.sqlite").path
        #expect(try CLIRunner.run(["index", dir.path, "--db", db]).status == 0)
        try Data("# Changed\n\nNow about sunburn and aloe.".utf8).write(to: dir.appendingPathComponent("n003.md"))
        let r = try CLIRunner.run(["index", dir.path, "--db", db])
        #expect(r.stdout.contains("1 indexed") && r.stdout.contains("11 unchanged"), "\(r.stdout)")
        let s = try CLIRunner.run(["search", "sunburn aloe", "--db", db, "--mode", "bm25", "-k", "1", "--json"])
        #expect(s.status == 0)
        #expect(s.stdout.contains("n003.md"))
    }

    @Test func missingFolderAndCorruptDatabaseGiveClearErrors() throws {
        let dir = try folder(files: 1)
        let r = try CLIRunner.run(["index", dir.appendingPathComponent("nope").path, "--db", dir.appendingPathComponent("x.sqlite").path])
        #expect(r.status != 0)
        #expect(r.stderr.contains("does not exist"))
        let bad = dir.appendingPathComponent("bad.sqlite")
        try Data(repeating: 7, count: 2048).write(to: bad)
        let c = try CLIRunner.run(["index", dir.path, "--db", bad.path])
        #expect(c.status != 0)
        #expect(c.stderr.contains(bad.path) && c.stderr.contains("--rebuild"))
        let fixed = try CLIRunner.run(["index", dir.path, "--db", bad.path, "--rebuild"])
        #expect(fixed.status == 0, "\(fixed.stderr)")
    }

    @Test func symlinkedFolderIsIndexedAndAnEmptyOneRemovesNothing() throws {
        // The reported case: `health index corpus --db idx.sqlite` where corpus is a link.
        let real = try folder(files: 3)
        let cwd = TestTemp.root.appendingPathComponent("cli-cwd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: cwd, withIntermediateDirectories: true)
        let link = cwd.appendingPathComponent("corpus")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
        let r = try CLIRunner.run(["index", "corpus", "--db", "idx.sqlite"], directory: cwd)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("3 files: 3 indexed"), "\(r.stdout)")
        let db = cwd.appendingPathComponent("idx.sqlite").path
        var config = Configuration()
        config.readonly = true
        let paths = try DatabaseQueue(path: db, configuration: config).read { try String.fetchAll($0, sql: "SELECT path FROM documents ORDER BY path") }
        #expect(paths == ["corpus/n000.md", "corpus/n001.md", "corpus/n002.md"])

        // The link now points at an empty folder: a clear error, and the index keeps its documents.
        let empty = cwd.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        try FileManager.default.removeItem(at: link)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: empty)
        let e = try CLIRunner.run(["index", "corpus", "--db", "idx.sqlite"], directory: cwd)
        #expect(e.status != 0)
        #expect(e.stderr.contains(link.path) && e.stderr.contains("3 documents") && e.stderr.contains("--rebuild"), "\(e.stderr)")
        #expect(try documentCount(db) == 3)
        try? FileManager.default.removeItem(at: cwd)
    }

    @Test func searchValidatesItsInput() throws {
        let r = try CLIRunner.run(["search", "   "])
        #expect(r.status != 0 && r.stderr.contains("empty"))
        let m = try CLIRunner.run(["search", "fever", "--mode", "magic"])
        #expect(m.status != 0 && m.stderr.contains("--mode"))
    }
}
