import Foundation
import TransferDisplayTestSupport
import TransferKitPlatform
import TransferKitTestSupport

@testable import TransferClipboard
@testable import TransferDesktop
@testable import TransferDisplay

extension X11DesktopWindow {
    /// Starts dragging `offer` from the window on a task of its own and returns that task once the drag waits for the
    /// pointer (a press then begins it).
    ///
    /// - Throws: ``DragPeerError`` when the drag has not started within 30 seconds.
    func startDragging(_ offer: DesktopDragOffer) async throws -> Task<DesktopDragOutcome, any Error> {
        let drag = Task { try await self.drag(offer) }
        let deadline = ContinuousClock.now + .seconds(30)
        while state.withLock({ $0.drag == nil }) {
            guard ContinuousClock.now < deadline else {
                drag.cancel()
                throw DragPeerError(message: "the drag from \(identifier) never started")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        return drag
    }
}
