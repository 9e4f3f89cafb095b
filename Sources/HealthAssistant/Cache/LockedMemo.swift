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

    func removeAll() { lock.withLock { values = [:] } }
}
