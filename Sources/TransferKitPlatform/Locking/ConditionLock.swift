#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A lock with a condition to wait on (a POSIX mutex and condition variable), for the wire layer's threads that
/// block: a mailbox's posting reader thread, the timer thread.
///
/// It replaces Foundation's `NSCondition`, the one part of the full Foundation these layers used, so that a program
/// built on them links `FoundationEssentials` only (the full Foundation brings ICU's 34 MB of data into a static
/// binary). Timed waits measure their timeout on the monotonic clock, so a change of the wall clock neither cuts a
/// wait short nor stretches it. ThreadSanitizer follows the hand-offs: it intercepts the `pthread` calls.
///
/// ```swift
/// let condition = ConditionLock()
/// condition.lock()
/// while !ready { condition.wait() }   // another thread sets `ready` under the lock, then calls broadcast()
/// condition.unlock()
/// ```
package final class ConditionLock: @unchecked Sendable {
    // `@unchecked`: the mutex and condition are the synchronization; they live at fixed addresses for the object's
    // life, as POSIX requires.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    /// An unlocked lock.
    package init() {
        pthread_mutex_init(mutex, nil)
        #if canImport(Darwin)
            pthread_cond_init(condition, nil)
        #else
            var attributes = pthread_condattr_t()
            pthread_condattr_init(&attributes)
            pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
            pthread_cond_init(condition, &attributes)
            pthread_condattr_destroy(&attributes)
        #endif
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Takes the lock, waiting for it if another thread holds it.
    package func lock() {
        pthread_mutex_lock(mutex)
    }

    /// Releases the lock, which the calling thread holds.
    package func unlock() {
        pthread_mutex_unlock(mutex)
    }

    /// Wakes one thread waiting on the condition.
    package func signal() {
        pthread_cond_signal(condition)
    }

    /// Wakes every thread waiting on the condition.
    package func broadcast() {
        pthread_cond_broadcast(condition)
    }

    /// Releases the lock, which the calling thread holds, waits until the condition is signalled, and takes the lock
    /// again. A wait may also end without a signal (a spurious wake-up): check what was waited for in a loop.
    package func wait() {
        pthread_cond_wait(condition, mutex)
    }

    /// ``wait()``, but for at most `timeout` (a negative one waits no time; one longer than 10 000 years waits that
    /// long).
    /// - Returns: `false` when the timeout passed without a signal, `true` otherwise.
    package func wait(for timeout: Duration) -> Bool {
        let (seconds, attoseconds) = min(max(timeout, .zero), .seconds(Self.longestWait)).components
        let nanoseconds = Int(attoseconds / 1_000_000_000)
        #if canImport(Darwin)
            var interval = timespec(tv_sec: Int(seconds), tv_nsec: nanoseconds)
            return pthread_cond_timedwait_relative_np(condition, mutex, &interval) != ETIMEDOUT
        #else
            var deadline = timespec()
            clock_gettime(CLOCK_MONOTONIC, &deadline)
            deadline.tv_sec += Int(seconds)
            deadline.tv_nsec += nanoseconds
            if deadline.tv_nsec >= 1_000_000_000 {
                deadline.tv_sec += 1
                deadline.tv_nsec -= 1_000_000_000
            }
            return pthread_cond_timedwait(condition, mutex, &deadline) != ETIMEDOUT
        #endif
    }

    /// The longest timed wait, in seconds: far beyond any deadline, far below an overflow of `timespec`.
    private static var longestWait: Int64 { 10_000 * 366 * 86_400 }
}
