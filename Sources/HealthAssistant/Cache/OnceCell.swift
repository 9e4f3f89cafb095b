import Foundation

/// A value made once and shared: the first caller builds it under the lock, later callers get the
/// same one. A build that throws is not remembered, so the next caller tries again (after the
/// user fixed the file, say).
final class OnceCell<Value: Sendable>: @unchecked Sendable {
    // `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value: Value?

    var isFilled: Bool { lock.withLock { value != nil } }

    func get(_ make: () throws -> Value) rethrows -> Value {
        lock.lock(); defer { lock.unlock() }
        if let value { return value }
        let v = try make()
        value = v
        return v
    }
}
