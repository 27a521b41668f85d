/// The one timer of the wire layer: runs an action when its deadline passes, by the deadline's ``WireClock``.
///
/// On the continuous clock actions run on the clock's thread of their own; it does not use the concurrency pool (a
/// sleeping task, or Dispatch's global queues, which *are* that pool on Linux), so a deadline fires on time even
/// when every pool thread is blocked or busy. On a manual clock they run when a test advances it. Actions run one
/// after another and must be short: resume a continuation, shut a socket down.
package final class WireTimer: Sendable {
    /// The process's timer.
    package static let shared = WireTimer()

    /// A scheduled action, for ``cancel(_:)``.
    package struct Handle: Sendable, Hashable {
        fileprivate let id: UInt64
        fileprivate let clock: WireClock

        package static func == (lhs: Handle, rhs: Handle) -> Bool {
            lhs.id == rhs.id && lhs.clock === rhs.clock
        }

        package func hash(into hasher: inout Hasher) {
            hasher.combine(id)
            hasher.combine(ObjectIdentifier(clock))
        }
    }

    private init() {}

    /// Runs `action` once `deadline` passes on its clock, unless cancelled first; a deadline that never passes
    /// schedules nothing.
    @discardableResult
    package func schedule(at deadline: Deadline, _ action: @escaping @Sendable () -> Void) -> Handle {
        guard let instant = deadline.instant else {
            return Handle(id: deadline.clock.unusedID(), clock: deadline.clock)
        }
        return Handle(id: deadline.clock.schedule(at: instant, action), clock: deadline.clock)
    }

    /// Cancels a scheduled action.
    /// - Returns: Whether it had not run yet (so it never will).
    @discardableResult
    package func cancel(_ handle: Handle) -> Bool {
        handle.clock.cancel(handle.id)
    }
}

extension WireTimer {
    /// Suspends the calling task until `deadline` passes: the package's one way for a task to wait for time (a
    /// grace period, an expiry, a stall limit), woken by this timer's thread rather than the concurrency pool's
    /// sleep, so that every timed wait goes through one clock.
    ///
    /// ```swift
    /// try await WireTimer.sleep(until: .after(.milliseconds(250)))
    /// ```
    /// - Parameter deadline: When to wake; ``Deadline/never`` waits until the task is cancelled.
    /// - Throws: `CancellationError` when the task is cancelled before the deadline (at once if it already was).
    package static func sleep(until deadline: Deadline) async throws(CancellationError) {
        do {
            _ = try await Mailbox<Void, Never>(capacity: 1).receive(until: deadline)
        } catch {
            // An empty mailbox that nobody closes ends only by the deadline or by cancellation.
            if case .cancelled = error { throw CancellationError() }
        }
    }

    /// Suspends the calling task for `duration` of `clock`, as ``sleep(until:)``.
    /// - Throws: `CancellationError` when the task is cancelled first.
    package static func sleep(for duration: Duration, on clock: WireClock = .continuous) async throws(CancellationError)
    {
        try await sleep(until: .after(duration, on: clock))
    }

    /// Blocks the calling thread for `duration` of `clock`: for a thread of its own (an accept loop's back-off),
    /// never a task of the concurrency pool, which must use ``sleep(for:on:)``.
    package static func block(for duration: Duration, on clock: WireClock = .continuous) {
        _ = Mailbox<Void, Never>(capacity: 1).take(until: .after(duration, on: clock))
    }
}
