import Foundation
import Testing

@testable import TransferKitCompatibility

@Suite("TransferProgress Foundation bridge", .timeLimit(.minutes(5)))
struct TransferProgressFoundationTests {
    @Test("The mirror starts with the current counts and follows them to the end")
    func mirrorsCounts() async {
        let progress = TransferProgress(totalUnitCount: 8)
        progress.advance(by: 3)
        let (mirror, mirroring) = progress.makeFoundationMirror()
        #expect(mirror.totalUnitCount == 8)
        #expect(mirror.completedUnitCount == 3)
        progress.totalUnitCount = 10
        progress.advance(by: 2)
        progress.finish()
        await mirroring.value
        #expect(mirror.totalUnitCount == 10)
        #expect(mirror.completedUnitCount == 10)
        #expect(mirror.isFinished)
        #expect(mirror.fractionCompleted == 1)
    }

    @Test("A finished indeterminate progress is mirrored as finished")
    func mirrorsIndeterminateFinish() async {
        let progress = TransferProgress()
        let (mirror, mirroring) = progress.makeFoundationMirror()
        #expect(mirror.isIndeterminate)
        progress.finish()
        await mirroring.value
        #expect(mirror.isFinished)
    }

    @Test("Cancelling the mirror cancels the progress")
    func mirrorCancelsProgress() async {
        let progress = TransferProgress(totalUnitCount: 4)
        let mirror = progress.makeFoundationProgress()
        #expect(mirror.totalUnitCount == 4)
        #expect(mirror.isCancellable)
        await withCheckedContinuation { continuation in
            progress.onCancel { continuation.resume() }
            mirror.cancel()
        }
        #expect(progress.isCancelled)
    }

    @Test("Cancelling the progress cancels the mirror")
    func progressCancelsMirror() async {
        let progress = TransferProgress(totalUnitCount: 4)
        let (mirror, mirroring) = progress.makeFoundationMirror()
        progress.cancel()
        await mirroring.value
        #expect(mirror.isCancelled)
    }
}
