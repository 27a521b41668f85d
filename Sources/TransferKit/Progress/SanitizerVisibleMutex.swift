import Synchronization

/// A `Mutex` whose hand-offs ThreadSanitizer can see.
///
/// On Linux, `Synchronization.Mutex` waits in the kernel (`FUTEX_LOCK_PI`) when contended, and the standard library
/// that implements it is not instrumented: ThreadSanitizer then misses the happens-before edge between one holder's
/// unlock and the next holder's lock, and reports the accesses to the protected state as data races. Each critical
/// section here starts with an acquiring load and ends with a releasing store of an atomic next to the mutex, which
/// ThreadSanitizer does understand. The mutex alone already orders everything; on x86-64 the two extra accesses are
/// plain moves (a few nanoseconds on ARM), so they stay in release builds too, where a sanitized release build needs
/// them as much.
struct SanitizerVisibleMutex<State: ~Copyable>: ~Copyable, Sendable {
    private let mutex: Mutex<State>
    private let handOff = Atomic<UInt8>(0)

    init(_ initialState: consuming sending State) {
        mutex = Mutex(initialState)
    }

    /// Runs `body` with exclusive access to the state.
    borrowing func withLock<Result: ~Copyable>(_ body: (inout sending State) -> sending Result) -> sending Result {
        mutex.withLock { state in
            _ = handOff.load(ordering: .acquiring)
            defer { handOff.store(0, ordering: .releasing) }
            return body(&state)
        }
    }
}
