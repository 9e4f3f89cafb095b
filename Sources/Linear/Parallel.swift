import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Data parallelism over our own threads. OpenBLAS runs single-threaded inside each task (see
/// `BLAS.setThreads`): splitting a batch into independent shards keeps both cores busy through the
/// element-wise steps too (softmax, GELU, layer norm), where a threaded BLAS would leave its
/// worker spinning.
public enum Parallel {
    /// Results of `body(0) … body(count - 1)`, computed concurrently, in index order.
    public static func map<T: Sendable>(_ count: Int, _ body: @Sendable (Int) throws -> T) rethrows -> [T] {
        if count <= 1 { return try (0..<count).map(body) }
        let slots = ResultSlots<T>(count: count)
        DispatchQueue.concurrentPerform(iterations: count) { index in
            slots.set(index, Result { try body(index) })
        }
        return try slots.values().map { try $0.get() }
    }
}

/// One slot per task; each task writes only its own index, so no two threads touch the same slot.
private final class ResultSlots<T: Sendable>: @unchecked Sendable {
    private var storage: [Result<T, Error>?]
    private let lock = NSLockLike()
    init(count: Int) { storage = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ value: Result<T, Error>) {
        lock.withLock { storage[index] = value }
    }
    func values() -> [Result<T, Error>] { lock.withLock { storage.map { $0! } } }
}

/// A pthread mutex, so Linear needs no Foundation.
private final class NSLockLike: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    init() { pthread_mutex_init(&mutex, nil) }
    deinit { pthread_mutex_destroy(&mutex) }
    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return try body()
    }
}
