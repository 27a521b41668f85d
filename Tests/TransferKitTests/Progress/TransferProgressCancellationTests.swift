import Synchronization
import Testing
import TransferKit

@Suite("TransferProgress cancellation", .timeLimit(.minutes(5)))
struct TransferProgressCancellationTests {
    struct LoaderError: Error, Equatable {}

    @Test("cancel() is idempotent and runs each handler once")
    func cancelIsIdempotent() {
        let progress = TransferProgress(totalUnitCount: 10)
        let runs = Counter()
        progress.onCancel { runs.increment() }
        progress.onCancel { runs.increment() }
        #expect(!progress.isCancelled)
        progress.cancel()
        progress.cancel()
        #expect(progress.isCancelled)
        #expect(progress.snapshot.isCancelled)
        #expect(runs.value == 2)
    }

    @Test("cancel() reaches children and grandchildren, not the parent, and children added later")
    func cancelPropagatesDown() {
        let root = TransferProgress(totalUnitCount: 10)
        let child = root.makeChild(withPendingUnitCount: 5)
        let grandchild = child.makeChild(withPendingUnitCount: 1)
        let sibling = root.makeChild(withPendingUnitCount: 5)
        let grandchildRuns = Counter()
        grandchild.onCancel { grandchildRuns.increment() }

        child.cancel()
        #expect(child.isCancelled)
        #expect(grandchild.isCancelled)
        #expect(grandchildRuns.value == 1)
        #expect(!root.isCancelled)
        #expect(!sibling.isCancelled)

        root.cancel()
        #expect(sibling.isCancelled)
        #expect(grandchildRuns.value == 1)
        #expect(root.makeChild(withPendingUnitCount: 1).isCancelled)
    }

    @Test("Every progress of the tree is cancelled before any handler runs; a parent's handlers run first")
    func treeMarkedBeforeHandlers() {
        // A handler may wake a task (withCancellation's does) that at once looks at a child or grandchild, on
        // another thread: that progress must already say it is cancelled.
        let root = TransferProgress(totalUnitCount: 2)
        let child = root.makeChild(withPendingUnitCount: 1)
        let grandchild = child.makeChild(withPendingUnitCount: 1)
        let sibling = root.makeChild(withPendingUnitCount: 1)
        let seen = Mutex<[String]>([])
        for (name, progress) in [("root", root), ("child", child), ("grandchild", grandchild), ("sibling", sibling)] {
            progress.onCancel {
                let tree = [root, child, grandchild, sibling].map(\.isCancelled)
                seen.withLock { $0.append("\(name) \(tree.allSatisfy { $0 })") }
            }
        }
        root.cancel()
        #expect(seen.withLock { $0 } == ["root true", "child true", "grandchild true", "sibling true"])
    }

    @Test("A handler registered after cancellation runs at once, before onCancel returns")
    func handlerAfterCancellation() {
        let progress = TransferProgress()
        progress.cancel()
        let runs = Counter()
        let registration = progress.onCancel { runs.increment() }
        #expect(runs.value == 1)
        #expect(!registration.remove())
        progress.cancel()
        #expect(runs.value == 1)
    }

    @Test("A removed handler never runs; removing twice or after it ran reports false")
    func removeHandler() {
        let progress = TransferProgress()
        let removedRuns = Counter()
        let keptRuns = Counter()
        let removed = progress.onCancel { removedRuns.increment() }
        let kept = progress.onCancel { keptRuns.increment() }
        #expect(removed.remove())
        #expect(!removed.remove())
        progress.cancel()
        #expect(removedRuns.value == 0)
        #expect(keptRuns.value == 1)
        #expect(!kept.remove())
    }

    @Test("A removed handler's captures are released; a registration does not keep the progress alive")
    func removalReleasesCaptures() {
        final class Resource: Sendable {}
        weak var weakResource: Resource?
        weak var weakProgress: TransferProgress?
        let registration: TransferProgress.CancellationRegistration
        do {
            let progress = TransferProgress()
            weakProgress = progress
            registration = {
                let resource = Resource()
                weakResource = resource
                return progress.onCancel { withExtendedLifetime(resource) {} }
            }()
            #expect(weakResource != nil)
            registration.remove()
            #expect(weakResource == nil)
        }
        #expect(weakProgress == nil)
        #expect(!registration.remove())
    }

    @Test("Handlers may use the progress: they run outside its lock")
    func handlerCanUseProgress() {
        let progress = TransferProgress(totalUnitCount: 4)
        let sawCancelled = Counter()
        progress.onCancel {
            if progress.isCancelled && progress.snapshot.isCancelled {
                sawCancelled.increment()
            }
            progress.advance()
        }
        progress.cancel()
        #expect(sawCancelled.value == 1)
        #expect(progress.completedUnitCount == 1)
    }

    @Test("checkCancellation() throws CancellationError once cancelled")
    func checkCancellation() throws {
        let progress = TransferProgress()
        try progress.checkCancellation()
        progress.cancel()
        #expect(throws: CancellationError.self) {
            try progress.checkCancellation()
        }
    }

    @Test("Cancelling the calling task cancels the progress and the body; the caller gets CancellationError")
    func taskCancellationCancelsProgress() async {
        let progress = TransferProgress(totalUnitCount: 1)
        let started = Signal()
        let bodySawCancellation = Counter()
        let load = Task {
            try await progress.withCancellation {
                started.fire()
                await suspendUntilCancelled()
                if Task.isCancelled {
                    bodySawCancellation.increment()
                }
                try Task.checkCancellation()
                return 1
            }
        }
        await started.wait()
        #expect(!progress.isCancelled)
        load.cancel()
        let result = await load.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(progress.isCancelled)
        #expect(bodySawCancellation.value == 1)
    }

    @Test("Cancelling the progress cancels the task running the body; the caller gets CancellationError")
    func progressCancellationCancelsBody() async {
        let progress = TransferProgress(totalUnitCount: 1)
        let started = Signal()
        let bodySawCancellation = Counter()
        let load = Task {
            try await progress.withCancellation {
                started.fire()
                await suspendUntilCancelled()
                if Task.isCancelled {
                    bodySawCancellation.increment()
                }
                return 1  // ignores cancellation: the caller must still see it
            }
        }
        await started.wait()
        progress.cancel()
        let result = await load.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(bodySawCancellation.value == 1)
        #expect(!load.isCancelled)
    }

    @Test("withCancellation returns the body's value, or rethrows its error, when nothing is cancelled")
    func withCancellationPassesThrough() async throws {
        let progress = TransferProgress(totalUnitCount: 1)
        let value = try await progress.withCancellation {
            progress.advance()
            return 42
        }
        #expect(value == 42)
        await #expect(throws: LoaderError.self) {
            try await progress.withCancellation { () async throws -> Int in throw LoaderError() }
        }
        #expect(!progress.isCancelled)
    }

    @Test("withCancellation on a cancelled progress, or in a cancelled task, does not run the body")
    func withCancellationWhenAlreadyCancelled() async {
        let runs = Counter()
        let cancelled = TransferProgress()
        cancelled.cancel()
        await #expect(throws: CancellationError.self) {
            try await cancelled.withCancellation { runs.increment() }
        }

        let progress = TransferProgress()
        let gate = Signal()
        let load = Task {
            await gate.wait()  // returns at once: the task is cancelled before it gets here or while waiting
            return try await progress.withCancellation { runs.increment() }
        }
        load.cancel()
        gate.fire()
        let result = await load.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(progress.isCancelled)
        #expect(runs.value == 0)
    }
}
