import Testing

@testable import TransferKit

/// Waits (without timing) until an observer is suspended on `progress`.
func waitUntilObserved(_ progress: TransferProgress, observers: Int = 1) async {
    while progress.waitingObserverCount < observers {
        await Task.yield()
    }
}

@Suite("TransferProgress updates", .timeLimit(.minutes(5)))
struct TransferProgressUpdatesTests {
    @Test("The first value is the current snapshot")
    func firstValueIsCurrent() async {
        let progress = TransferProgress(totalUnitCount: 8)
        progress.advance(by: 2)
        var iterator = progress.updates.makeAsyncIterator()
        let first = await iterator.next()
        #expect(first == progress.snapshot)
        #expect(first?.completedUnitCount == 2)
        #expect(first?.fractionCompleted == 0.25)
        #expect(first?.isTerminal == false)
    }

    @Test("Each iterator is an independent observer starting from the current state")
    func independentIterators() async {
        let progress = TransferProgress(totalUnitCount: 4)
        var early = progress.updates.makeAsyncIterator()
        #expect(await early.next()?.completedUnitCount == 0)
        progress.advance()
        var late = progress.updates.makeAsyncIterator()
        #expect(await late.next()?.completedUnitCount == 1)
        #expect(await early.next()?.completedUnitCount == 1)
    }

    @Test("A waiting observer is woken by an update and sees it")
    func wakesWaitingObserver() async {
        let progress = TransferProgress(totalUnitCount: 10)
        var iterator = progress.updates.makeAsyncIterator()
        _ = await iterator.next()
        let observer = Task { [iterator] in
            var iterator = iterator
            return await iterator.next()
        }
        await waitUntilObserved(progress)
        progress.advance(by: 3)
        let seen = await observer.value
        #expect(seen?.completedUnitCount == 3)
        #expect(progress.waitingObserverCount == 0)
    }

    @Test("A slow observer gets the latest state once, not a backlog of 10 000 updates")
    func coalescesUpdates() async {
        let progress = TransferProgress(totalUnitCount: 10_000)
        let sawFirst = Signal()
        let resume = Signal()
        let observer = Task {
            var seen: [TransferProgress.Snapshot] = []
            for await snapshot in progress.updates {
                seen.append(snapshot)
                if seen.count == 1 {
                    sawFirst.fire()
                    await resume.wait()  // busy while the updates happen
                }
            }
            return seen
        }
        await sawFirst.wait()
        for _ in 0..<10_000 {
            progress.advance()
        }
        resume.fire()
        let seen = await observer.value
        #expect(seen.count == 2)
        #expect(seen.first?.completedUnitCount == 0)
        #expect(seen.last?.completedUnitCount == 10_000)
        #expect(seen.last?.isFinished == true)
    }

    @Test("The sequence ends after the finished snapshot")
    func endsOnFinish() async {
        let progress = TransferProgress(totalUnitCount: 10)
        let sawFirst = Signal()
        let observer = Task {
            var seen: [TransferProgress.Snapshot] = []
            for await snapshot in progress.updates {
                seen.append(snapshot)
                if seen.count == 1 {
                    sawFirst.fire()
                }
            }
            return seen
        }
        await sawFirst.wait()
        progress.finish()
        let seen = await observer.value
        #expect(seen.last?.isFinished == true)
        #expect(seen.last?.completedUnitCount == 10)
        #expect(seen.dropLast().allSatisfy { !$0.isTerminal })
    }

    @Test("The sequence ends after the cancelled snapshot")
    func endsOnCancel() async {
        let progress = TransferProgress(totalUnitCount: 10)
        let sawFirst = Signal()
        let observer = Task {
            var seen: [TransferProgress.Snapshot] = []
            for await snapshot in progress.updates {
                seen.append(snapshot)
                if seen.count == 1 {
                    sawFirst.fire()
                }
            }
            return seen
        }
        await sawFirst.wait()
        progress.advance(by: 4)
        progress.cancel()
        let seen = await observer.value
        #expect(seen.last?.isCancelled == true)
        #expect(seen.last?.completedUnitCount == 4)
        #expect(!seen.dropLast().contains { $0.isTerminal })
    }

    @Test("A terminal progress yields its snapshot once, then ends")
    func terminalProgressYieldsOnce() async {
        let progress = TransferProgress(totalUnitCount: 1)
        progress.cancel()
        var seen: [TransferProgress.Snapshot] = []
        for await snapshot in progress.updates {
            seen.append(snapshot)
        }
        #expect(seen == [progress.snapshot])
    }

    @Test("An observer of the root hears a change two levels down, and only while it waits")
    func grandchildChangeReachesWaitingRootObserver() async {
        let root = TransferProgress(totalUnitCount: 10)
        let child = root.makeChild(withPendingUnitCount: 10, totalUnitCount: 2)
        let grandchild = child.makeChild(withPendingUnitCount: 2, totalUnitCount: 4)
        var iterator = root.updates.makeAsyncIterator()
        _ = await iterator.next()
        #expect(!grandchild.forwardsNextChange)

        let observer = Task { [iterator] in
            var iterator = iterator
            return await iterator.next()
        }
        await waitUntilObserved(root)
        #expect(grandchild.forwardsNextChange)
        #expect(child.forwardsNextChange)
        grandchild.advance()  // grandchild 1/4 → child 0.25 → root 0.25
        let seen = await observer.value
        #expect(seen?.fractionCompleted == 0.25)
        #expect(seen?.completedUnitCount == 0)
        // Nobody waits now: the next changes stay local.
        #expect(!grandchild.forwardsNextChange)
        #expect(!child.forwardsNextChange)
    }

    @Test("One change wakes observers of the node and of its ancestors")
    func wakesObserversAtEveryLevel() async {
        let root = TransferProgress(totalUnitCount: 2)
        let child = root.makeChild(withPendingUnitCount: 2, totalUnitCount: 4)
        var rootIterator = root.updates.makeAsyncIterator()
        var childIterator = child.updates.makeAsyncIterator()
        _ = await rootIterator.next()
        _ = await childIterator.next()
        let rootObserver = Task { [rootIterator] in
            var iterator = rootIterator
            return await iterator.next()
        }
        let childObserver = Task { [childIterator] in
            var iterator = childIterator
            return await iterator.next()
        }
        await waitUntilObserved(root)
        await waitUntilObserved(child)
        child.advance(by: 2)
        #expect(await rootObserver.value?.fractionCompleted == 0.5)
        #expect(await childObserver.value?.completedUnitCount == 2)
    }

    @Test("A child added while the parent's observer waits is heard from")
    func childAddedWhileObserving() async {
        let root = TransferProgress(totalUnitCount: 2)
        var iterator = root.updates.makeAsyncIterator()
        _ = await iterator.next()
        let child = TransferProgress(totalUnitCount: 2)
        let observer = Task { [iterator] in
            var iterator = iterator
            var seen: [TransferProgress.Snapshot] = []
            while let snapshot = await iterator.next() {
                seen.append(snapshot)
            }
            return seen
        }
        await waitUntilObserved(root)
        root.addChild(child, withPendingUnitCount: 2)
        await waitUntilObserved(root)
        child.advance()
        child.advance()
        let seen = await observer.value
        #expect(seen.last?.isFinished == true)
        #expect(seen.last?.fractionCompleted == 1)
    }

    @Test("Cancelling the observing task ends the sequence and unregisters the observer")
    func observerTaskCancellation() async {
        let progress = TransferProgress(totalUnitCount: 10)
        let observer = Task {
            var count = 0
            for await _ in progress.updates {
                count += 1
            }
            return count
        }
        await waitUntilObserved(progress)
        observer.cancel()
        #expect(await observer.value == 1)
        #expect(progress.waitingObserverCount == 0)
        #expect(!progress.isCancelled)
    }

    @Test("Many concurrent updaters and observers all end with the final state")
    func concurrentUpdatersAndObservers() async {
        let childCount = 4
        let chunks: Int64 = 2_000
        let root = TransferProgress(totalUnitCount: Int64(childCount))
        let children = (0..<childCount).map { _ in
            root.makeChild(withPendingUnitCount: 1, totalUnitCount: chunks)
        }
        await withTaskGroup(of: TransferProgress.Snapshot?.self) { group in
            for node in [root, root, root] + children {
                group.addTask {
                    var last: TransferProgress.Snapshot?
                    for await snapshot in node.updates {
                        // Coalesced, but never backwards.
                        #expect(snapshot.fractionCompleted >= (last?.fractionCompleted ?? 0) - 1e-9)
                        last = snapshot
                    }
                    return last
                }
            }
            for child in children {
                group.addTask {
                    for _ in 0..<chunks {
                        child.advance()
                        _ = root.fractionCompleted
                    }
                    return nil
                }
            }
            for await last in group {
                guard let last else { continue }
                #expect(last.isFinished)
                #expect(last.fractionCompleted == 1)
            }
        }
        #expect(root.completedUnitCount == Int64(childCount))
        #expect(root.isFinished)
    }
}
