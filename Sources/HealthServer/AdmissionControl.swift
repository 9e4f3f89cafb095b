/// Bounds the analyses in flight. Requests beyond `maxInFlight` wait in a FIFO queue; beyond
/// `maxQueue` waiting they are refused at once (the route answers 503 with Retry-After). The
/// queue depth is also the pressure signal that steps answers down from Complete to Lite to BM25.
actor AdmissionControl {
    let maxInFlight: Int
    let maxQueue: Int
    private(set) var inFlight = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(maxInFlight: Int, maxQueue: Int) {
        self.maxInFlight = max(1, maxInFlight)
        self.maxQueue = max(0, maxQueue)
    }

    var queueDepth: Int { waiting.count }

    /// Waits for a slot; false if the queue is full. Returns the queue depth seen on arrival.
    func enter() async -> (admitted: Bool, depth: Int) {
        let depth = waiting.count + max(0, inFlight - maxInFlight + 1)
        if inFlight < maxInFlight {
            inFlight += 1
            return (true, inFlight > maxInFlight / 2 ? waiting.count : 0)
        }
        guard waiting.count < maxQueue else { return (false, depth) }
        let seen = waiting.count + 1
        await withCheckedContinuation { waiting.append($0) }
        return (true, seen)
    }

    func leave() {
        if waiting.isEmpty {
            inFlight -= 1
        } else {
            // Hand the slot straight to the next waiter.
            waiting.removeFirst().resume()
        }
    }
}
