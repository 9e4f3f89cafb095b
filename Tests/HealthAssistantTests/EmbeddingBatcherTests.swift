import Foundation
import Linear
import Testing
@testable import HealthAssistant

/// Micro-batching with a fake model: rows come back to the right caller, concurrent callers share
/// passes, batches respect the size cap, and a failure reaches every caller of that pass.
struct EmbeddingBatcherTests {
    /// A "model" that encodes each text as [length, first scalar] and records the batch sizes.
    final class FakeModel: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var batches: [Int] = []
        let delay: Duration
        init(delay: Duration = .milliseconds(20)) { self.delay = delay }
        func run(_ texts: [String]) async throws -> Matrix {
            lock.withLock { batches.append(texts.count) }
            try await Task.sleep(for: delay)
            if texts.contains("fail") { throw CancellationError() }
            return Matrix(rows: texts.count, cols: 2, storage: texts.flatMap { [Float($0.count), Float($0.unicodeScalars.first!.value)] })
        }
    }

    @Test func rowsReturnToTheirCallersAndConcurrentCallsShareAPass() async throws {
        let model = FakeModel()
        let batcher = EmbeddingBatcher(options: .init(maxBatch: 64)) { try await model.run($0) }
        let texts = (0..<40).map { i in (0...(i % 7)).map { _ in String(UnicodeScalar(UInt8(65 + i % 26))) }.joined() }
        let results = try await withThrowingTaskGroup(of: (Int, Matrix).self) { group in
            for (i, t) in texts.enumerated() { group.addTask { (i, try await batcher.embed([t, t + "!"])) } }
            var out: [Int: Matrix] = [:]
            for try await (i, m) in group { out[i] = m }
            return out
        }
        for (i, t) in texts.enumerated() {
            let m = try #require(results[i])
            #expect(m.rows == 2)
            #expect(m[0, 0] == Float(t.count) && m[1, 0] == Float(t.count + 1))
            #expect(m[0, 1] == Float(t.unicodeScalars.first!.value))
        }
        let counters = await batcher.counters
        #expect(counters.requests == 40)
        #expect(counters.texts == 80)
        #expect(counters.batches < 40)
        #expect(model.batches.allSatisfy { $0 <= 64 })
        #expect(model.batches.reduce(0, +) == 80)
    }

    @Test func aSingleCallerIsNotDelayed() async throws {
        let model = FakeModel(delay: .zero)
        let batcher = EmbeddingBatcher { try await model.run($0) }
        let m = try await batcher.embed(["hello"])
        #expect(m.rows == 1 && m[0, 0] == 5)
        #expect(model.batches == [1])
    }

    @Test func aFailedPassFailsItsCallersOnly() async throws {
        let model = FakeModel()
        let batcher = EmbeddingBatcher(options: .init(maxBatch: 1)) { try await model.run($0) }
        let bad = Task { try await batcher.embed(["fail"]) }
        let good = Task { try await batcher.embed(["fine"]) }
        await #expect(throws: CancellationError.self) { _ = try await bad.value }
        let ok = try await good.value
        #expect(ok[0, 0] == 4)
    }
}
