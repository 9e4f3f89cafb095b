import Foundation
import Linear
import Store
import Testing
import TestSupport
@testable import HealthAssistant

/// The Complete model's matrices mapped from the cache file beside the index: used only while the
/// file holds exactly the index's artifact; a stale, damaged or foreign file is ignored, the index
/// read instead, and the file written again. The answers cannot tell which path loaded the model.
struct SymptomModelCacheTests {
    let weights: [String: Double] = ["key": 2, "typical": 1, "occasional": 0.5]

    func indexedStore(name: String = #function) throws -> (SQLiteStore, [ConditionProfile]) {
        let folder = try makeFolder(["conditions/meningitis.md": meningitisFile, "conditions/haem.md": haemorrhoidsFile], name: name)
        let store = try SQLiteStore(path: TestTemp.root.appendingPathComponent("symptom-cache-\(UUID().uuidString).sqlite").path,
                                    modelID: "fake-bow-16", dimension: 16)
        _ = try CorpusIndexer(store: store, embedder: FakeEmbedder(), countTokens: wordCount).index(folder: folder)
        return (store, try ConditionProfile.load(from: store, symptomWeights: weights))
    }

    func load(_ store: SQLiteStore, _ profiles: [ConditionProfile]) throws -> SymptomModel? {
        try SymptomModel.load(from: store, fingerprint: try store.corpusFingerprint(), profiles: profiles)
    }

    func expectSame(_ a: SymptomModel, _ b: SymptomModel) {
        #expect(a.phrases.matrix == b.phrases.matrix)
        #expect(a.flags.matrix == b.flags.matrix)
        #expect(a.entries.map(\.phrase) == b.entries.map(\.phrase))
    }

    @Test func savingWritesTheCacheAndLoadingMapsIt() throws {
        let (store, profiles) = try indexedStore()
        let built = try SymptomModel.build(profiles: profiles, embedder: FakeEmbedder())
        try built.save(to: store, fingerprint: try store.corpusFingerprint())
        #expect(FileManager.default.fileExists(atPath: store.cachePath(forArtifact: SymptomModel.artifactName)))
        let loaded = try #require(try load(store, profiles))
        #expect(loaded.phrases.isMapped && loaded.flags.isMapped)
        expectSame(loaded, built)
        // The mapped matrices multiply exactly as the built ones do.
        let q = Matrix(rows: 1, cols: 16, storage: (0..<16).map { Float($0) / 16 })
        #expect(BLAS.matmulTransposed(q, loaded.phrases) == BLAS.matmul(q, built.phrases.matrix, transposeB: true))
    }

    /// A missing, stale, damaged or foreign cache file is ignored: the index is read (same matrices)
    /// and the file written again, so the next load maps it.
    @Test(arguments: ["missing", "flip", "truncate", "garbage", "stale", "empty"])
    func aBadCacheFileIsIgnoredAndRewritten(damage: String) throws {
        let (store, profiles) = try indexedStore()
        let built = try SymptomModel.ensure(store: store, embedder: FakeEmbedder(), profiles: profiles)
        let path = store.cachePath(forArtifact: SymptomModel.artifactName)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        switch damage {
        case "missing": try FileManager.default.removeItem(atPath: path)
        case "flip": bytes[bytes.count - 5] ^= 0x5A
        case "truncate": bytes = bytes.prefix(bytes.count - 4)
        case "garbage": bytes = Data((0..<bytes.count).map { UInt8(truncatingIfNeeded: $0 &* 131) })
        case "empty": bytes = Data()
        default:
            // A well-formed file for another artifact (another corpus): its checksum holds, its header does not match.
            let header = ArtifactCacheFile.Header(name: SymptomModel.artifactName, fingerprint: "another-corpus", meta: "{}", bytes: 8,
                                                  checksum: ContentChecksum.of(UnsafeRawBufferPointer(start: nil, count: 0)))
            try [UInt8](repeating: 0, count: 8).withUnsafeBytes { raw in
                try ArtifactCacheFile.write(path: path, header: .init(name: header.name, fingerprint: header.fingerprint, meta: header.meta, bytes: 8,
                                                                      checksum: ContentChecksum.of(raw)), payload: raw)
            }
        }
        if damage != "missing" && damage != "stale" { try bytes.write(to: URL(fileURLWithPath: path)) }
        let fallback = try #require(try load(store, profiles))
        #expect(!fallback.phrases.isMapped, "a bad cache file must not be mapped")
        expectSame(fallback, built)
        let again = try #require(try load(store, profiles))
        #expect(again.phrases.isMapped, "the slow path writes the cache file again")
        expectSame(again, built)
    }

    /// The index's own copy is checked against the checksum its meta records: damaged, it is not
    /// used (nor copied to the cache file), and `ensure` builds the model again.
    @Test func aDamagedStoredArtifactIsRebuilt() throws {
        let (store, profiles) = try indexedStore()
        let built = try SymptomModel.ensure(store: store, embedder: FakeEmbedder(), profiles: profiles)
        let a = try #require(try store.artifact(name: SymptomModel.artifactName))
        var data = a.data
        data[data.startIndex + 3] ^= 0x10
        try store.putArtifact(name: SymptomModel.artifactName, fingerprint: a.fingerprint, meta: a.meta, data: data)
        try FileManager.default.removeItem(atPath: store.cachePath(forArtifact: SymptomModel.artifactName))
        #expect(try load(store, profiles) == nil)
        #expect(!FileManager.default.fileExists(atPath: store.cachePath(forArtifact: SymptomModel.artifactName)))
        expectSame(try SymptomModel.ensure(store: store, embedder: FakeEmbedder(), profiles: profiles), built)
        #expect(try load(store, profiles)?.phrases.isMapped == true)
    }

    /// An index written before checksums were recorded loads as before and gets a cache file.
    @Test func anIndexWithoutARecordedChecksumStillLoadsAndCaches() throws {
        let (store, profiles) = try indexedStore()
        let built = try SymptomModel.ensure(store: store, embedder: FakeEmbedder(), profiles: profiles)
        let a = try #require(try store.artifact(name: SymptomModel.artifactName))
        let oldMeta = "{\"entries\":\(built.entries.count),\"flagEntries\":\(built.flagEntries.count),\"dimension\":16}"
        try store.putArtifact(name: SymptomModel.artifactName, fingerprint: a.fingerprint, meta: oldMeta, data: a.data)
        let first = try #require(try load(store, profiles))
        #expect(!first.phrases.isMapped, "the old file was written for another meta")
        expectSame(first, built)
        let second = try #require(try load(store, profiles))
        #expect(second.phrases.isMapped)
        expectSame(second, built)
    }

    @Test func removingTheIndexRemovesItsCacheFiles() throws {
        let (store, profiles) = try indexedStore()
        _ = try SymptomModel.ensure(store: store, embedder: FakeEmbedder(), profiles: profiles)
        let path = store.cachePath(forArtifact: SymptomModel.artifactName)
        #expect(FileManager.default.fileExists(atPath: path))
        try SQLiteStore.remove(path: store.path)
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: store.path))
    }
}
