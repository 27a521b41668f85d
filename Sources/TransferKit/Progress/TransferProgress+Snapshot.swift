import TransferKitPlatform
import UniformTypes

extension TransferProgress {
    /// The state of a progress at one moment, as observers receive it.
    ///
    /// Two snapshots are equal when every field is; ``updates`` yields a snapshot only when it differs from the one
    /// it yielded before.
    public struct Snapshot: Sendable, Hashable, CustomStringConvertible {
        /// The units of work to do; zero or negative while unknown.
        public var totalUnitCount: Int64
        /// The units of work done, including the pending units of finished children.
        public var completedUnitCount: Int64
        /// The share of the work done, in `0...1`, including the partial work of running children.
        public var fractionCompleted: Double
        /// Whether the work is done.
        public var isFinished: Bool
        /// Whether the work was cancelled.
        public var isCancelled: Bool
        /// Whether the total is not known yet.
        public var isIndeterminate: Bool

        /// Creates a snapshot from its fields (for tests and for adapters of other progress types).
        ///
        /// - Parameters:
        ///   - totalUnitCount: The units of work to do.
        ///   - completedUnitCount: The units of work done.
        ///   - fractionCompleted: The share of the work done, in `0...1`.
        ///   - isFinished: Whether the work is done.
        ///   - isCancelled: Whether the work was cancelled.
        ///   - isIndeterminate: Whether the total is not known yet.
        public init(
            totalUnitCount: Int64, completedUnitCount: Int64, fractionCompleted: Double, isFinished: Bool,
            isCancelled: Bool, isIndeterminate: Bool
        ) {
            self.totalUnitCount = totalUnitCount
            self.completedUnitCount = completedUnitCount
            self.fractionCompleted = fractionCompleted
            self.isFinished = isFinished
            self.isCancelled = isCancelled
            self.isIndeterminate = isIndeterminate
        }

        /// Whether no later snapshot will follow in ``TransferProgress/updates``: the work finished or was cancelled.
        public var isTerminal: Bool {
            isFinished || isCancelled
        }

        /// A short summary such as `3/10 (0.3)` or `indeterminate, cancelled`.
        public var description: String {
            var text =
                isIndeterminate ? "indeterminate" : "\(completedUnitCount)/\(totalUnitCount) (\(fractionCompleted))"
            if isFinished {
                text += ", finished"
            }
            if isCancelled {
                text += ", cancelled"
            }
            return text
        }
    }

    /// The current state, with the fraction computed from this progress and its running children.
    ///
    /// Each node of the tree is read under its own lock, one after the other; a snapshot taken while children change
    /// mixes moments, as Foundation's `fractionCompleted` does. It is consistent for this node's own fields.
    public var snapshot: Snapshot {
        let (node, children) = state.withLock { state in
            (NodeCounts(state), state.children)
        }
        return Snapshot(
            totalUnitCount: node.total,
            completedUnitCount: node.completed,
            fractionCompleted: Self.fraction(of: node, children: children),
            isFinished: node.isFinished,
            isCancelled: node.isCancelled,
            isIndeterminate: node.total <= 0 && !node.isFinished
        )
    }

    /// The share of the work done, in `0...1`.
    ///
    /// It is `completedUnitCount / totalUnitCount` plus, for each running child, its pending units times its own
    /// fraction, divided by the total; 1 once finished and 0 while indeterminate. It is computed when read, so updates
    /// of children cost their parents nothing.
    ///
    /// ```swift
    /// let overall = TransferProgress(totalUnitCount: 10)
    /// overall.advance(by: 4)
    /// let child = overall.makeChild(withPendingUnitCount: 6, totalUnitCount: 2)
    /// child.advance()               // overall.fractionCompleted == (4 + 6 × 0.5) / 10 == 0.7
    /// ```
    public var fractionCompleted: Double {
        let (node, children) = state.withLock { state in
            (NodeCounts(state), state.children)
        }
        return Self.fraction(of: node, children: children)
    }

    /// The counts of one node, copied out of its lock.
    struct NodeCounts {
        let total: Int64
        let completed: Int64
        let isFinished: Bool
        let isCancelled: Bool

        init(_ state: borrowing StateMachine) {
            total = state.totalUnitCount
            completed = state.completedUnitCount
            isFinished = state.isFinished
            isCancelled = state.isCancelled
        }
    }

    static func fraction(of node: NodeCounts, children: [StateMachine.Child]) -> Double {
        if node.isFinished {
            return 1
        }
        guard node.total > 0 else { return 0 }
        var done = Double(node.completed)
        for child in children where child.pendingUnitCount > 0 {
            done += Double(child.pendingUnitCount) * child.progress.fractionCompleted
        }
        return min(max(done / Double(node.total), 0), 1)
    }
}
