import Foundation
import Testing
import TransferDisplayTestSupport
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport

@testable import TransferClipboard
@testable import TransferDesktop
@testable import TransferDisplay

extension WaylandBackend {
    /// The drag-and-drop part of the machine now (for tests that wait for a step).
    var dragAndDropState: WaylandDragAndDropState {
        shell.read { ($0.subscription as? WaylandDragAndDropSubscription)?.machine ?? WaylandDragAndDropState() }
    }
}

/// Two TransferKit connections to one headless sway, each with a window, and a virtual pointer to drag between them.
final class WaylandDragRig: Sendable {
    let compositor: WaylandCompositor
    let pointer: WaylandVirtualPointer
    let source: WaylandBackend
    let target: WaylandBackend
    let sourceWindow: any DesktopWindowHandle
    let targetWindow: any DesktopWindowHandle
    let sourceTitle: String
    let targetTitle: String

    /// Starts sway, makes the pointer (before the clients, so their seat has it), connects both (the source with
    /// `sourceTimeout`, the target with `targetTimeout`) and opens a window on each, waiting until sway shows both.
    init(sourceTimeout: Duration = waylandPatience, targetTimeout: Duration = waylandPatience) async throws {
        compositor = try await WaylandCompositor.start()
        pointer = try WaylandVirtualPointer(socketPath: compositor.socketPath)
        source = try await WaylandBackend.connectForDragAndDrop(
            environment: compositor.environment, timeout: sourceTimeout)
        target = try await WaylandBackend.connectForDragAndDrop(
            environment: compositor.environment, timeout: targetTimeout)
        sourceTitle = uniqueWindowTitle("transferkit source")
        targetTitle = uniqueWindowTitle("transferkit target")
        sourceWindow = try await source.openWindow(title: sourceTitle, lines: ["card"])
        targetWindow = try await target.openWindow(title: targetTitle, lines: [])
        _ = try await compositor.waitForWindow(titled: sourceTitle)
        _ = try await compositor.waitForWindow(titled: targetTitle)
        let (source, target) = (source, target)
        try await waitUntil("both clients' pointers") {
            source.dragAndDropState.pointer != 0 && target.dragAndDropState.pointer != 0
        }
    }

    deinit {
        source.close()
        target.close()
        compositor.stop()
    }

    /// The centre of the window titled `title`.
    func centre(of title: String) async throws -> (x: Int, y: Int) {
        let rect = try await compositor.waitForWindow(titled: title)
        return (rect.x + rect.width / 2, rect.y + rect.height / 2)
    }

    /// Presses on the source window, moves past the threshold until the source started its drag, moves over the
    /// target window until `isOver` holds, and (unless `release` is false) releases there.
    func drag(release: Bool = true, isOver: @escaping @Sendable () -> Bool) async throws {
        let (source, target) = (self.source, self.target)
        try await pointer.drag(
            from: try await centre(of: sourceTitle), to: try await centre(of: targetTitle),
            isPressable: { source.dragAndDropState.focus != nil },
            hasStarted: {
                guard source.dragAndDropState.drag != nil else { return false }
                try await source.roundTrip()
                return true
            },
            isOver: {
                guard isOver() else { return false }
                // The target's answer reaches the compositor before the release does.
                try await target.roundTrip()
                return true
            }, release: release)
    }

    /// Whether the drag over the target window has been answered (accepted or refused).
    var targetDecided: Bool { target.dragAndDropState.visit?.isDecided == true }
}

/// Takes the first of `drops` as `application/octet-stream`, checking each chunk against ``PatternChunks``, and
/// finishes it with copy: how many bytes came and whether all were the pattern's.
func firstPatternDrop(_ drops: AsyncThrowingStream<any DesktopDropHandle, any Error>) async throws -> (Int, Bool) {
    for try await drop in drops {
        var count = 0
        var intact = true
        for try await chunk in try await drop.receive("application/octet-stream") {
            intact = intact && Data(chunk) == PatternChunks.chunk(at: count, count: chunk.count)
            count += chunk.count
        }
        await drop.finish(performed: .copy)
        return (count, intact)
    }
    throw XvfbError(message: "the drops ended without one")
}

/// The bytes of `stream`.
func collect(_ stream: TransferByteStream) async throws -> Data {
    var data = Data()
    for try await chunk in stream { data.append(contentsOf: chunk) }
    return data
}
