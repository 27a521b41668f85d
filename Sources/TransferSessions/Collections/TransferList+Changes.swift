import TransferKitPlatform

extension TransferList {
    /// One change of a list, as a table view animates it: the difference, why it happened, and the elements after
    /// it.
    public struct Change: Sendable {
        /// Why a list changed.
        public enum Cause: Sendable, Hashable {
            /// The app's own ``TransferList/edit(_:)``.
            case edited
            /// A drop on this list inserted elements, or moved them within it (a reorder), for the session.
            case dropped(DragSession.ID)
            /// The destination of the session's move committed, in this process or another, and the list removed
            /// the moved elements: the source's side of a move.
            case movedAway(DragSession.ID)
            /// A stored list took back the elements a move had brought, because the decision record says the move
            /// was aborted (the source kept them).
            case undone(DragSession.ID)
        }

        /// Why the list changed.
        public var cause: Cause
        /// The change, elements matched by identity, with moves inferred: apply it as batch updates
        /// (`deleteRows`, `insertRows`, `moveRow`).
        public var difference: CollectionDifference<Element>
        /// The elements after the change.
        public var elements: [Element]
    }

    /// Every change of the list from now on, in the order they happen: drops on it, the removals of moves that
    /// took elements elsewhere (when the other process commits, for a drag published to one), settled moves and
    /// the app's edits. A change that leaves the elements as they were is not reported.
    ///
    /// Each call gives a stream of its own; it ends when the list is gone, and stops being fed when its task is
    /// cancelled. Nothing is dropped from it, so read it steadily. To show the list and then animate its changes
    /// without missing or repeating one, use ``elementsAndChanges()``.
    ///
    /// ```swift
    /// Task { @MainActor in
    ///     for await change in cards.changes() where change.cause != .edited {
    ///         table.apply(change.difference)   // seed 000's deleteRows, on the source's table too
    ///     }
    /// }
    /// ```
    public func changes() -> AsyncStream<Change> {
        elementsAndChanges().changes
    }

    /// The elements now and a stream of every change after them (as ``changes()``), taken at one instant: what a
    /// table view shows first and then animates.
    /// - Returns: The elements, and the stream of the changes that follow them.
    public func elementsAndChanges() -> (elements: [Element], changes: AsyncStream<Change>) {
        let (stream, continuation) = AsyncStream.makeStream(of: Change.self)
        let elements = state.withLock { state in
            let key = state.nextSubscriber
            state.nextSubscriber += 1
            state.subscribers[key] = continuation
            continuation.onTermination = { [weak self] _ in
                self?.state.withLock { _ = $0.subscribers.removeValue(forKey: key) }
            }
            return state.elements
        }
        return (elements, stream)
    }
}
