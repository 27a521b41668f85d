import TransferKitPlatform
import UniformTypes

extension TransferProgress {
    /// The changes of this progress, as an asynchronous sequence of snapshots.
    ///
    /// See ``Updates`` for what each iterator yields and when it ends.
    ///
    /// ```swift
    /// for await snapshot in progress.updates {
    ///     progressBar.value = snapshot.fractionCompleted
    /// }
    /// // here the progress has finished or was cancelled
    /// ```
    public var updates: Updates {
        Updates(progress: self)
    }

    /// An asynchronous sequence of a progress's snapshots, coalesced so that fast updates never pile up.
    ///
    /// Each iterator is an independent observer. Its first element is the current snapshot; each later element is
    /// the state at the moment the observer asks for it, yielded only if it differs from the previous element. An
    /// observer that is busy while 10 000 updates happen gets the latest state once, not a backlog, and updates
    /// cost nothing extra while no observer waits. The sequence ends after it yielded a finished or cancelled
    /// snapshot (see ``Snapshot/isTerminal``), or when the observing task is cancelled.
    ///
    /// Changes of children reach an observer of their parent: before waiting, the observer asks every descendant to
    /// report its next change.
    public struct Updates: AsyncSequence, Sendable {
        /// A snapshot of the progress.
        public typealias Element = Snapshot
        /// Observing never fails.
        public typealias Failure = Never

        let progress: TransferProgress

        /// Starts a new, independent observer.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(progress: progress)
        }

        /// One observer of a progress.
        public struct AsyncIterator: AsyncIteratorProtocol, Sendable {
            /// A snapshot of the progress.
            public typealias Element = Snapshot
            /// Observing never fails.
            public typealias Failure = Never

            let progress: TransferProgress
            var last: Snapshot?
            var isDone = false

            /// Waits until the progress differs from the last snapshot yielded, then returns its current snapshot.
            ///
            /// - Returns: The current snapshot, or `nil` after a terminal snapshot or once the task is cancelled.
            public mutating func next() async -> Snapshot? {
                await next(isolation: nil)
            }

            /// Waits until the progress differs from the last snapshot yielded, then returns its current snapshot.
            ///
            /// - Parameter actor: The actor to stay on while waiting.
            /// - Returns: The current snapshot, or `nil` after a terminal snapshot or once the task is cancelled.
            public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async -> Snapshot? {
                while !isDone {
                    if Task.isCancelled {
                        isDone = true
                        break
                    }
                    let current = progress.snapshot
                    if current != last {
                        last = current
                        isDone = current.isTerminal
                        return current
                    }
                    await progress.waitForChange(from: current, isolation: actor)
                }
                return nil
            }
        }
    }

    /// Suspends until this progress (or an armed descendant) changes, or the task is cancelled.
    ///
    /// Race-free by construction: the waiter is registered before the descendants are armed, and the snapshot is read
    /// again after both. A change that happened before a node was armed shows in that second read (and ends the wait at
    /// once); a change after it is forwarded to this node and resumes the waiter. Whoever removes the waiter from the
    /// state — a change, the second read, or task cancellation — resumes it, so it is resumed exactly once.
    func waitForChange(from expected: Snapshot, isolation actor: isolated (any Actor)?) async {
        let id = state.withLock { $0.makeID() }
        await withTaskCancellationHandler {
            await withUnsafeContinuation(isolation: actor) { (continuation: UnsafeContinuation<Void, Never>) in
                state.withLock { $0.addWaiter(id: id, continuation: continuation) }
                armDescendants()
                if Task.isCancelled || snapshot != expected {
                    resumeWaiter(id: id)
                }
            }
        } onCancel: {
            resumeWaiter(id: id)
        }
    }

    /// Resumes a waiter if it is still registered.
    func resumeWaiter(id: UInt64) {
        state.withLock { $0.removeWaiter(id: id) }?.continuation.resume()
    }
}

extension TransferProgress {
    /// The number of observers suspended on this node (tests use it to know an observer is waiting).
    var waitingObserverCount: Int {
        state.withLock { $0.waiters.count }
    }

    /// Whether the next change of this node will be forwarded to its parent (tests check it is cleared).
    var forwardsNextChange: Bool {
        state.withLock { $0.notifiesParent }
    }
}
