import Foundation
import Testing
@testable import Embeddings

struct SafeTensorsTests {
    @Test func readsTensorsByNameAndShapeWithoutCopying() throws {
        let dir = try temporaryDirectory()
        let file = dir.appendingPathComponent("a.safetensors")
        try SafeTensorsWriter.data([("w", [2, 2], [1, 2, 3, 4]), ("b", [2], [5, 6])]).write(to: file)
        let st = try SafeTensors(path: file.path)
        let w = try st.float32("w", shape: [2, 2])
        #expect(Array(UnsafeBufferPointer(start: w, count: 4)) == [1, 2, 3, 4])
        // The pointer lies inside the mapping: nothing was copied out.
        let offset = UnsafeRawPointer(w) - st.file.base
        #expect(offset > 8 && offset < st.file.size)
        #expect(throws: EmbeddingError.self) { try st.float32("w", shape: [4]) }
        #expect(throws: EmbeddingError.missingTensor(file: file.path, name: "nope")) { try st.float32("nope", shape: [1]) }
    }

    @Test(arguments: [
        ("truncated", Data([1, 2, 3])),
        ("hugeHeader", Data([0xff, 0xff, 0, 0, 0, 0, 0, 0]) + Data(repeating: 32, count: 16)),
        ("notJSON", SafeTensorsWriter.data([], header: "{not json}   ")),
        ("outOfRange", SafeTensorsWriter.data([], header: "{\"w\":{\"dtype\":\"F32\",\"shape\":[4],\"data_offsets\":[0,16]}}")),
        ("shapeMismatch", SafeTensorsWriter.data([("w", [2], [1, 2])], header: "{\"w\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,8]}}")),
        ("badDtype", SafeTensorsWriter.data([("w", [2], [1, 2])], header: "{\"w\":{\"dtype\":\"Q9\",\"shape\":[2],\"data_offsets\":[0,8]}}")),
        ("overlap", SafeTensorsWriter.data([("a", [2], [1, 2])], header: "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},\"b\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,8]}}")),
    ])
    func rejectsDamagedFiles(name: String, bytes: Data) throws {
        let dir = try temporaryDirectory()
        let file = dir.appendingPathComponent("\(name).safetensors")
        try bytes.write(to: file)
        #expect(throws: EmbeddingError.self) { try SafeTensors(path: file.path) }
    }

    @Test func emptyFileIsAnErrorNamingTheFile() throws {
        let dir = try temporaryDirectory()
        let file = dir.appendingPathComponent("empty.safetensors")
        try Data().write(to: file)
        do { _ = try SafeTensors(path: file.path); Issue.record("expected an error") } catch {
            #expect("\(error)".contains(file.path))
        }
    }

    @Test func bertWeightsRejectMissingAndUnexpectedTensors() throws {
        let tiny = TinyBert()
        let dir = try temporaryDirectory()
        let missing = dir.appendingPathComponent("missing.safetensors")
        try tiny.write(to: missing, dropping: "encoder.layer.1.output.dense.bias")
        #expect(throws: EmbeddingError.missingTensor(file: missing.path, name: "encoder.layer.1.output.dense.bias")) {
            try BertWeights(tensors: SafeTensors(path: missing.path), config: tiny.config)
        }
        let extra = dir.appendingPathComponent("extra.safetensors")
        try tiny.write(to: extra, adding: "encoder.layer.2.attention.self.query.bias")
        #expect(throws: EmbeddingError.unexpectedTensor(file: extra.path, name: "encoder.layer.2.attention.self.query.bias")) {
            try BertWeights(tensors: SafeTensors(path: extra.path), config: tiny.config)
        }
    }
}
