import Foundation
import TestSupport
import Linear
import Store
import Testing
@testable import HealthAssistant
@testable import Embeddings

/// A deterministic stand-in for the BERT model: a bag-of-words hash projected to 16 dims.
struct FakeEmbedder: Embedder {
    let dimension = 16
    let modelID = "fake-bow-16"
    func embed(_ texts: [String]) throws -> Matrix {
        var m = Matrix(rows: texts.count, cols: dimension)
        for (i, t) in texts.enumerated() {
            for word in t.lowercased().split(whereSeparator: { !$0.isLetter }) {
                var h: UInt64 = 1469598103934665603
                for b in word.utf8 { h = (h ^ UInt64(b)) &* 1099511628211 }
                m[i, Int(h % UInt64(dimension))] += 1
            }
            m.storage.withUnsafeMutableBufferPointer { VectorMath.l2NormalizeInPlace($0.baseAddress! + i * dimension, count: dimension) }
        }
        return m
    }
}

func wordCount(_ s: String) -> Int { s.split(separator: " ").count }

func makeFolder(_ files: [String: String], name: String = #function) throws -> URL {
    let dir = TestTemp.root.appendingPathComponent("corpus-\(name.filter { $0.isLetter })-\(UUID().uuidString)")
    for (path, text) in files {
        let url = dir.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }
    return dir
}

let meningitisFile = """
---
id: meningitis
name: Meningitis
aliases: [brain fever]
triage: emergency
symptoms:
  - {name: fever, weight: key}
  - {name: stiff neck, weight: key}
red_flags: [rash that does not fade when pressed]
---

# Meningitis

## Overview
Meningitis is an infection of the linings of the brain. It can be caused by bacteria or viruses.

## When to get help
Call emergency services for a stiff neck with fever. Do not wait for a rash.
"""

struct MarkdownAndChunkerTests {
    @Test func parsesFrontMatterTitleAndHeadingPaths() throws {
        let doc = try MarkdownDocument(text: meningitisFile, fallbackTitle: "x")
        #expect(doc.title == "Meningitis")
        #expect(doc.frontMatter["triage"] as? String == "emergency")
        #expect(doc.sections.map(\.headingPath) == [["Meningitis", "Overview"], ["Meningitis", "When to get help"]])
        #expect(doc.frontMatterJSON.contains("\"red_flags\":[\"rash that does not fade when pressed\"]"))
    }

    @Test func malformedFrontMatterIsAnError() {
        #expect(throws: MarkdownError.self) { try MarkdownDocument(text: "---\nid: [unclosed\n---\nbody", fallbackTitle: "x") }
        #expect(throws: MarkdownError.unterminatedFrontMatter) { try MarkdownDocument(text: "---\nid: a\nbody", fallbackTitle: "x") }
    }

    @Test func plainMarkdownFallsBackToFirstHeadingOrFileName() throws {
        #expect(try MarkdownDocument(text: "# Colds\n\ntext", fallbackTitle: "f").title == "Colds")
        #expect(try MarkdownDocument(text: "just text", fallbackTitle: "notes").title == "notes")
    }

    @Test func chunksRespectBudgetHeadingsAndOverlap() throws {
        let sentences = (1...60).map { "Sentence number \($0) has exactly seven words." }
        let text = "# Guide\n\n## Part A\n" + sentences.joined(separator: " ") + "\n\n## Part B\nShort part."
        let doc = try MarkdownDocument(text: text, fallbackTitle: "g")
        let chunker = Chunker(targetTokens: 50, overlapTokens: 10, countTokens: wordCount)
        let chunks = chunker.chunks(doc)
        let partA = chunks.filter { $0.headingPath == ["Guide", "Part A"] }
        #expect(partA.count > 5)
        #expect(partA.allSatisfy { $0.tokenCount <= 50 })
        // Each chunk starts with the previous chunk's last sentence.
        for (a, b) in zip(partA, partA.dropFirst()) {
            let lastSentence = a.text.components(separatedBy: ". ").last!
            #expect(b.text.hasPrefix(lastSentence.hasSuffix(".") ? lastSentence : lastSentence + "."))
        }
        #expect(chunks.last?.headingPath == ["Guide", "Part B"] && chunks.last?.text == "Short part.")
        // Nothing is lost: every sentence appears in some chunk.
        for s in sentences { #expect(partA.contains { $0.text.contains(s) }) }
    }
}

struct CorpusIndexerTests {
    func indexer(_ store: SQLiteStore) -> CorpusIndexer {
        CorpusIndexer(store: store, embedder: FakeEmbedder(), countTokens: wordCount)
    }

    func store() throws -> SQLiteStore {
        try SQLiteStore(path: TestTemp.root.appendingPathComponent("idx-\(UUID().uuidString).sqlite").path,
                        modelID: "fake-bow-16", dimension: 16)
    }

    @Test func indexesIncrementallyByContentHash() throws {
        let folder = try makeFolder(["conditions/meningitis.md": meningitisFile, "notes.txt": "Drink fluids when you have a fever.",
                                     "topics/cold.md": "# Colds\n\nRest and fluids."])
        let store = try store()
        let first = try indexer(store).index(folder: folder)
        #expect(first.indexed == 3 && first.unchanged == 0)
        let docs = try store.documents()
        #expect(docs.first { $0.path.hasSuffix("meningitis.md") }?.kind == "condition")
        #expect(docs.first { $0.path.hasSuffix("notes.txt") }?.kind == "text")

        let second = try indexer(store).index(folder: folder)
        #expect(second.indexed == 0 && second.unchanged == 3)

        try Data("# Colds\n\nRest, fluids and honey.".utf8).write(to: folder.appendingPathComponent("topics/cold.md"))
        try FileManager.default.removeItem(at: folder.appendingPathComponent("notes.txt"))
        let third = try indexer(store).index(folder: folder)
        #expect(third.indexed == 1 && third.unchanged == 1 && third.removed == 1)
        #expect(try store.keywordSearch("honey", limit: 5).count == 1)
        #expect(try store.keywordSearch("drink", limit: 5).isEmpty)
        #expect(try store.consistencyProblems().isEmpty)
    }

    @Test func conditionGetsAProfileChunkFromItsFrontMatter() throws {
        let folder = try makeFolder(["meningitis.md": meningitisFile])
        let store = try store()
        _ = try indexer(store).index(folder: folder)
        let hits = try store.keywordSearch("brain fever", limit: 10)
        let chunks = try store.chunks(ids: hits.map(\.chunkID))
        #expect(chunks.values.contains { $0.headingPath == "Meningitis > Profile" && $0.text.contains("stiff neck") })
    }

    @Test func badFilesAreSkippedWithAWarningNamingThem() throws {
        let folder = try makeFolder(["good.md": "# Good\n\nFine text."])
        try Data([0x66, 0x6f, 0xff, 0xfe, 0x20]).write(to: folder.appendingPathComponent("latin1.md"))
        try Data([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]).write(to: folder.appendingPathComponent("image.txt"))
        try Data(repeating: 0x61, count: 10 * 1024 * 1024 + 1).write(to: folder.appendingPathComponent("huge.txt"))
        try Data("---\nid: [broken\n---\n# x".utf8).write(to: folder.appendingPathComponent("broken.md"))
        let warnings = WarningLog()
        let report = try indexer(try store()).index(folder: folder, warn: { warnings.add($0) })
        #expect(report.indexed == 1)
        #expect(report.skipped.count == 4)
        let all = warnings.lines.joined(separator: "\n")
        for name in ["latin1.md", "image.txt", "huge.txt", "broken.md"] { #expect(all.contains(name), "\(name)") }
        #expect(all.contains("UTF-8") && all.contains("binary") && all.contains("MB"))
    }

    @Test func symlinkedRootAndFoldersAreFollowedUnderTheGivenPath() throws {
        let fm = FileManager.default
        let real = try makeFolder(["conditions/meningitis.md": meningitisFile, "notes.txt": "Drink fluids when you have a fever."])
        let outside = try makeFolder(["cold.md": "# Colds\n\nRest and fluids."])
        // A folder linked from outside the corpus is part of it. A link back to the root (a cycle)
        // and a second route to a folder inside it ('a-alias' sorts before 'conditions') are walked
        // once, and the real route keeps the paths.
        try fm.createSymbolicLink(at: real.appendingPathComponent("shared"), withDestinationURL: outside)
        try fm.createSymbolicLink(at: real.appendingPathComponent("loop"), withDestinationURL: real)
        try fm.createSymbolicLink(at: real.appendingPathComponent("a-alias"), withDestinationURL: real.appendingPathComponent("conditions"))
        let link = TestTemp.root.appendingPathComponent("link-\(UUID().uuidString)")
        try fm.createSymbolicLink(at: link, withDestinationURL: real)
        let relative = ["conditions/meningitis.md", "notes.txt", "shared/cold.md"]

        let store = try store()
        let warnings = WarningLog()
        let report = try indexer(store).index(folder: link, warn: { warnings.add($0) })
        #expect(report.scanned == 3 && report.indexed == 3 && report.removed == 0)
        // Stored under the path given, not the link's target.
        let linkPrefix = CorpusReader.pathPrefix(of: link)
        #expect(try store.documents().map(\.path).sorted() == relative.map { linkPrefix + $0 })
        #expect(warnings.lines.contains { $0.contains("loop/") } && warnings.lines.contains { $0.contains("a-alias/") }, "\(warnings.lines)")
        let again = try indexer(store).index(folder: link)
        #expect(again.unchanged == 3 && again.indexed == 0 && again.removed == 0)

        // The real folder given by its own path stores the same paths below it, as before links were followed.
        let direct = try self.store()
        _ = try indexer(direct).index(folder: real)
        let realPrefix = CorpusReader.pathPrefix(of: real)
        #expect(try direct.documents().map(\.path).sorted() == relative.map { realPrefix + $0 })
    }

    @Test func aRunThatFindsNothingRefusesAndLosesNothing() throws {
        let fm = FileManager.default
        let folder = try makeFolder(["a.md": "# A\n\nFever and rest.", "b/b.md": "# B\n\nA dry cough.", "c.txt": "Sore throat."])
        let store = try store()
        #expect(try indexer(store).index(folder: folder).indexed == 3)
        let before = try store.documentHashes()

        // Every file gone (as an unmounted disk or a wrong link looks), or only files that are not text.
        let moved = try makeFolder([:])
        try fm.moveItem(at: folder, to: moved)
        try fm.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data([0x89, 0x50, 0x4e, 0x47]).write(to: folder.appendingPathComponent("scan.png"))
        let expected = CorpusIndexer.IndexError.nothingFound(folder: folder.path, documents: 3, database: store.path)
        #expect(throws: expected) { try indexer(store).index(folder: folder) }
        #expect(expected.description.contains(folder.path) && expected.description.contains("check the folder path")
                && expected.description.contains("--rebuild"))
        #expect(try store.documentHashes() == before)
        #expect(try store.consistencyProblems().isEmpty)

        // With the files back, deleting one of them still removes just its document.
        try fm.removeItem(at: folder)
        try fm.moveItem(at: moved, to: folder)
        let back = try indexer(store).index(folder: folder)
        #expect(back.unchanged == 3 && back.removed == 0)
        try fm.removeItem(at: folder.appendingPathComponent("b/b.md"))
        let oneGone = try indexer(store).index(folder: folder)
        #expect(oneGone.removed == 1 && oneGone.unchanged == 2)
        var expectedHashes = before
        expectedHashes.removeValue(forKey: CorpusReader.pathPrefix(of: folder) + "b/b.md")
        #expect(try store.documentHashes() == expectedHashes)
        #expect(try store.consistencyProblems().isEmpty)
    }

    @Test func aBrokenLinkIsSkippedWithAWarningNamingIt() throws {
        let folder = try makeFolder(["good.md": "# Good\n\nFine text."])
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("gone.md").path, withDestinationPath: "/nonexistent/gone.md")
        let warnings = WarningLog()
        let report = try indexer(try store()).index(folder: folder, warn: { warnings.add($0) })
        #expect(report.indexed == 1 && report.skipped.count == 1)
        #expect(warnings.lines.contains { $0.contains("gone.md") && $0.contains("does not exist") }, "\(warnings.lines)")
    }

    @Test func emptyAndMissingFolders() throws {
        let empty = try makeFolder([:])
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let report = try indexer(try store()).index(folder: empty)
        #expect(report.scanned == 0 && report.indexed == 0)
        #expect(throws: CorpusReader.ReadError.self) {
            try indexer(try store()).index(folder: empty.appendingPathComponent("nope"))
        }
    }
}

final class WarningLog: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []
    func add(_ s: String) { lock.lock(); storage.append(s); lock.unlock() }
    var lines: [String] { lock.lock(); defer { lock.unlock() }; return storage }
}
