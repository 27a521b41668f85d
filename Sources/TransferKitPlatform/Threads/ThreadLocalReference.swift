#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One strong reference per thread, for a cache that a hot path reads without a lock or an atomic operation.
///
/// A `pthread_key_t`: each thread sets and reads its own value (`pthread_getspecific` is a load from the thread's own
/// table), and the value a thread holds is released when the thread ends. A slot's key is never deleted and a process
/// has at most `PTHREAD_KEYS_MAX` of them (1024 on glibc), so make slots once, as `static let`s.
///
/// A thread's value lives until the thread replaces it or ends: a cache kept this way holds its last entry that long.
package struct ThreadLocalReference: Sendable {
    private let key: pthread_key_t

    /// Creates the slot, or `nil` when the process has no key left.
    package init?() {
        var key = pthread_key_t()
        let created = pthread_key_create(&key) { pointer in
            if let pointer {
                Unmanaged<AnyObject>.fromOpaque(pointer).release()
            }
        }
        guard created == 0 else {
            return nil
        }
        self.key = key
    }

    /// This thread's value, `nil` if it has none, not retained: the thread's slot holds it until the thread calls
    /// ``set(_:)`` or ends. Read it with `_withUnsafeGuaranteedRef` to use it without a retain and a release.
    package func current() -> Unmanaged<AnyObject>? {
        pthread_getspecific(key).map { Unmanaged<AnyObject>.fromOpaque($0) }
    }

    /// Makes `value` this thread's value (`nil` clears it), releasing the one it replaces. When the C library has no
    /// room for the thread's value (`ENOMEM`, on a thread's first use of a high key), the slot keeps the value it had.
    package func set(_ value: AnyObject?) {
        let old = pthread_getspecific(key)
        let new = value.map { Unmanaged<AnyObject>.passRetained($0).toOpaque() }
        guard pthread_setspecific(key, new) == 0 else {
            if let new {
                Unmanaged<AnyObject>.fromOpaque(new).release()
            }
            return
        }
        if let old {
            Unmanaged<AnyObject>.fromOpaque(old).release()
        }
    }
}
