import Foundation

/// Values computed once per key and shared by concurrent questions, behind a lock. The value is
/// computed outside the lock (two racing callers may both compute it; both get a correct value).
final class LockedMemo<Value: Sendable>: @unchecked Sendable {
    // All access to `values` goes through `lock`.
    private let lock = NSLock()
    private var values: [String: Value] = [:]

    func value(for key: String, _ compute: () -> Value) -> Value {
        if let hit = lock.withLock({ values[key] }) { return hit }
        let value = compute()
        lock.withLock { values[key] = value }
        return value
    }

    /// Like `value(for:_:)` for a computation that may not have an answer yet: nil is returned and
    /// not remembered, so the next caller computes again.
    func valueOnceKnown(for key: String, _ compute: () -> Value?) -> Value? {
        if let hit = lock.withLock({ values[key] }) { return hit }
        guard let value = compute() else { return nil }
        lock.withLock { values[key] = value }
        return value
    }

    /// The values already computed for `keys`, and the keys still missing (for batched reads).
    func values(for keys: [String]) -> (found: [String: Value], missing: [String]) {
        lock.withLock {
            var found: [String: Value] = [:], missing: [String] = []
            for k in keys { if let v = values[k] { found[k] = v } else { missing.append(k) } }
            return (found, missing)
        }
    }

    func insert(_ newValues: [String: Value]) { lock.withLock { values.merge(newValues) { _, new in new } } }

    func removeAll() { lock.withLock { values = [:] } }
}
