import Foundation

/// The one timer of the wire layer: runs an action when its deadline passes, on a thread of its own.
///
/// It does not use the concurrency pool (a sleeping task, or Dispatch's global queues, which *are* that pool on
/// Linux), so a deadline fires on time even when every pool thread is blocked or busy. Actions run one after
/// another on the timer's thread and must be short: resume a continuation, shut a socket down.
package final class WireTimer: Sendable {
    /// The process's timer.
    package static let shared = WireTimer()

    /// A scheduled action, for ``cancel(_:)``.
    package struct Handle: Sendable, Hashable {
        fileprivate let id: UInt64
    }

    private struct Entry {
        let id: UInt64
        let instant: ContinuousClock.Instant
        let action: @Sendable () -> Void
    }

    private struct State {
        var entries: [Entry] = []
        var nextID: UInt64 = 1
        var isRunning = false
    }

    private let condition = NSCondition()
    // Guarded by `condition`, which is the lock here because the timer thread waits on it.
    nonisolated(unsafe) private var state = State()

    private init() {}

    /// Runs `action` on the timer's thread once `deadline` passes, unless cancelled first; a deadline that never
    /// passes schedules nothing.
    @discardableResult
    package func schedule(at deadline: Deadline, _ action: @escaping @Sendable () -> Void) -> Handle {
        condition.lock()
        defer { condition.unlock() }
        let id = state.nextID
        state.nextID += 1
        guard let instant = deadline.instant else { return Handle(id: id) }
        let index = state.entries.firstIndex { $0.instant > instant } ?? state.entries.endIndex
        state.entries.insert(Entry(id: id, instant: instant, action: action), at: index)
        if !state.isRunning {
            state.isRunning = true
            DedicatedThread.start { [self] in run() }
        }
        condition.signal()
        return Handle(id: id)
    }

    /// Cancels a scheduled action.
    /// - Returns: Whether it had not run yet (so it never will).
    @discardableResult
    package func cancel(_ handle: Handle) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard let index = state.entries.firstIndex(where: { $0.id == handle.id }) else { return false }
        state.entries.remove(at: index)
        return true
    }

    private func run() {
        condition.lock()
        while true {
            guard let first = state.entries.first else {
                // Idle: the thread ends after a while and the next schedule starts another.
                if !condition.wait(until: Date(timeIntervalSinceNow: 5)) && state.entries.isEmpty {
                    state.isRunning = false
                    condition.unlock()
                    return
                }
                continue
            }
            let now = ContinuousClock.now
            if first.instant > now {
                let wait = now.duration(to: first.instant)
                let (seconds, attoseconds) = wait.components
                _ = condition.wait(until: Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) / 1e18))
                continue
            }
            state.entries.removeFirst()
            condition.unlock()
            first.action()
            condition.lock()
        }
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

    /// Suspends the calling task for `duration`, as ``sleep(until:)``.
    /// - Throws: `CancellationError` when the task is cancelled first.
    package static func sleep(for duration: Duration) async throws(CancellationError) {
        try await sleep(until: .after(duration))
    }

    /// Blocks the calling thread for `duration`: for a thread of its own (an accept loop's back-off), never a task
    /// of the concurrency pool, which must use ``sleep(for:)``.
    package static func block(for duration: Duration) {
        _ = Mailbox<Void, Never>(capacity: 1).take(until: .after(duration))
    }
}
