extension TransferProgress {
    /// The mutable state of one progress node, kept behind the node's `Mutex`.
    ///
    /// Every method runs under the lock, touches only this node and returns what the caller must do once the lock is
    /// released (resume continuations, notify the parent, run handlers, cancel children, drop references). Nothing here
    /// calls out: no continuation is resumed, no handler runs and no other node is locked while this state is held, so
    /// handlers and observers may call back into any progress without deadlocking, and no two locks are ever held at
    /// once.
    ///
    /// Propagation to ancestors is demand-driven. A parent never stores its children's progress; it computes its
    /// fraction from them when read. An observer that is about to wait on a node sets ``notifiesParent`` on every
    /// descendant of that node ("arming" them). A change to an armed node clears its flag and forwards one notification
    /// to its parent, which wakes its own waiting observers and, if it is armed too, forwards further. A change to an
    /// unarmed node touches nothing but this state, which keeps the per-chunk update at one uncontended lock.
    struct StateMachine {
        /// A child together with the units of this node it stands for.
        struct Child {
            let progress: TransferProgress
            let pendingUnitCount: Int64
        }

        /// An observer suspended until this node (or an armed descendant) changes.
        struct Waiter {
            let id: UInt64
            let continuation: UnsafeContinuation<Void, Never>
        }

        /// A registered cancellation handler.
        struct Handler {
            let id: UInt64
            let body: @Sendable () -> Void
        }

        /// Whom to tell after a change, once the lock is released.
        enum ParentNotification {
            /// The node changed; the parent wakes its observers and forwards if armed.
            case changed(TransferProgress)
            /// The node finished; the parent folds the child's pending units into its own completed count.
            case finished(TransferProgress)
        }

        /// What to do after a change, outside the lock.
        struct ChangeAction {
            var waiters: [Waiter] = []
            var parent: ParentNotification?
            /// References dropped outside the lock, so that no deinitializer runs while it is held.
            var released: [Child] = []
        }

        /// What to do after ``cancel()``, outside the lock.
        struct CancelAction {
            var change: ChangeAction
            var handlers: [Handler]
            var children: [Child]
        }

        /// The outcome of offering this node to a parent.
        enum Adoption {
            /// The node already has (or had) a parent; nothing changed.
            case rejected
            /// The node is now a child of the parent.
            case adopted
            /// The node was already finished: the parent folds its pending units at once.
            case alreadyFinished
        }

        var totalUnitCount: Int64
        var completedUnitCount: Int64 = 0
        var isExplicitlyFinished = false
        var isCancelled = false
        /// Set once the node has been seen finished; from then on it is detached from its parent.
        var hasReportedFinish = false
        /// Set once the node has been offered to a parent, so that it never joins two trees.
        var hasBeenAdopted = false
        /// Forward the next change to the parent: an observer of some ancestor may be waiting.
        var notifiesParent = false
        weak var parent: TransferProgress?
        var children: [Child] = []
        var waiters: [Waiter] = []
        var handlers: [Handler] = []
        var nextID: UInt64 = 1

        init(totalUnitCount: Int64) {
            self.totalUnitCount = totalUnitCount
        }

        var isFinished: Bool {
            isExplicitlyFinished || (totalUnitCount > 0 && completedUnitCount >= totalUnitCount)
        }

        // MARK: Changes

        /// Collects the work that follows any change of this node's counts or states.
        mutating func didChange() -> ChangeAction {
            var action = ChangeAction()
            if !waiters.isEmpty {
                swap(&action.waiters, &waiters)
            }
            if !hasReportedFinish && isFinished {
                hasReportedFinish = true
                notifiesParent = false
                if let parent {
                    action.parent = .finished(parent)
                }
                parent = nil
            } else if notifiesParent {
                notifiesParent = false
                if let parent {
                    action.parent = .changed(parent)
                }
            }
            return action
        }

        mutating func setTotalUnitCount(_ units: Int64) -> ChangeAction {
            totalUnitCount = units
            return didChange()
        }

        mutating func setCompletedUnitCount(_ units: Int64) -> ChangeAction {
            completedUnitCount = units
            return didChange()
        }

        mutating func advance(by units: Int64) -> ChangeAction {
            completedUnitCount = completedUnitCount.saturatingAdding(units)
            return didChange()
        }

        mutating func finish() -> ChangeAction {
            if totalUnitCount > 0 && completedUnitCount < totalUnitCount {
                completedUnitCount = totalUnitCount
            }
            isExplicitlyFinished = true
            var action = didChange()
            // A finished node reports fraction 1 whatever its children do: let them go.
            swap(&action.released, &children)
            return action
        }

        mutating func cancel() -> CancelAction? {
            guard !isCancelled else { return nil }
            isCancelled = true
            var handlers: [Handler] = []
            swap(&handlers, &self.handlers)
            return CancelAction(change: didChange(), handlers: handlers, children: children)
        }

        // MARK: Cancellation handlers

        /// Stores a handler and returns its identifier, or returns `nil` when the node is already cancelled.
        mutating func addHandler(_ body: @escaping @Sendable () -> Void) -> UInt64? {
            guard !isCancelled else { return nil }
            let id = makeID()
            handlers.append(Handler(id: id, body: body))
            return id
        }

        /// Removes a handler that has not run yet; the caller drops it outside the lock.
        mutating func removeHandler(id: UInt64) -> Handler? {
            guard let index = handlers.firstIndex(where: { $0.id == id }) else { return nil }
            return handlers.remove(at: index)
        }

        // MARK: Observers

        mutating func makeID() -> UInt64 {
            defer { nextID &+= 1 }
            return nextID
        }

        mutating func addWaiter(id: UInt64, continuation: UnsafeContinuation<Void, Never>) {
            waiters.append(Waiter(id: id, continuation: continuation))
        }

        /// Removes a waiter that nobody has resumed yet; whoever removes it resumes it, exactly once.
        mutating func removeWaiter(id: UInt64) -> Waiter? {
            guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return waiters.remove(at: index)
        }

        /// Asks this node to forward its next change upwards and returns its children, to be armed in turn.
        mutating func arm() -> [Child] {
            if parent != nil {
                notifiesParent = true
            }
            return children
        }

        // MARK: Children

        /// Adds a child on the parent's side and returns whether the parent is cancelled (the child must follow).
        mutating func appendChild(_ child: Child) -> Bool {
            children.append(child)
            return isCancelled
        }

        /// Undoes ``appendChild(_:)`` when the child refused adoption.
        mutating func removeChild(_ child: TransferProgress) -> Child? {
            guard let index = children.firstIndex(where: { $0.progress === child }) else { return nil }
            return children.remove(at: index)
        }

        /// Offers this node to a parent (on the child's side).
        mutating func adopt(by newParent: TransferProgress) -> Adoption {
            guard !hasBeenAdopted else { return .rejected }
            hasBeenAdopted = true
            if hasReportedFinish || isFinished {
                hasReportedFinish = true
                return .alreadyFinished
            }
            parent = newParent
            return .adopted
        }

        /// Folds a finished child's pending units into this node's completed count.
        mutating func childDidFinish(_ child: TransferProgress) -> ChangeAction {
            guard let removed = removeChild(child) else { return ChangeAction() }
            completedUnitCount = completedUnitCount.saturatingAdding(removed.pendingUnitCount)
            var action = didChange()
            action.released.append(removed)
            return action
        }
    }
}

extension Int64 {
    /// `self + other`, pinned to the representable range instead of trapping.
    func saturatingAdding(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? .max : .min
    }
}
