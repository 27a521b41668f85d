/// The time of the wire layer: what a ``Deadline`` is measured on and what ``WireTimer`` fires by.
///
/// ``continuous`` is the machine's continuous clock, whose timer runs on a thread of its own (not the concurrency
/// pool, so a deadline fires on time when every pool thread is busy). A clock made by ``manual()`` stands still
/// until a test calls ``advance(by:)``, which fires every timer that comes due, in order, on the calling thread:
/// a test of a deadline advances the clock instead of waiting for it, and runs in microseconds.
///
/// ```swift
/// let clock = WireClock.manual()
/// let mailbox = Mailbox<Int, Never>(capacity: 1)
/// async let answer = mailbox.receive(until: .after(.seconds(30), on: clock))
/// clock.advance(by: .seconds(30))  // the receive ends with timedOut now, not in 30 s
/// ```
package final class WireClock: Sendable {
    /// The machine's continuous clock (a suspended machine or a changed wall clock does not move it).
    package static let continuous = WireClock(isManual: false)

    /// A clock that moves only by ``advance(by:)``, starting at zero.
    package static func manual() -> WireClock {
        WireClock(isManual: true)
    }

    /// Whether this clock moves only by ``advance(by:)``.
    package let isManual: Bool

    private struct Entry {
        let id: UInt64
        let instant: Duration
        let action: @Sendable () -> Void
    }

    private struct State {
        var entries: [Entry] = []
        var nextID: UInt64 = 1
        var isRunning = false
        /// When the timer thread's current wait ends, on this clock; `nil` while it is not waiting (it is starting,
        /// running an action, or about to look at the entries again).
        var sleepsUntil: Duration?
        /// A manual clock's time.
        var manualNow: Duration = .zero
    }

    private let origin = ContinuousClock.now
    private let condition = ConditionLock()
    // Guarded by `condition`, which is the lock here because the timer thread waits on it.
    nonisolated(unsafe) private var state = State()

    private init(isManual: Bool) {
        self.isManual = isManual
    }

    /// The time since the clock's origin.
    package var now: Duration {
        guard isManual else { return origin.duration(to: .now) }
        condition.lock()
        defer { condition.unlock() }
        return state.manualNow
    }

    /// The continuous clock's instant `instant`, as this clock's time (for ``continuous`` only).
    func time(of instant: ContinuousClock.Instant) -> Duration {
        origin.duration(to: instant)
    }

    /// Moves a manual clock on by `duration` and runs every timer action that comes due, earliest first, on the
    /// calling thread; the continuous clock does not move (nothing happens).
    package func advance(by duration: Duration) {
        guard isManual else { return }
        condition.lock()
        state.manualNow += max(.zero, duration)
        while let first = state.entries.first, first.instant <= state.manualNow {
            state.entries.removeFirst()
            condition.unlock()
            first.action()
            condition.lock()
        }
        condition.unlock()
    }

    /// Schedules `action` at `instant` of this clock.
    /// - Returns: The entry's identifier, for ``cancel(_:)``.
    func schedule(at instant: Duration, _ action: @escaping @Sendable () -> Void) -> UInt64 {
        condition.lock()
        defer { condition.unlock() }
        let id = state.nextID
        state.nextID += 1
        let index = state.entries.firstIndex { $0.instant > instant } ?? state.entries.endIndex
        state.entries.insert(Entry(id: id, instant: instant, action: action), at: index)
        if !isManual && !state.isRunning {
            state.isRunning = true
            DedicatedThread.start { [self] in run() }
        } else if let sleepsUntil = state.sleepsUntil {
            // Only an entry due before the thread's wait ends needs it awake. A request's deadline, scheduled at
            // every wait for a reply and cancelled by the reply, is nearly always later than the one before, which
            // the thread already sleeps until: waking it for each cost a thread switch and a contended lock on
            // every exchange of the wire protocols. A thread still asleep past its instant overslept (its wait is
            // measured on the monotonic clock, which stops while the machine is suspended): it is woken, so that a
            // long wait begun before a suspend does not hold back the entries scheduled after it.
            if instant < sleepsUntil || origin.duration(to: .now) >= sleepsUntil {
                condition.signal()
            }
        }
        return id
    }

    /// A fresh identifier that names no entry (for a deadline that never passes).
    func unusedID() -> UInt64 {
        condition.lock()
        defer { condition.unlock() }
        defer { state.nextID += 1 }
        return state.nextID
    }

    /// Cancels entry `id`.
    /// - Returns: Whether it had not run yet (so it never will).
    func cancel(_ id: UInt64) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard let index = state.entries.firstIndex(where: { $0.id == id }) else { return false }
        state.entries.remove(at: index)
        return true
    }

    /// The continuous clock's timer thread.
    private func run() {
        condition.lock()
        while true {
            guard let first = state.entries.first else {
                // Idle: the thread ends after a while and the next schedule starts another.
                let idle = Duration.seconds(5)
                state.sleepsUntil = origin.duration(to: .now) + idle
                let signalled = condition.wait(for: idle)
                state.sleepsUntil = nil
                if !signalled && state.entries.isEmpty {
                    state.isRunning = false
                    condition.unlock()
                    return
                }
                continue
            }
            let now = origin.duration(to: .now)
            if first.instant > now {
                // A write may expire in `Int64.max` seconds: the lock caps the wait, and the loop looks again anyway.
                // (The wait is measured on the monotonic clock, which stops while the machine is suspended: then
                // this entry fires late by that time, unless a schedule after the resume wakes the thread.)
                state.sleepsUntil = first.instant
                _ = condition.wait(for: first.instant - now)
                state.sleepsUntil = nil
                continue
            }
            state.entries.removeFirst()
            condition.unlock()
            first.action()
            condition.lock()
        }
    }
}
