import Foundation
import TestSupport
@testable import Embeddings
import Linear

/// Writes `.safetensors` files for tests, so loaders and the encoder are exercised on tiny,
/// fully known tensors without the real model.
enum SafeTensorsWriter {
    static func data(_ tensors: [(name: String, shape: [Int], values: [Float])], header override: String? = nil) -> Data {
        var offset = 0
        var entries: [String] = []
        var payload = Data()
        for t in tensors {
            let bytes = t.values.count * 4
            entries.append("\"\(t.name)\":{\"dtype\":\"F32\",\"shape\":\(t.shape),\"data_offsets\":[\(offset),\(offset + bytes)]}")
            t.values.withUnsafeBufferPointer { payload.append(Data(buffer: $0)) }
            offset += bytes
        }
        var header = override ?? "{" + (["\"__metadata__\":{\"format\":\"pt\"}"] + entries).joined(separator: ",") + "}"
        while (8 + header.utf8.count) % 4 != 0 { header += " " }
        var out = Data()
        var length = UInt64(header.utf8.count).littleEndian
        out.append(Data(bytes: &length, count: 8))
        out.append(Data(header.utf8))
        out.append(payload)
        return out
    }
}

func temporaryDirectory(_ name: String = #function) throws -> URL {
    let url = TestTemp.root
        .appendingPathComponent("health-tests-\(name.filter { $0.isLetter })-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A deterministic generator so tiny-model tests are reproducible.
typealias SeededGenerator = SplitMix64


/// The real model, which CI fetches with `health models fetch` before the tests run.
func loadRealEmbedder(batchSize: Int = 32) throws -> SentenceEmbedder {
    try ModelLocator(modelsDirectory: packageRoot.appendingPathComponent("models")).loadEmbedder(batchSize: batchSize)
}
