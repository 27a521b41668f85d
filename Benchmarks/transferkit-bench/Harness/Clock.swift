#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A monotonic clock read straight from the system, cheaper and finer than `ContinuousClock` for tight loops.
enum MonotonicClock {
    /// Nanoseconds since an arbitrary fixed point.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Nanoseconds since `start`.
    static func elapsed(since start: UInt64) -> Double {
        Double(now() &- start)
    }
}

/// Keeps a value alive and observable, so the optimizer cannot delete the work that produced it.
@inline(never)
@_optimize(none)
func blackHole<T>(_ value: T) {
    _ = value
}
