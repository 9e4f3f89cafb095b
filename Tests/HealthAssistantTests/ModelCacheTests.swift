import Foundation
import Testing
@testable import HealthAssistant

/// Records what the cache does from the outside: loads per model, and whether a model was ever
/// evicted while a task still held it.
final class CacheProbe: @unchecked Sendable {
    private let lock = NSLock()
    private var loads: [String: Int] = [:]
    private var inUse: [String: Int] = [:]
    var violations = 0
    func loaded(_ name: String) { lock.lock(); loads[name, default: 0] += 1; lock.unlock() }
    func enter(_ name: String) { lock.lock(); inUse[name, default: 0] += 1; lock.unlock() }
    func exit(_ name: String) { lock.lock(); inUse[name, default: 0] -= 1; lock.unlock() }
    func loadCount(_ name: String) -> Int { lock.lock(); defer { lock.unlock() }; return loads[name] ?? 0 }
    var totalLoads: Int { lock.lock(); defer { lock.unlock() }; return loads.values.reduce(0, +) }
}

struct ModelCacheTests {
    @Test func concurrentCallersShareOneLoad() async throws {
        let cache = ModelCache(budgetBytes: 1000)
        let probe = CacheProbe()
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    try await cache.using("m", bytes: 100, load: { probe.loaded("m"); try await Task.sleep(nanoseconds: 20_000_000); return 7 }) { $0 }
                }
            }
            for try await v in group { #expect(v == 7) }
        }
        #expect(probe.loadCount("m") == 1)
        let c = await cache.counters
        #expect(c.loads == 1 && c.misses == 1 && c.hits == 49)
    }

    @Test func budgetIsNeverExceededAndLeasedModelsAreNeverEvicted() async throws {
        // Room for two of the five 40-byte models at a time: constant eviction under 200 tasks.
        let cache = ModelCache(budgetBytes: 100)
        let probe = CacheProbe()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<200 {
                let name = "m\(i % 5)"
                group.addTask {
                    try await cache.using(name, bytes: 40, load: { probe.loaded(name); return name }) { value in
                        #expect(value == name)
                        // While leased, the model must stay resident.
                        #expect(await cache.isResident(name))
                        try await Task.sleep(nanoseconds: UInt64.random(in: 100_000...2_000_000))
                        #expect(await cache.isResident(name))
                    }
                }
            }
            try await group.waitForAll()
        }
        let c = await cache.counters
        #expect(c.peakResidentBytes <= 100)
        #expect(c.residentBytes <= 100)
        #expect(c.evictions > 0)
        // Each load is one residency: loads = evictions + models still resident.
        #expect(c.loads == c.evictions + (await cache.residentNames.count))
        #expect(probe.totalLoads == c.loads)
        #expect(await cache.leases().values.allSatisfy { $0 == 0 })
    }

    @Test func leastRecentlyUsedIsEvictedFirst() async throws {
        let cache = ModelCache(budgetBytes: 100)
        for name in ["a", "b"] { _ = try await cache.using(name, bytes: 50, load: { name }) { $0 } }
        _ = try await cache.using("a", bytes: 50, load: { "a" }) { $0 }   // a is now more recent than b
        _ = try await cache.using("c", bytes: 50, load: { "c" }) { $0 }
        #expect(await cache.residentNames == ["a", "c"])
    }

    @Test func modelLargerThanTheBudgetIsAClearError() async {
        let cache = ModelCache(budgetBytes: 10 << 20)
        await #expect { try await cache.using("big", bytes: 90 << 20, load: { 1 }) { $0 } } throws: { error in
            guard case ModelCache.CacheError.doesNotFit = error else { return false }
            return "\(error)".contains("--memory-limit") && "\(error)".contains("91M")
        }
    }

    @Test func failedLoadCanBeRetried() async throws {
        let cache = ModelCache(budgetBytes: 100)
        struct Boom: Error {}
        await #expect(throws: Boom.self) { try await cache.using("x", bytes: 10, load: { () throws -> Int in throw Boom() }) { $0 } }
        #expect(try await cache.using("x", bytes: 10, load: { 5 }) { $0 } == 5)
    }

    @Test func parsesMemoryLimits() {
        #expect(ModelCache.parseBytes("512M") == 512 << 20)
        #expect(ModelCache.parseBytes("2G") == 2 << 30)
        #expect(ModelCache.parseBytes("1000") == 1000)
        #expect(ModelCache.parseBytes("lots") == nil)
    }

    @Test func selectorExplainsItsChoice() {
        let p = TestKnowledge.parser, s = ModelSelector()
        let simple = s.choose(p.parse("runny nose"))
        #expect(simple.choice == .lite && simple.reason.contains("Lite"))
        let complex = s.choose(p.parse("78 year old with cough, fever, confusion and COPD"))
        #expect(complex.choice == .complete && complex.reason.contains("COPD"))
        #expect(s.choose(p.parse("78 year old with cough, fever, confusion and COPD"), completeFits: false).choice == .lite)
        #expect(s.choose(p.parse("runny nose"), requested: .complete).choice == .complete)
    }
}
