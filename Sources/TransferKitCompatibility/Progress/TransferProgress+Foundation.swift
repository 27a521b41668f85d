// The full Foundation on purpose: `Progress` is not in FoundationEssentials. Outside TransferKit itself, so that a
// program that does not import this module (the `transferkit` tool) links FoundationEssentials only.
public import Foundation

extension TransferProgress {
    /// Makes a Foundation `Progress` that mirrors this one, for APIs spelled with completion handlers.
    ///
    /// The mirror's counts follow this progress: a task observes `updates` and copies each snapshot's counts into
    /// it, so it lags by one task hop, never polls, and coalesces fast updates. A finished indeterminate progress is
    /// mirrored as 1 of 1 so that the mirror reports finished too. The mirror's `fractionCompleted` is its own
    /// `completedUnitCount / totalUnitCount`: the partial work of running children shows only once they finish.
    ///
    /// Calling `cancel()` on the mirror cancels this progress (Foundation runs the mirror's cancellation handler on a
    /// queue of its own, so this happens shortly after); cancelling this progress cancels the mirror.
    ///
    /// ```swift
    /// func loadData(completionHandler: @escaping @Sendable (Data?, (any Error)?) -> Void) -> Progress {
    ///     let progress = TransferProgress()
    ///     Task { … }   // the async load, reporting to `progress`
    ///     return progress.makeFoundationProgress()
    /// }
    /// ```
    ///
    /// The mirroring task holds this progress until it finishes or is cancelled, and stops at the next update once
    /// the mirror is released.
    ///
    /// - Returns: A new discrete `Progress` (not attached to `Progress.current()`).
    public func makeFoundationProgress() -> Foundation.Progress {
        makeFoundationMirror().progress
    }

    /// ``makeFoundationProgress()`` with the mirroring task, which tests await to see the last counts arrive.
    func makeFoundationMirror() -> (progress: Foundation.Progress, mirroring: Task<Void, Never>) {
        let mirror = Foundation.Progress.discreteProgress(totalUnitCount: 0)
        Self.copy(snapshot, to: mirror)
        mirror.isCancellable = true
        mirror.cancellationHandler = { [weak self] in
            self?.cancel()
        }
        let updates = self.updates
        let mirroring = Task { [weak mirror] in
            for await snapshot in updates {
                guard let mirror else { return }
                Self.copy(snapshot, to: mirror)
            }
        }
        return (mirror, mirroring)
    }

    private static func copy(_ snapshot: Snapshot, to mirror: Foundation.Progress) {
        if snapshot.isFinished && snapshot.totalUnitCount <= 0 {
            mirror.totalUnitCount = 1
            mirror.completedUnitCount = 1
        } else {
            mirror.totalUnitCount = snapshot.totalUnitCount
            mirror.completedUnitCount = snapshot.completedUnitCount
        }
        if snapshot.isCancelled && !mirror.isCancelled {
            mirror.cancel()
        }
    }
}
