#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A value behind a lock whose waiters go to sleep at once (a plain `pthread_mutex_t`). Synchronization's `Mutex`
/// spins before it sleeps, which on a machine with few cores and many threads wanting the lock (keychaind serving
/// many clients) burns the time the holder needs to finish: under 16 clients on 2 cores, a fifth of the daemon's
/// CPU time went into that spinning.
package final class SleepingLock<Value>: @unchecked Sendable {  // safe: `value` is only touched with `mutex` held
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    package init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` when the lock is free now; nil, without waiting, when another thread holds it.
    package func withLockIfAvailable<R>(_ body: (inout Value) throws -> R) rethrows -> R? {
        guard pthread_mutex_trylock(mutex) == 0 else { return nil }
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }

    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
