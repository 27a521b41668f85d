import TransferKitPlatform
import UniformTypes

extension TransferProgress {
    /// Whether ``cancel()`` was called on this progress or on an ancestor.
    public var isCancelled: Bool {
        state.withLock { $0.isCancelled }
    }

    /// Cancels the work: marks this progress and all its children cancelled and runs the cancellation handlers.
    ///
    /// Only the first call does anything. The whole tree below this progress is marked cancelled before any handler
    /// runs, so whatever a handler wakes (a loader's task that ``withCancellation(_:)`` cancels, say) already sees
    /// ``isCancelled`` on every progress of it. Handlers registered with ``onCancel(_:)`` then run once each,
    /// synchronously on the calling thread, after the lock is released (so they may use the progress), a parent's
    /// before its children's. Observers see a cancelled snapshot and their sequences end. A loader sees the
    /// cancellation through ``checkCancellation()``, its handlers, or — inside ``withCancellation(_:)`` — through the
    /// cancellation of its task.
    public func cancel() {
        var marked: [(progress: TransferProgress, action: StateMachine.CancelAction)] = []
        markCancelled(into: &marked)
        for entry in marked {
            for handler in entry.action.handlers {
                handler.body()
            }
        }
        // Children report before their parents, as each child's change reaches its parent.
        for entry in marked.reversed() {
            entry.progress.perform(entry.action.change)
        }
    }

    /// Marks this progress and, depth first, every descendant not cancelled yet, appending what each must do next.
    private func markCancelled(into marked: inout [(progress: TransferProgress, action: StateMachine.CancelAction)]) {
        guard let action = state.withLock({ $0.cancel() }) else { return }
        marked.append((self, action))
        for child in action.children {
            child.progress.markCancelled(into: &marked)
        }
    }

    /// Throws `CancellationError` if the progress is cancelled.
    ///
    /// A loader calls it between chunks. The provider layer maps the error to its own.
    ///
    /// ```swift
    /// for chunk in chunks {
    ///     try progress.checkCancellation()
    ///     try await write(chunk)
    ///     progress.advance()
    /// }
    /// ```
    ///
    /// - Throws: `CancellationError` when ``isCancelled`` is `true`.
    public func checkCancellation() throws {
        if isCancelled {
            throw CancellationError()
        }
    }

    /// Registers a closure to run when the progress is cancelled; runs it at once if it already is.
    ///
    /// The handler runs at most once, synchronously on the thread that calls ``cancel()`` (or on the calling thread,
    /// before this method returns, if the progress is already cancelled). It must not block. Remove it with the
    /// returned registration when the work it guards is over, so that a long-lived progress does not keep its
    /// captures alive:
    ///
    /// ```swift
    /// let registration = progress.onCancel { connection.close() }
    /// defer { registration.remove() }
    /// try await connection.download(into: file)
    /// ```
    ///
    /// - Parameter handler: The closure to run on cancellation.
    /// - Returns: A registration whose ``CancellationRegistration/remove()`` unregisters the handler.
    @discardableResult
    public func onCancel(_ handler: @escaping @Sendable () -> Void) -> CancellationRegistration {
        guard let id = state.withLock({ $0.addHandler(handler) }) else {
            handler()
            return CancellationRegistration(progress: nil, id: 0)
        }
        return CancellationRegistration(progress: self, id: id)
    }

    /// A cancellation handler registered with ``TransferProgress/onCancel(_:)``, which can be removed.
    ///
    /// It refers to its progress weakly: holding it keeps nothing alive.
    public struct CancellationRegistration: Sendable {
        weak let progress: TransferProgress?
        let id: UInt64

        /// Unregisters the handler unless it has already run; does nothing the second time.
        ///
        /// - Returns: `true` if the handler was still registered and now never runs; `false` if it ran (or is
        ///   running) or was removed before.
        @discardableResult
        public func remove() -> Bool {
            guard let progress else { return false }
            // The handler, and what it captures, is released after the lock.
            let removed = progress.state.withLock { $0.removeHandler(id: id) }
            return removed != nil
        }
    }

    /// Runs `body` in a task linked to this progress both ways.
    ///
    /// Cancelling the calling task cancels this progress; cancelling this progress cancels the task that runs
    /// `body`, so `Task.isCancelled`, `Task.checkCancellation()` and cancellation-aware awaits inside `body` see it.
    /// If this progress is cancelled when `body` ends (or before it starts), the caller gets `CancellationError`,
    /// whatever `body` returned or threw, so a cancelled load always fails the same way.
    ///
    /// `body` runs in a task of its own (it inherits the caller's priority and task-local values), so that cancelling
    /// this progress cancels `body` and never the caller; that is why it is escaping. The task starts at once on the
    /// calling thread (`Task.immediate`), so a body that does not suspend costs one task creation and no thread
    /// hand-off.
    ///
    /// ```swift
    /// let data = try await progress.withCancellation {
    ///     try await loader.loadData(reportingTo: progress)
    /// }
    /// ```
    ///
    /// - Parameter body: The work to run.
    /// - Returns: What `body` returned.
    /// - Throws: `CancellationError` if this progress or the calling task was cancelled; otherwise what `body` threw.
    public func withCancellation<R: Sendable>(_ body: @escaping @Sendable () async throws -> R) async throws -> R {
        if Task.isCancelled {
            cancel()
        }
        try checkCancellation()
        // The caller's handler is in place before the body starts, so a cancellation of the caller during the
        // body's first synchronous stretch reaches it too.
        let result = await withTaskCancellationHandler {
            await Task.immediate { try await self.runCancellingCurrentTask(body) }.result
        } onCancel: {
            self.cancel()
        }
        try checkCancellation()
        return try result.get()
    }

    /// Runs `body` in the current task and cancels that task if this progress is cancelled meanwhile.
    ///
    /// Only for a task that exists to run `body`: the task's cancellation outlives the call.
    private func runCancellingCurrentTask<R>(_ body: () async throws -> R) async throws -> R {
        try await withUnsafeCurrentTask { current in
            guard let current else {
                return try await body()
            }
            let slot = CurrentTaskSlot(current)
            let registration = onCancel { slot.cancel() }
            // Emptied before the task can end, and after any cancel() that is under way.
            defer {
                slot.empty()
                registration.remove()
            }
            return try await body()
        }
    }
}

/// The task running a ``TransferProgress/withCancellation(_:)`` body, held only while the body runs.
///
/// An `UnsafeCurrentTask` must not be used once its task may have ended. The slot is emptied under its lock before
/// the body returns, and ``cancel()`` uses the task under the same lock, so a cancellation from another thread either
/// happens while the task is alive or finds the slot empty.
private final class CurrentTaskSlot: Sendable {
    /// `UnsafeCurrentTask` is not `Sendable` because it must not outlive its task; the slot enforces that.
    private struct Handle: @unchecked Sendable {
        let task: UnsafeCurrentTask
    }

    private let handle: SanitizedMutex<Handle?>

    init(_ task: UnsafeCurrentTask) {
        handle = SanitizedMutex(Handle(task: task))
    }

    /// Cancels the task if it is still running its body.
    ///
    /// The task's own cancellation handlers run inside this lock. Only the progress's cancellation handler calls
    /// this, and that runs once, so handlers that cancel the progress again never come back to this lock.
    func cancel() {
        handle.withLock { $0?.task.cancel() }
    }

    /// Forgets the task; later ``cancel()`` calls do nothing.
    func empty() {
        handle.withLock { $0 = nil }
    }
}
