import Glibc

/// A value shared between threads behind a POSIX mutex. Used where a loader thread hands its
/// result to the run loop. Not Swift's `Synchronization.Mutex`: on Linux that one locks with
/// atomics and futex calls in the precompiled standard library, which ThreadSanitizer does not
/// see, so `tools/soak-sanitized` reported the decoded deck as raced between the loader thread
/// and the loop (about one run in twelve, whenever the loop picked a result up without reading
/// that thread's byte from the wake-up pipe). ThreadSanitizer intercepts `pthread_mutex_lock`.
final class LockedValue<Value>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

    init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body(&value)
    }
}
