public import Synchronization

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
///
/// Other modules (TransferKit's progress and providers) must be able to specialize `withLock`
/// for their state and closure; otherwise every lock calls an unspecialized generic that looks
/// up type metadata. So the members are `@inlinable`, the stored properties
/// `@usableFromInline`, and the type itself `@usableFromInline`: Swift 6.3 does not serialize
/// the `@inlinable` bodies of a plain `package` type for other modules of a package built
/// without library evolution, and callers then link to the generic entry point. A
/// `@usableFromInline` body may only use publicly imported modules, hence the `public import`.
@usableFromInline
package struct SanitizedMutex<State: ~Copyable>: ~Copyable, Sendable {
    @usableFromInline let mutex: Mutex<State>
    @usableFromInline let handOff: Atomic<UInt8>

    /// Creates a mutex guarding `initialState`.
    @inlinable
    package init(_ initialState: consuming sending State) {
        mutex = Mutex(initialState)
        handOff = Atomic<UInt8>(0)
    }

    /// Runs `body` with exclusive access to the state.
    @inlinable
    package borrowing func withLock<Result: ~Copyable, Failure: Error>(
        _ body: (inout sending State) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        try mutex.withLock { (state: inout sending State) throws(Failure) -> sending Result in
            _ = handOff.load(ordering: .acquiring)
            defer { handOff.store(0, ordering: .releasing) }
            return try body(&state)
        }
    }

    /// Runs `body` with exclusive access to the state if no other thread holds the lock; never waits.
    /// - Returns: What `body` returned, or `nil` when the lock was held.
    @inlinable
    package borrowing func withLockIfAvailable<Result: ~Copyable, Failure: Error>(
        _ body: (inout sending State) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result? {
        try mutex.withLockIfAvailable { (state: inout sending State) throws(Failure) -> sending Result in
            _ = handOff.load(ordering: .acquiring)
            defer { handOff.store(0, ordering: .releasing) }
            return try body(&state)
        }
    }
}
