import TransferKitPlatform
import UniformTypes

extension TransferProgress {
    /// Makes `child` part of this progress, standing for `units` of this progress's total.
    ///
    /// While the child runs, this progress's ``fractionCompleted`` counts `units × child.fractionCompleted`. When the
    /// child finishes, `units` are added to this progress's ``completedUnitCount`` and the child is detached: later
    /// changes to it no longer count here. If the child is already finished, the units are added at once. If this
    /// progress is cancelled, so is the child (now or when this progress is cancelled later).
    ///
    /// A progress has at most one parent. The call does nothing if `child` already had a parent, is this progress, or
    /// is one of its ancestors (which would make a cycle).
    ///
    /// ```swift
    /// let overall = TransferProgress(totalUnitCount: 100)
    /// let download = TransferProgress(totalUnitCount: Int64(byteCount))
    /// overall.addChild(download, withPendingUnitCount: 80)   // the download is 80 % of the job
    /// ```
    ///
    /// - Parameters:
    ///   - child: The progress of a part of the work.
    ///   - units: The units of this progress that the child accounts for; negative values count as zero.
    public func addChild(_ child: TransferProgress, withPendingUnitCount units: Int64) {
        guard !isSelfOrAncestor(child) else { return }
        let entry = StateMachine.Child(progress: child, pendingUnitCount: max(units, 0))
        // Listed here first, so that a child finishing right after its adoption finds itself in the list.
        let parentIsCancelled = state.withLock { $0.appendChild(entry) }
        switch child.state.withLock({ $0.adopt(by: self) }) {
        case .rejected:
            // The removed entry is dropped here, after the lock is released.
            _ = state.withLock { $0.removeChild(child) }
            return
        case .alreadyFinished:
            childDidFinish(child)
            return
        case .adopted:
            if parentIsCancelled {
                child.cancel()
            }
            // Observers of this progress (and armed ancestors) re-arm and so start to hear from the new child.
            perform(state.withLock { $0.didChange() })
        }
    }

    /// Creates a progress that stands for `units` of this progress's total and attaches it as a child.
    ///
    /// ```swift
    /// let overall = TransferProgress(totalUnitCount: 2)
    /// let first = overall.makeChild(withPendingUnitCount: 1, totalUnitCount: 10)
    /// first.advance(by: 5)          // overall.fractionCompleted == 0.25
    /// ```
    ///
    /// - Parameters:
    ///   - units: The units of this progress that the child accounts for.
    ///   - totalUnitCount: The child's own total; zero (the default) leaves it indeterminate until set.
    /// - Returns: The new child, already attached (and already cancelled if this progress is).
    public func makeChild(withPendingUnitCount units: Int64, totalUnitCount: Int64 = 0) -> TransferProgress {
        let child = TransferProgress(totalUnitCount: totalUnitCount)
        addChild(child, withPendingUnitCount: units)
        return child
    }

    /// Whether `other` is this progress or one of its ancestors.
    func isSelfOrAncestor(_ other: TransferProgress) -> Bool {
        var node: TransferProgress? = self
        while let current = node {
            if current === other {
                return true
            }
            node = current.state.withLock { $0.parent }
        }
        return false
    }

    /// Called by an armed child that changed: wake this node's observers, forward if armed.
    func childDidChange() {
        perform(state.withLock { $0.didChange() })
    }

    /// Called by a child that finished: fold its pending units into this node's count.
    func childDidFinish(_ child: TransferProgress) {
        perform(state.withLock { $0.childDidFinish(child) })
    }

    /// Asks every descendant to forward its next change up to this node.
    ///
    /// An observer calls it each time before it waits; the flags are cleared by the first change that uses them, so a
    /// busy or absent observer costs the updaters nothing.
    func armDescendants() {
        var pending = state.withLock { $0.children }
        while let child = pending.popLast() {
            pending.append(contentsOf: child.progress.state.withLock { $0.arm() })
        }
    }
}
