import Testing
import TransferKit

@Suite("TransferProgress counts, fractions and children", .timeLimit(.minutes(5)))
struct TransferProgressCountingTests {
    @Test("A loader of 10 chunks moves the fraction by a tenth per chunk and finishes")
    func chunkedLoader() {
        let progress = TransferProgress(totalUnitCount: 10)
        #expect(progress.fractionCompleted == 0)
        #expect(!progress.isFinished)
        #expect(!progress.isIndeterminate)
        for chunk in 1...10 {
            #expect(!progress.isFinished)
            progress.advance()
            #expect(progress.completedUnitCount == Int64(chunk))
            #expect(progress.fractionCompleted == Double(chunk) / 10)
        }
        #expect(progress.isFinished)
        #expect(progress.snapshot.isFinished)
    }

    @Test("A zero or negative total is indeterminate until a positive total is set", arguments: [0, -1] as [Int64])
    func indeterminateUntilTotalIsSet(total: Int64) {
        let progress = TransferProgress(totalUnitCount: total)
        #expect(progress.isIndeterminate)
        progress.advance(by: 5)
        #expect(progress.isIndeterminate)
        #expect(!progress.isFinished)
        #expect(progress.fractionCompleted == 0)
        #expect(progress.snapshot.isIndeterminate)

        progress.totalUnitCount = 20
        #expect(!progress.isIndeterminate)
        #expect(progress.fractionCompleted == 0.25)
        #expect(!progress.snapshot.isIndeterminate)
    }

    @Test("Setting the completed count replaces it; the fraction stays within 0...1")
    func fractionIsClamped() {
        let progress = TransferProgress(totalUnitCount: 4)
        progress.completedUnitCount = 3
        #expect(progress.fractionCompleted == 0.75)
        progress.completedUnitCount = -2
        #expect(progress.fractionCompleted == 0)
        progress.completedUnitCount = 9
        #expect(progress.fractionCompleted == 1)
        #expect(progress.isFinished)
    }

    @Test("Advancing saturates instead of overflowing")
    func advanceSaturates() {
        let progress = TransferProgress(totalUnitCount: 1)
        progress.advance(by: .max)
        progress.advance(by: .max)
        #expect(progress.completedUnitCount == .max)
        progress.completedUnitCount = -1
        progress.advance(by: .min)
        #expect(progress.completedUnitCount == .min)
    }

    @Test("finish() sets completed to total and marks the progress finished")
    func finishCompletes() {
        let progress = TransferProgress(totalUnitCount: 10)
        progress.advance(by: 3)
        progress.finish()
        #expect(progress.isFinished)
        #expect(progress.completedUnitCount == 10)
        #expect(progress.fractionCompleted == 1)
    }

    @Test("finish() finishes an indeterminate progress too")
    func finishIndeterminate() {
        let progress = TransferProgress()
        progress.finish()
        #expect(progress.isFinished)
        #expect(!progress.isIndeterminate)
        #expect(progress.fractionCompleted == 1)
        #expect(progress.snapshot.isTerminal)
    }

    @Test("Children two levels deep count by their pending units, partial and finished")
    func nestedChildren() {
        let root = TransferProgress(totalUnitCount: 100)
        root.advance(by: 10)
        let first = root.makeChild(withPendingUnitCount: 40, totalUnitCount: 4)
        let second = root.makeChild(withPendingUnitCount: 50, totalUnitCount: 10)
        let firstA = first.makeChild(withPendingUnitCount: 2, totalUnitCount: 10)
        let firstB = first.makeChild(withPendingUnitCount: 2)  // indeterminate: counts 0 until finished
        #expect(root.fractionCompleted == 0.1)

        firstA.advance(by: 5)  // first: (0 + 2 × 0.5) / 4 = 0.25
        #expect(first.fractionCompleted == 0.25)
        #expect(root.fractionCompleted == 0.2)  // (10 + 40 × 0.25) / 100
        #expect(root.completedUnitCount == 10)

        second.advance(by: 5)
        #expect(root.fractionCompleted == 0.45)  // (10 + 10 + 50 × 0.5) / 100

        firstB.finish()  // folds 2 units into first
        #expect(first.completedUnitCount == 2)
        #expect(first.fractionCompleted == 0.75)
        #expect(root.fractionCompleted == 0.65)

        firstA.advance(by: 5)  // firstA finishes, so does first: 40 units fold into root
        #expect(first.isFinished)
        #expect(root.completedUnitCount == 50)
        #expect(root.fractionCompleted == 0.75)
        #expect(!root.isFinished)

        second.finish()
        #expect(root.completedUnitCount == 100)
        #expect(root.isFinished)
        #expect(root.fractionCompleted == 1)
    }

    @Test("A finished child is detached: later changes to it do not count")
    func finishedChildIsDetached() {
        let root = TransferProgress(totalUnitCount: 10)
        let child = root.makeChild(withPendingUnitCount: 5, totalUnitCount: 1)
        child.advance()
        #expect(root.completedUnitCount == 5)
        child.totalUnitCount = 100
        child.advance()
        #expect(root.completedUnitCount == 5)
        #expect(root.fractionCompleted == 0.5)
    }

    @Test("Adding a child that already finished counts its pending units at once")
    func addFinishedChild() {
        let root = TransferProgress(totalUnitCount: 10)
        let child = TransferProgress(totalUnitCount: 3)
        child.finish()
        root.addChild(child, withPendingUnitCount: 4)
        #expect(root.completedUnitCount == 4)
        #expect(root.fractionCompleted == 0.4)
    }

    @Test("A child joins at most one parent, never itself or an ancestor")
    func addChildRejectsSecondParentAndCycles() {
        let root = TransferProgress(totalUnitCount: 10)
        let other = TransferProgress(totalUnitCount: 10)
        let child = root.makeChild(withPendingUnitCount: 10, totalUnitCount: 2)
        other.addChild(child, withPendingUnitCount: 10)
        child.addChild(root, withPendingUnitCount: 1)
        child.addChild(child, withPendingUnitCount: 1)
        child.advance()
        #expect(root.fractionCompleted == 0.5)
        #expect(other.fractionCompleted == 0)
        #expect(child.fractionCompleted == 0.5)
        child.advance()
        #expect(root.isFinished)
        #expect(!other.isFinished)
    }

    @Test("Negative pending units count as zero")
    func negativePendingUnits() {
        let root = TransferProgress(totalUnitCount: 10)
        let child = root.makeChild(withPendingUnitCount: -5, totalUnitCount: 2)
        child.advance()
        #expect(root.fractionCompleted == 0)
        child.advance()
        #expect(root.completedUnitCount == 0)
    }

    @Test("A parent owns running children; a child does not keep its parent alive; finished children are released")
    func ownership() {
        weak var weakRoot: TransferProgress?
        weak var weakChild: TransferProgress?
        let survivor: TransferProgress
        do {
            let root = TransferProgress(totalUnitCount: 2)
            weakRoot = root
            do {
                let child = root.makeChild(withPendingUnitCount: 1, totalUnitCount: 1)
                weakChild = child
            }
            #expect(weakChild != nil)  // owned by root
            weakChild?.finish()
            #expect(weakChild == nil)  // folded and released
            survivor = root.makeChild(withPendingUnitCount: 1, totalUnitCount: 2)
            #expect(weakRoot != nil)
        }
        #expect(weakRoot == nil)
        survivor.advance(by: 2)  // its parent is gone: nothing to tell
        #expect(survivor.isFinished)
    }
}
