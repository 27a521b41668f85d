import Synchronization

/// A `Mutex` whose hand-offs between threads ThreadSanitizer can follow.
///
/// On Linux, a contended `Synchronization.Mutex` waits in the kernel, inside a standard library
/// that is not built with ThreadSanitizer, so the sanitizer does not see that one holder's unlock
/// happens before the next holder's lock and reports the guarded state as racy. Each critical
/// section here therefore opens with an acquiring load and closes with a releasing store of an
/// atomic beside the mutex, which the sanitizer does track. The mutex alone already orders the
/// accesses; on x86-64 the two extra operations are plain moves.
///
/// It is `package` API: every layer of TransferKit that guards shared state uses this one type,
/// and adopters never see it.
package struct SanitizedMutex<State: ~Copyable>: ~Copyable, Sendable {
    private let mutex: Mutex<State>
    private let handOff = Atomic<UInt8>(0)

    /// Creates a mutex guarding `initialState`.
    package init(_ initialState: consuming sending State) {
        mutex = Mutex(initialState)
    }

    /// Runs `body` with exclusive access to the state.
    package borrowing func withLock<Result: ~Copyable, Failure: Error>(
        _ body: (inout sending State) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        try mutex.withLock { (state: inout sending State) throws(Failure) -> sending Result in
            _ = handOff.load(ordering: .acquiring)
            defer { handOff.store(0, ordering: .releasing) }
            return try body(&state)
        }
    }
}
