import Foundation

/// Keeps loaded models under a byte budget. Least-recently-used models are evicted first, but a
/// model that is leased (in use by an analysis) is never evicted; a load that does not fit waits
/// until leases end. Concurrent requests for the same model share one load (single flight).
/// Room is made *before* a load starts, so resident bytes never exceed the budget.
public actor ModelCache {
    public struct Counters: Sendable, Equatable, Codable {
        public var hits = 0
        public var misses = 0
        public var loads = 0
        public var evictions = 0
        public var loadSeconds = 0.0
        public var residentBytes = 0
        public var peakResidentBytes = 0
        public var budgetBytes = 0
    }

    public enum CacheError: Error, CustomStringConvertible, Equatable {
        case doesNotFit(model: String, needs: Int, budget: Int)
        public var description: String {
            switch self {
            case let .doesNotFit(model, needs, budget):
                return "model \(model) needs \(needs / 1_048_576 + 1) MiB but the memory limit is \(budget / 1_048_576) MiB. Fix: raise --memory-limit (or HEALTH_MEMORY_LIMIT) to at least \(needs / 1_048_576 + 1)M."
            }
        }
    }

    struct Entry {
        var value: any Sendable
        var bytes: Int
        var leases: Int
        var lastUsed: UInt64
    }

    public let budget: Int
    private var entries: [String: Entry] = [:]
    private var loading: [String: Task<any Sendable, Error>] = [:]
    /// Bytes promised to loads in flight, so two loads cannot both claim the same free space.
    private var reserved: [String: Int] = [:]
    private var clock: UInt64 = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []
    public private(set) var counters = Counters()

    public init(budgetBytes: Int) {
        budget = budgetBytes
        counters.budgetBytes = budgetBytes
    }

    /// Parses "512M", "2G", "300000000" (bytes).
    public static func parseBytes(_ text: String) -> Int? {
        let t = text.trimmingCharacters(in: .whitespaces).uppercased()
        let units: [(String, Int)] = [("GIB", 1 << 30), ("MIB", 1 << 20), ("KIB", 1 << 10), ("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10), ("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10), ("B", 1)]
        for (suffix, scale) in units where t.hasSuffix(suffix) {
            return Double(t.dropLast(suffix.count)).map { Int($0 * Double(scale)) }
        }
        return Int(t)
    }

    public var residentNames: [String] { entries.keys.sorted() }
    public func isResident(_ name: String) -> Bool { entries[name] != nil }

    /// Runs `body` with the model leased; it cannot be evicted until `body` returns.
    public nonisolated func using<T: Sendable, R: Sendable>(
        _ name: String, bytes: Int, load: @escaping @Sendable () async throws -> T, _ body: (T) async throws -> R
    ) async throws -> R {
        let value: T = try await acquire(name, bytes: bytes, load: load)
        do {
            let result = try await body(value)
            await release(name)
            return result
        } catch {
            await release(name)
            throw error
        }
    }

    func acquire<T: Sendable>(_ name: String, bytes: Int, load: @escaping @Sendable () async throws -> T) async throws -> T {
        while true {
            if var e = entries[name] {
                clock += 1
                e.leases += 1
                e.lastUsed = clock
                entries[name] = e
                counters.hits += 1
                guard let v = e.value as? T else { preconditionFailure("model \(name) cached with another type") }
                return v
            }
            if let task = loading[name] {
                // Someone else is loading it: wait for that load. Whoever resumes first installs the
                // result, so no waiter can spin on a finished task before the loader resumes.
                let value = try await task.value
                install(name, value)
                continue
            }
            guard bytes <= budget else { throw CacheError.doesNotFit(model: name, needs: bytes, budget: budget) }
            if !makeRoom(for: bytes) {
                await withCheckedContinuation { waiters.append($0) }
                continue
            }
            counters.misses += 1
            counters.hits -= 1  // the lease taken right after the load is this miss, not a hit
            reserved[name] = bytes
            let start = Date()
            let task = Task<any Sendable, Error> { try await load() }
            loading[name] = task
            loadStarted[name] = start
            do {
                let value = try await task.value
                install(name, value)
                continue
            } catch {
                loading[name] = nil
                reserved[name] = nil
                wakeWaiters()
                throw error
            }
        }
    }

    private var loadStarted: [String: Date] = [:]

    /// Moves a finished load from `loading` into `entries` (once; later calls do nothing).
    private func install(_ name: String, _ value: any Sendable) {
        guard loading[name] != nil, entries[name] == nil else { return }
        let bytes = reserved[name] ?? 0
        loading[name] = nil
        reserved[name] = nil
        clock += 1
        entries[name] = Entry(value: value, bytes: bytes, leases: 0, lastUsed: clock)
        counters.loads += 1
        counters.loadSeconds += Date().timeIntervalSince(loadStarted.removeValue(forKey: name) ?? Date())
        updateResident()
    }

    func release(_ name: String) {
        guard var e = entries[name] else { return }
        e.leases = max(0, e.leases - 1)
        entries[name] = e
        if e.leases == 0 { wakeWaiters() }
    }

    /// Evicts unleased models, least recently used first, until `bytes` more fit. False if the
    /// remaining models are all leased and there is still not enough room.
    private func makeRoom(for bytes: Int) -> Bool {
        func used() -> Int { entries.values.reduce(0) { $0 + $1.bytes } + reserved.values.reduce(0, +) }
        while used() + bytes > budget {
            guard let victim = entries.filter({ $0.value.leases == 0 }).min(by: { $0.value.lastUsed < $1.value.lastUsed }) else { return false }
            entries[victim.key] = nil
            counters.evictions += 1
        }
        updateResident()
        return true
    }

    private func updateResident() {
        counters.residentBytes = entries.values.reduce(0) { $0 + $1.bytes }
        counters.peakResidentBytes = max(counters.peakResidentBytes, counters.residentBytes + reserved.values.reduce(0, +))
    }

    private func wakeWaiters() {
        let w = waiters
        waiters = []
        for c in w { c.resume() }
    }

    /// Drops every unleased model (memory pressure).
    public func releaseAll() {
        for (name, e) in entries where e.leases == 0 {
            entries[name] = nil
            counters.evictions += 1
        }
        updateResident()
        wakeWaiters()
    }

    /// Current leases per model (for tests and metrics).
    public func leases() -> [String: Int] { entries.mapValues(\.leases) }
}
