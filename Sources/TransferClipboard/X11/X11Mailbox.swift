import TransferKitPlatform

/// A queue of values posted from the connection's reader thread and awaited, one at a time, by a task, with a
/// time limit on each wait.
///
/// Values posted before anyone waits are kept, so a watcher registered before its request never misses the
/// answer. Once failed, every later wait throws the failure.
package final class X11Mailbox<Value: Sendable>: Sendable {
    private struct Waiter {
        var id: UInt64
        var continuation: CheckedContinuation<Value, any Error>
    }

    private struct State {
        var queue: [Value] = []
        var waiter: Waiter?
        var failure: ClipboardError?
        var nextID: UInt64 = 0
    }

    private let state = SanitizedMutex(State())
    /// The most values kept unread; a peer that floods events past it fails the mailbox.
    private let capacity: Int

    /// An empty mailbox that keeps at most `capacity` unread values.
    package init(capacity: Int = 4096) {
        self.capacity = capacity
    }

    /// Hands `value` to the waiting task, or queues it.
    package func post(_ value: Value) {
        let waiter: Waiter? = state.withLock { state in
            guard state.failure == nil else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            if state.queue.count >= capacity {
                state.failure = ClipboardError(
                    code: .protocolViolation,
                    message: "The X server sent over \(capacity) unread events for one "
                        + "transfer; it was abandoned.")
                return nil
            }
            state.queue.append(value)
            return nil
        }
        waiter?.continuation.resume(returning: value)
    }

    /// Ends the mailbox: the waiting task and every later wait throw `error`.
    package func fail(_ error: ClipboardError) {
        let waiter: Waiter? = state.withLock { state in
            if state.failure == nil { state.failure = error }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.continuation.resume(throwing: error)
    }

    /// The next value, waiting at most `timeout`.
    ///
    /// - Throws: ``ClipboardError``: `timedOut` when nothing came in time, `cancelled` when the task was cancelled,
    ///   or the error the mailbox failed with.
    package func next(timeout: Duration?, waitingFor what: @autoclosure () -> String) async throws -> Value {
        let description = what()
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        let timer = timeout.map { timeout in
            Task { [weak self] in
                try await Task.sleep(for: timeout)
                self?.expire(
                    id,
                    ClipboardError(
                        code: .timedOut,
                        message: "No answer from the X server or the other client in \(timeout) while "
                            + "waiting for \(description)."))
            }
        }
        defer { timer?.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                let outcome: Result<Value, ClipboardError>? = state.withLock { state in
                    if !state.queue.isEmpty { return .success(state.queue.removeFirst()) }
                    if let failure = state.failure { return .failure(failure) }
                    if Task.isCancelled {
                        return .failure(
                            ClipboardError(code: .cancelled, message: "Cancelled waiting for \(description)."))
                    }
                    state.waiter = Waiter(id: id, continuation: continuation)
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            expire(id, ClipboardError(code: .cancelled, message: "Cancelled waiting for \(description)."))
        }
    }

    private func expire(_ id: UInt64, _ error: ClipboardError) {
        let waiter: Waiter? = state.withLock { state in
            guard let waiter = state.waiter, waiter.id == id else { return nil }
            state.waiter = nil
            return waiter
        }
        waiter?.continuation.resume(throwing: error)
    }
}
