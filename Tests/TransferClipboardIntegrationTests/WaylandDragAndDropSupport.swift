import Foundation
import Testing
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport

@testable import TransferClipboard
@testable import TransferDesktop
@testable import TransferDisplay

extension WaylandCompositor {
    /// sway's IPC socket, found in its runtime folder.
    func ipcSocket() throws -> String {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        guard let name = names.first(where: { $0.hasPrefix("sway-ipc.") && $0.hasSuffix(".sock") }) else {
            throw XvfbError(message: "sway's IPC socket is not in \(directory.path): \(names)")
        }
        return directory.appendingPathComponent(name).path
    }

    /// Runs `swaymsg -s SOCKET arguments` and returns its standard output.
    @discardableResult
    func swaymsg(_ arguments: [String]) async throws -> String {
        let result = try await runTool(
            [SystemTool.path("swaymsg"), "-s", try ipcSocket()] + arguments, environment: environment)
        guard result.status == 0 else {
            throw XvfbError(message: "swaymsg \(arguments) exited with \(result.status): \(result.error)")
        }
        return String(decoding: result.output, as: UTF8.self)
    }

    /// The rectangle (x, y, width, height, in the output's pixels) of the window titled `title`, or nil while sway
    /// shows none.
    func windowRect(titled title: String) async throws -> (x: Int, y: Int, width: Int, height: Int)? {
        let tree = try await swaymsg(["-t", "get_tree", "-r"])
        guard let root = try JSONSerialization.jsonObject(with: Data(tree.utf8)) as? [String: Any] else { return nil }
        func find(_ node: [String: Any]) -> [String: Any]? {
            if node["name"] as? String == title { return node }
            for key in ["nodes", "floating_nodes"] {
                for child in node[key] as? [[String: Any]] ?? [] {
                    if let found = find(child) { return found }
                }
            }
            return nil
        }
        guard let node = find(root), let rect = node["rect"] as? [String: Any],
            let x = rect["x"] as? Int, let y = rect["y"] as? Int, let width = rect["width"] as? Int,
            let height = rect["height"] as? Int
        else { return nil }
        return (x, y, width, height)
    }

    /// Waits (polling, at most `seconds`) until sway shows a window titled `title`, and returns its rectangle.
    ///
    /// 60 s by default: in a whole-suite run on a loaded two-core machine, `transferkit drag`'s window once took more
    /// than 30 s to appear (each of that suite's tests then took over 100 s), and alone it appears within a second.
    func waitForWindow(
        titled title: String, seconds: Int = 60
    ) async throws -> (x: Int, y: Int, width: Int, height: Int) {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if let rect = try await windowRect(titled: title) { return rect }
            try await Task.sleep(for: .milliseconds(50))
        }
        let tree = try await swaymsg(["-t", "get_tree", "-r"])
        throw XvfbError(message: "sway shows no window titled \(title) after \(seconds) s: \(tree)")
    }
}

extension WaylandCompositor {
    /// Makes the window titled `title` float with its top-left corner at (`x`, `y`) of the output, and waits until
    /// sway shows it there: sway floats a window of fixed size (GTK's unresizable ones) over the middle of the
    /// output, where it would cover a tiled one.
    func place(titled title: String, at corner: (x: Int, y: Int)) async throws {
        _ = try await waitForWindow(titled: title)
        try await swaymsg([
            "[title=\"^\(title)$\"]", "floating", "enable,", "move", "absolute", "position",
            "\(corner.x)", "\(corner.y)",
        ])
        try await waitUntil("the window \(title) at \(corner)") {
            guard let rect = try await windowRect(titled: title) else { return false }
            return abs(rect.x - corner.x) <= 4 && abs(rect.y - corner.y) <= 40
        }
    }
}

/// A title no other test uses.
func uniqueWindowTitle(_ stem: String) -> String {
    "\(stem) \(UInt32.random(in: 0...UInt32.max))"
}

extension WaylandBackend {
    /// The drag-and-drop part of the machine now (for tests that wait for a step).
    var dragAndDropState: WaylandDragAndDropState {
        storage.withLock { ($0.subscription as? WaylandDragAndDropSubscription)?.machine ?? WaylandDragAndDropState() }
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

extension WaylandVirtualPointer {
    /// Drags from `from` to `to` (points of the output): moves to `from` and, once `isPressable` holds, presses;
    /// moves on in 4-pixel steps until `hasStarted` holds (the source's drag began), then in eight steps to `to`,
    /// and on over `to` until `isOver` holds; then releases unless `release` is false. Every wait has a deadline.
    func drag(
        from: (x: Int, y: Int), to: (x: Int, y: Int), isPressable: @escaping () async throws -> Bool,
        hasStarted: @escaping () async throws -> Bool, isOver: @escaping () async throws -> Bool, release: Bool = true
    ) async throws {
        try move(to: from)
        try await waitUntil("the pointer over the source window", isPressable)
        try press()
        var step = 0
        try await waitUntil("the source's drag") {
            step += 1
            try self.move(to: (from.x + 4 * min(step, 10), from.y))
            return try await hasStarted()
        }
        // The drag's grab follows the pointer: a few steps, so the target sees motion too.
        for index in 1...8 {
            let x: Int = from.x + (to.x - from.x) * index / 8
            let y: Int = from.y + (to.y - from.y) * index / 8
            try move(to: (x, y))
            try await Task.sleep(for: .milliseconds(10))
        }
        var wiggle = 0
        try await waitUntil("the drag over the target window") {
            wiggle += 1
            try self.move(to: (to.x + wiggle % 2, to.y))
            return try await isOver()
        }
        if release { try self.release() }
    }
}

/// Waits (polling, at most `seconds`) until `condition` holds; throws naming `what` when it does not.
func waitUntil(_ what: String, seconds: Int = 30, _ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw XvfbError(message: "\(what) did not happen in \(seconds) s") }
        try await Task.sleep(for: .milliseconds(20))
    }
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
