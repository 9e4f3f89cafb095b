import Foundation
import Linear
import Testing
@testable import Embeddings

/// The packed BLAS encoder against the padded, masked textbook forward pass of `TinyBert`.
struct EncoderLayerTests {
    let tiny = TinyBert()

    func close(_ a: [Float], _ b: [Float], _ tol: Float = 2e-5) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= tol }
    }

    @Test func embeddingLayerIsSumOfThreeTablesThenLayerNorm() throws {
        let dir = try temporaryDirectory()
        let encoder = try tiny.encoder(directory: dir)
        let ids: [Int32] = [3, 7]
        var x = [Float](repeating: 0, count: 2 * 8)
        x.withUnsafeMutableBufferPointer { encoder.embed([ids], into: $0.baseAddress!) }
        let h = 8
        let raw: [[Float]] = ids.enumerated().map { (p, id) in
            (0..<h).map { tiny.t("embeddings.word_embeddings.weight")[Int(id) * h + $0] + tiny.t("embeddings.position_embeddings.weight")[p * h + $0]
                + tiny.t("embeddings.token_type_embeddings.weight")[$0] }
        }
        let want = TinyBert.layerNorm(raw, tiny.t("embeddings.LayerNorm.weight"), tiny.t("embeddings.LayerNorm.bias"), eps: 1e-12)
        #expect(close(x, want.flatMap { $0 }))
    }

    @Test func fullEncoderMatchesPaddedMaskedReference() throws {
        let dir = try temporaryDirectory()
        let encoder = try tiny.encoder(directory: dir)
        let sequences: [[Int32]] = [[1, 5, 9, 2], [1, 4, 2], [1, 2], [1, 3, 3, 3, 3, 3, 19, 2]]
        let (states, offsets) = encoder.hiddenStates(sequences)
        let reference = tiny.referenceHiddenStates(sequences)
        for (i, seq) in sequences.enumerated() {
            let got = Array(states.storage[(offsets[i] * 8)..<((offsets[i] + seq.count) * 8)])
            #expect(close(got, reference[i].flatMap { $0 }), "sequence \(i)")
        }
    }

    @Test func attentionIgnoresOtherSequencesInThePack() throws {
        let dir = try temporaryDirectory()
        let encoder = try tiny.encoder(directory: dir)
        let alone = encoder.hiddenStates([[1, 6, 2]]).states.storage
        let packed = encoder.hiddenStates([[1, 3, 3, 3, 3, 2], [1, 6, 2]])
        let second = Array(packed.states.storage[(packed.offsets[1] * 8)...])
        #expect(close(alone, second, 1e-6))
    }

    @Test func meanPoolingAveragesRealTokensThenNormalises() {
        let states = Matrix([[1, 0], [3, 0], [0, 2], [9, 9]])
        let pooled = MeanPooling.pool(states: states, offsets: [0, 2], lengths: [2, 1])
        #expect(pooled.rowArrays == [[1, 0], [0, 1]])
        let raw = MeanPooling.pool(states: states, offsets: [0], lengths: [3], normalize: false)
        #expect(close(Array(raw.row(0)), [4.0 / 3, 2.0 / 3], 1e-6))
    }

    @Test func emptyBatchGivesEmptyResult() throws {
        let dir = try temporaryDirectory()
        let encoder = try tiny.encoder(directory: dir)
        #expect(encoder.hiddenStates([]).states.rows == 0)
    }
}
