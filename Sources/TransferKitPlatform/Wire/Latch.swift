/// A one-shot signal: it opens once and stays open, and any number of tasks or threads wait for it — the wire
/// layer's one latch (an ownership's end, a write's end, a gate in a test).
///
/// Each waiter waits on a ``Mailbox`` of its own, so a wait ends by the latch opening, by its deadline, or by its
/// task's cancellation, whichever comes first, and a cancelled waiter leaves nothing behind.
///
/// ```swift
/// let ended = Latch()
/// Task { await ended.wait(); print("ended") }
/// ended.open()
/// ```
package final class Latch: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [UInt64: Mailbox<Void, Never>] = [:]
        var nextID: UInt64 = 0
    }

    private let state = SanitizedMutex(State())

    /// A closed latch.
    package init() {}

    /// Whether the latch has opened.
    package var isOpen: Bool { state.withLock { $0.isOpen } }

    /// Opens the latch: every waiter goes on, and every later wait returns at once.
    /// - Returns: Whether this call opened it (`false` when it was open already).
    @discardableResult
    package func open() -> Bool {
        let waiters: [Mailbox<Void, Never>]? = state.withLock { state in
            guard !state.isOpen else { return nil }
            state.isOpen = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters ?? [] { waiter.close(nil) }
        return waiters != nil
    }

    /// Waits until the latch opens, at most until `deadline`.
    /// - Returns: `true` when it opened, `false` when the deadline passed first.
    /// - Throws: `CancellationError` when the task is cancelled first.
    package func wait(until deadline: Deadline) async throws(CancellationError) -> Bool {
        guard let (id, waiter) = register() else { return true }
        do {
            _ = try await waiter.receive(until: deadline)
            return true
        } catch {
            switch error {
            case .finished, .closed: return true
            case .timedOut:
                unregister(id)
                return isOpen
            case .cancelled:
                unregister(id)
                throw CancellationError()
            }
        }
    }

    /// Waits until the latch opens or the task is cancelled.
    /// - Returns: Whether it opened (`false`: the task was cancelled first).
    @discardableResult
    package func wait() async -> Bool {
        (try? await wait(until: .never)) ?? isOpen
    }

    /// Blocks the calling thread until the latch opens, at most until `deadline`: for a thread of its own, never a
    /// task of the concurrency pool.
    /// - Returns: `true` when it opened, `false` when the deadline passed first.
    package func block(until deadline: Deadline) -> Bool {
        guard let (id, waiter) = register() else { return true }
        _ = waiter.take(until: deadline)
        if isOpen { return true }
        unregister(id)
        return isOpen
    }

    /// A mailbox to wait on, or `nil` when the latch is open.
    private func register() -> (UInt64, Mailbox<Void, Never>)? {
        state.withLock { state in
            guard !state.isOpen else { return nil }
            state.nextID += 1
            let waiter = Mailbox<Void, Never>(capacity: 1)
            state.waiters[state.nextID] = waiter
            return (state.nextID, waiter)
        }
    }

    private func unregister(_ id: UInt64) {
        state.withLock { _ = $0.waiters.removeValue(forKey: id) }
    }
}
