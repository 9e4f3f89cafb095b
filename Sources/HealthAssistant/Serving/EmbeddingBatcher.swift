import Linear

/// Micro-batching of concurrent embedding requests. Questions that arrive while the model is busy
/// wait and then go through it together in one packed forward pass: every weight matrix is streamed
/// through the cores once per batch instead of once per question, which is where short inputs spend
/// their time. When the model is idle a request starts at once (no added latency); `maxWait` can
/// hold the first request of a batch a little longer to gather company under steady load.
public actor EmbeddingBatcher {
    public struct Options: Sendable, Equatable {
        /// Most texts embedded in one pass; a request is never split across passes.
        public var maxBatch: Int
        /// How long the first request of a batch may wait for others (0 = start at once).
        public var maxWait: Duration

        /// Forward passes that may run at once. With two, a batch that forms while one pass is
        /// running starts on the other core instead of waiting (each pass then keeps to one core).
        public var maxPasses: Int

        public init(maxBatch: Int = 64, maxWait: Duration = .zero, maxPasses: Int = 1) {
            self.maxBatch = max(1, maxBatch)
            self.maxWait = maxWait
            self.maxPasses = max(1, maxPasses)
        }
    }

    /// Counters for /metrics and the benchmarks.
    public struct Counters: Sendable, Equatable {
        public var requests = 0
        public var batches = 0
        public var texts = 0
        public var largestBatch = 0
    }

    private struct Pending {
        var texts: [String]
        var continuation: CheckedContinuation<Matrix, Error>
    }

    public let options: Options
    private let run: @Sendable ([String]) async throws -> Matrix
    private var queue: [Pending] = []
    private var drainers = 0
    public private(set) var counters = Counters()

    /// `run` embeds a list of texts (one row per text, in order); it is called with at most
    /// `maxBatch` texts unless a single request is larger.
    public init(options: Options = Options(), run: @escaping @Sendable ([String]) async throws -> Matrix) {
        self.options = options
        self.run = run
    }

    /// Embeds `texts` (one row each, in order), sharing a forward pass with concurrent callers.
    public func embed(_ texts: [String]) async throws -> Matrix {
        guard !texts.isEmpty else { return Matrix(rows: 0, cols: 0) }
        counters.requests += 1
        return try await withCheckedThrowingContinuation { continuation in
            queue.append(Pending(texts: texts, continuation: continuation))
            if drainers < options.maxPasses {
                drainers += 1
                Task { await drain() }
            }
        }
    }

    /// Runs batches until the queue is empty. While `run` is in flight the actor is free, so new
    /// requests keep queueing and form the next batch (or start a second drainer, up to `maxPasses`).
    private func drain() async {
        while !queue.isEmpty {
            if options.maxWait > .zero, queue.reduce(0, { $0 + $1.texts.count }) < options.maxBatch {
                try? await Task.sleep(for: options.maxWait)
            }
            var batch: [Pending] = []
            var count = 0
            while let next = queue.first, batch.isEmpty || count + next.texts.count <= options.maxBatch {
                batch.append(queue.removeFirst())
                count += next.texts.count
            }
            counters.batches += 1
            counters.texts += count
            counters.largestBatch = max(counters.largestBatch, count)
            let texts = batch.flatMap(\.texts)
            do {
                let vectors = try await run(texts)
                var row = 0
                for request in batch {
                    let n = request.texts.count
                    let slice = Array(vectors.storage[(row * vectors.cols)..<((row + n) * vectors.cols)])
                    request.continuation.resume(returning: Matrix(rows: n, cols: vectors.cols, storage: slice))
                    row += n
                }
            } catch {
                for request in batch { request.continuation.resume(throwing: error) }
            }
        }
        drainers -= 1
    }
}
