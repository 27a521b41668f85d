/// A one-shot signal that may carry a value: it opens once, with its value, and stays open; any number of tasks or
/// threads wait for it — the wire layer's one latch (an ownership's end, a write's end, a drag session's outcome,
/// an answer to a request, a gate in a test).
///
/// Each waiter waits on a ``Mailbox`` of its own, so a wait ends by the latch opening, by its deadline, or by its
/// task's cancellation, whichever comes first, and a cancelled waiter leaves nothing behind. Only the first
/// ``open(_:)`` counts.
///
/// ```swift
/// let ended = Latch<Void>()
/// Task { await ended.wait(); print("ended") }
/// ended.open()
///
/// let outcome = Latch<Int>()
/// outcome.open(7)
/// let value = await outcome.wait()  // 7
/// ```
package final class Latch<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var waiters: [UInt64: Mailbox<Value, Never>] = [:]
        var nextID: UInt64 = 0
    }

    private let state = SanitizedMutex(State())

    /// A closed latch.
    package init() {}

    /// Whether the latch has opened.
    package var isOpen: Bool { state.withLock { $0.value != nil } }

    /// The value the latch opened with, or `nil` while it is closed.
    package var value: Value? { state.withLock { $0.value } }

    /// Opens the latch with `value`: every waiter goes on with it, and every later wait returns it at once.
    /// - Returns: Whether this call opened it (`false` when it was open already; its value stays the first one).
    @discardableResult
    package func open(_ value: Value) -> Bool {
        let waiters: [Mailbox<Value, Never>]? = state.withLock { state in
            guard state.value == nil else { return nil }
            state.value = value
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters ?? [] { _ = waiter.post(value) }
        return waiters != nil
    }

    /// Waits until the latch opens, at most until `deadline`.
    /// - Returns: The latch's value, or `nil` when the deadline passed first.
    /// - Throws: `CancellationError` when the task is cancelled first.
    package func wait(until deadline: Deadline) async throws(CancellationError) -> Value? {
        guard let (id, waiter) = register() else { return value }
        do {
            return try await waiter.receive(until: deadline)
        } catch {
            unregister(id)
            switch error {
            case .finished, .closed, .timedOut: return value
            case .cancelled: if let value { return value } else { throw CancellationError() }
            }
        }
    }

    /// Waits until the latch opens or the task is cancelled.
    /// - Returns: The latch's value (`nil`: the task was cancelled first).
    @discardableResult
    package func wait() async -> Value? {
        (try? await wait(until: .never)) ?? value
    }

    /// Blocks the calling thread until the latch opens, at most until `deadline`: for a thread of its own, never a
    /// task of the concurrency pool.
    /// - Returns: The latch's value, or `nil` when the deadline passed first.
    package func block(until deadline: Deadline) -> Value? {
        guard let (id, waiter) = register() else { return value }
        if let value = waiter.take(until: deadline) { return value }
        unregister(id)
        return value
    }

    /// A mailbox to wait on, or `nil` when the latch is open.
    private func register() -> (UInt64, Mailbox<Value, Never>)? {
        state.withLock { state in
            guard state.value == nil else { return nil }
            state.nextID += 1
            let waiter = Mailbox<Value, Never>(capacity: 1)
            state.waiters[state.nextID] = waiter
            return (state.nextID, waiter)
        }
    }

    private func unregister(_ id: UInt64) {
        state.withLock { _ = $0.waiters.removeValue(forKey: id) }
    }
}

extension Latch where Value == Void {
    /// Opens a latch that carries no value.
    /// - Returns: Whether this call opened it (`false` when it was open already).
    @discardableResult
    package func open() -> Bool {
        open(())
    }
}
