import Foundation
import Testing
import TransferDisplayTestSupport
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport

@testable import TransferClipboard
@testable import TransferDesktop
@testable import TransferDisplay

/// A headless sway with a virtual pointer, one TransferKit window, and room for a GTK 4 peer beside it.
final class WaylandGTKRig: Sendable {
    let compositor: WaylandCompositor
    let pointer: WaylandVirtualPointer
    let backend: WaylandBackend
    let window: any DesktopWindowHandle
    let title: String
    let directory: URL

    init() async throws {
        compositor = try await WaylandCompositor.start()
        directory = try makeTemporaryDirectory(prefix: "transferclipboard-wayland-gtk")
        pointer = try WaylandVirtualPointer(socketPath: compositor.socketPath)
        backend = try await WaylandBackend.connectForDragAndDrop(
            environment: compositor.environment, timeout: waylandPatience)
        title = uniqueWindowTitle("transferkit")
        window = try await backend.openWindow(title: title, lines: ["card"])
        try await compositor.place(titled: title, at: (100, 200))
        let backend = self.backend
        try await waitUntil("TransferKit's pointer") { backend.dragAndDropState.pointer != 0 }
    }

    deinit {
        backend.close()
        compositor.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The environment of a GTK peer on this sway.
    var gtkEnvironment: [String: String] {
        var environment = compositor.environment
        environment["GDK_BACKEND"] = "wayland"
        return environment
    }

    /// A file in the rig's folder holding `bytes`.
    func file(_ bytes: Data) throws -> URL {
        let url = directory.appendingPathComponent(UUID().uuidString)
        try bytes.write(to: url)
        return url
    }

    /// The centre of the window titled `title`, once sway shows it.
    func centre(of title: String) async throws -> (x: Int, y: Int) {
        let rect = try await compositor.waitForWindow(titled: title)
        return (rect.x + rect.width / 2, rect.y + rect.height / 2)
    }

    /// Drags from the GTK source `peer` onto TransferKit's window until TransferKit answered the drag, then
    /// releases (unless `release` is false).
    func drag(from peer: DragPeer, release: Bool = true) async throws {
        _ = try await peer.waitForEvent(["ready"])
        try await compositor.place(titled: peer.title, at: (700, 200))
        let backend = self.backend
        try await pointer.drag(
            from: try await centre(of: peer.title), to: try await centre(of: title),
            isPressable: { true },
            hasStarted: { peer.events.contains { $0.event == "drag-begin" } },
            isOver: {
                guard backend.dragAndDropState.visit?.isDecided == true else { return false }
                try await backend.roundTrip()
                return true
            }, release: release)
    }

    /// Drags from TransferKit's window onto the GTK target `peer` until `isOver` holds, then releases.
    func drag(to peer: DragPeer, isOver: @escaping () async throws -> Bool) async throws {
        _ = try await peer.waitForEvent(["ready"])
        try await compositor.place(titled: peer.title, at: (700, 200))
        let backend = self.backend
        try await pointer.drag(
            from: try await centre(of: title), to: try await centre(of: peer.title),
            isPressable: { backend.dragAndDropState.focus != nil },
            hasStarted: {
                guard backend.dragAndDropState.drag != nil else { return false }
                try await backend.roundTrip()
                return true
            },
            isOver: isOver)
    }

    /// Whether TransferKit's drag is accepted by its target now (a `target` event named a type and an `action`
    /// event an action).
    var isAccepted: Bool {
        guard let drag = backend.dragAndDropState.drag else { return false }
        return drag.acceptedTarget != nil && drag.lastAction != 0
    }
}

/// GTK 4 (`GDK_BACKEND=wayland`) and TransferKit windows under headless sway, both ways.
@Suite(
    "Wayland drag and drop with GTK 4 under headless sway", .timeLimit(.minutes(5)),
    .enabled(
        if: waylandGTKDragPresent,
        "needs sway, setpriv, python3-gi, gir1.2-gtk-4.0 and xdotool (Debian: sway, util-linux, python3-gi, gir1.2-gtk-4.0, xdotool)"
    ))
struct WaylandGTKDragTests {
    static let text = Data("a card from GTK".utf8)

    // MARK: - GTK source → TransferKit target

    @Test("GTK → TransferKit: text arrives; GTK's drag ends without deleting (copy)")
    func textFromGTK() async throws {
        let rig = try await WaylandGTKRig()
        let peer = try DragPeer.source(
            title: uniqueWindowTitle("gtk source"), offers: [("text/plain;charset=utf-8", try rig.file(Self.text))],
            environment: rig.gtkEnvironment, directory: rig.directory)
        defer { peer.stop() }
        let drops = rig.window.drops { targets, _ in targets.contains("text/plain;charset=utf-8") ? .copy : nil }
        let received = Task { () -> (Data, [String], DesktopDragAction) in
            for try await drop in drops {
                let bytes = try await collect(try await drop.receive("text/plain;charset=utf-8"))
                await drop.finish(performed: .copy)
                return (bytes, drop.targets, drop.action)
            }
            throw XvfbError(message: "no drop")
        }
        try await rig.drag(from: peer)
        let (bytes, targets, action) = try await received.value
        #expect(bytes == Self.text)
        #expect(targets.contains("text/plain;charset=utf-8"), "\(targets)")
        #expect(action == .copy)
        let end = try await peer.waitForEvent(["drag-end", "drag-cancel"])
        #expect(end.event == "drag-end" && end.deleteData == false, "\(peer.transcript)")
    }

    @Test("GTK → TransferKit: a move that TransferKit performs makes GTK delete its data")
    func moveFromGTK() async throws {
        let rig = try await WaylandGTKRig()
        let peer = try DragPeer.source(
            title: uniqueWindowTitle("gtk source"), offers: [("text/plain;charset=utf-8", try rig.file(Self.text))],
            environment: rig.gtkEnvironment, directory: rig.directory)
        defer { peer.stop() }
        let drops = rig.window.drops { _, actions in actions.contains(.move) ? .move : nil }
        let received = Task { () -> DesktopDragAction in
            for try await drop in drops {
                _ = try await collect(try await drop.receive("text/plain;charset=utf-8"))
                await drop.finish(performed: .move)
                return drop.action
            }
            throw XvfbError(message: "no drop")
        }
        try await rig.drag(from: peer)
        #expect(try await received.value == .move)
        let end = try await peer.waitForEvent(["drag-end", "drag-cancel"])
        #expect(end.event == "drag-end" && end.deleteData == true, "\(peer.transcript)")
    }

    @Test("GTK → TransferKit: 64 MiB arrive whole")
    func largeFromGTK() async throws {
        let rig = try await WaylandGTKRig()
        let total = 64 << 20
        let file = rig.directory.appendingPathComponent("large")
        try PatternChunks.write(total, to: file)
        let peer = try DragPeer.source(
            title: uniqueWindowTitle("gtk source"), offers: [("application/octet-stream", file)],
            environment: rig.gtkEnvironment, directory: rig.directory)
        defer { peer.stop() }
        let drops = rig.window.drops { _, _ in .copy }
        let received = Task { try await firstPatternDrop(drops) }
        try await rig.drag(from: peer)
        let (count, intact) = try await received.value
        #expect(count == total && intact)
    }

    @Test("GTK → TransferKit refused: TransferKit says no, GTK's drag is cancelled")
    func refusedFromGTK() async throws {
        let rig = try await WaylandGTKRig()
        let peer = try DragPeer.source(
            title: uniqueWindowTitle("gtk source"), offers: [("text/plain;charset=utf-8", try rig.file(Self.text))],
            environment: rig.gtkEnvironment, directory: rig.directory)
        defer { peer.stop() }
        let delivered = SanitizedMutex(0)
        let drops = rig.window.drops { _, _ in nil }
        let watching = Task { for try await _ in drops { delivered.withLock { $0 += 1 } } }
        defer { watching.cancel() }
        try await rig.drag(from: peer)
        let end = try await peer.waitForEvent(["drag-end", "drag-cancel"])
        #expect(end.event == "drag-cancel", "\(peer.transcript)")
        try await rig.backend.roundTrip()
        #expect(delivered.withLock { $0 } == 0)
    }

    @Test("GTK source killed mid-drag: the drag leaves TransferKit's window and no drop is delivered")
    func gtkSourceDies() async throws {
        let rig = try await WaylandGTKRig()
        let peer = try DragPeer.source(
            title: uniqueWindowTitle("gtk source"), offers: [("text/plain;charset=utf-8", try rig.file(Self.text))],
            environment: rig.gtkEnvironment, directory: rig.directory)
        let delivered = SanitizedMutex(0)
        let drops = rig.window.drops { _, _ in .copy }
        let watching = Task { for try await _ in drops { delivered.withLock { $0 += 1 } } }
        defer { watching.cancel() }
        try await rig.drag(from: peer, release: false)
        peer.stop()
        let backend = rig.backend
        try await waitUntil("the drag's leave") { backend.dragAndDropState.visit == nil }
        try rig.pointer.release()
        try rig.pointer.sync()
        try await backend.roundTrip()
        #expect(delivered.withLock { $0 } == 0)
        #expect(backend.dragAndDropState.dropped.isEmpty)
    }

    // MARK: - TransferKit source → GTK target

    /// An offer of `text/plain;charset=utf-8` with `actions`.
    static func offer(_ actions: [DesktopDragAction], bytes: Data = text) -> DesktopDragOffer {
        DesktopDragOffer(targets: ["text/plain;charset=utf-8", "com.example.card"], actions: actions) { _ in
            TransferByteStream(data: bytes)
        }
    }

    @Test("TransferKit → GTK: text arrives; TransferKit sees a performed copy")
    func textToGTK() async throws {
        let rig = try await WaylandGTKRig()
        let out = rig.directory.appendingPathComponent("out")
        let peer = try DragPeer.target(
            title: uniqueWindowTitle("gtk target"), accepting: ["text/plain;charset=utf-8"], out: out,
            environment: rig.gtkEnvironment, directory: rig.directory)
        defer { peer.stop() }
        let dragging = Task { try await rig.window.drag(Self.offer([.copy, .move])) }
        try await rig.drag(to: peer) { rig.isAccepted }
        let outcome = try await dragging.value
        #expect(outcome == .dropped(performed: .copy, target: "text/plain;charset=utf-8"), "\(peer.transcript)")
        let drop = try await peer.waitForEvent(["drop", "drop-failed"])
        #expect(drop.event == "drop" && drop.length == Self.text.count, "\(peer.transcript)")
        #expect(FileManager.default.contents(atPath: out.path) == Self.text)
    }

    @Test("TransferKit → GTK: a move GTK performs is reported as a performed move")
    func moveToGTK() async throws {
        let rig = try await WaylandGTKRig()
        let peer = try DragPeer.target(
            title: uniqueWindowTitle("gtk target"), accepting: ["text/plain;charset=utf-8"],
            out: rig.directory.appendingPathComponent("out"), prefer: "move",
            environment: rig.gtkEnvironment, directory: rig.directory)
        defer { peer.stop() }
        let dragging = Task { try await rig.window.drag(Self.offer([.copy, .move])) }
        try await rig.drag(to: peer) { rig.isAccepted && rig.backend.dragAndDropState.drag?.lastAction == 2 }
        #expect(try await dragging.value == .dropped(performed: .move, target: "text/plain;charset=utf-8"))
        #expect(try await peer.waitForEvent(["drop", "drop-failed"]).action == "move")
    }

    @Test("TransferKit → GTK: 64 MiB arrive whole")
    func largeToGTK() async throws {
        let rig = try await WaylandGTKRig()
        let total = 64 << 20
        let out = rig.directory.appendingPathComponent("out")
        let peer = try DragPeer.target(
            title: uniqueWindowTitle("gtk target"), accepting: ["application/octet-stream"], out: out,
            environment: rig.gtkEnvironment, directory: rig.directory)
        defer { peer.stop() }
        let offer = DesktopDragOffer(targets: ["application/octet-stream"], actions: [.copy]) { _ in
            TransferByteStream(length: UInt64(total), PatternChunks(total: total))
        }
        let dragging = Task { try await rig.window.drag(offer) }
        try await rig.drag(to: peer) { rig.isAccepted }
        #expect(try await dragging.value == .dropped(performed: .copy, target: "application/octet-stream"))
        let drop = try await peer.waitForEvent(["drop", "drop-failed"], within: .seconds(120))
        #expect(drop.event == "drop" && drop.length == total, "\(peer.transcript)")
        let written = try FileHandle(forReadingFrom: out)
        defer { try? written.close() }
        var offset = 0
        while let chunk = try written.read(upToCount: 1 << 20), !chunk.isEmpty {
            #expect(chunk == PatternChunks.chunk(at: offset, count: chunk.count), "at \(offset)")
            offset += chunk.count
        }
        #expect(offset == total)
    }

    @Test("TransferKit → GTK refused: GTK answers no action, TransferKit sees refused")
    func refusedByGTK() async throws {
        let rig = try await WaylandGTKRig()
        let peer = try DragPeer.target(
            title: uniqueWindowTitle("gtk target"), accepting: ["text/plain;charset=utf-8"],
            out: rig.directory.appendingPathComponent("out"), refuse: true,
            environment: rig.gtkEnvironment, directory: rig.directory)
        defer { peer.stop() }
        let dragging = Task { try await rig.window.drag(Self.offer([.copy])) }
        try await rig.drag(to: peer) {
            // GTK saw the drag and answered (with no action) at least once.
            guard peer.events.contains(where: { $0.event == "enter" }) else { return false }
            try await rig.backend.roundTrip()
            return true
        }
        #expect(try await dragging.value == .refused(target: nil), "\(peer.transcript)")
    }

    @Test("The GTK target killed mid-transfer: TransferKit's drag ends cancelled, not dropped")
    func gtkTargetDies() async throws {
        let rig = try await WaylandGTKRig()
        let peer = try DragPeer.target(
            title: uniqueWindowTitle("gtk target"), accepting: ["text/plain;charset=utf-8"],
            out: rig.directory.appendingPathComponent("out"), prefer: "move", chunkDelayMilliseconds: 200,
            environment: rig.gtkEnvironment, directory: rig.directory)
        let offer = DesktopDragOffer(targets: ["text/plain;charset=utf-8"], actions: [.copy, .move]) { _ in
            TransferByteStream(EndlessChunks(onStop: {}))
        }
        let dragging = Task { try await rig.window.drag(offer) }
        try await rig.drag(to: peer) { rig.isAccepted }
        _ = try await peer.waitForEvent(["receiving"])
        peer.stop()
        let outcome = try await dragging.value
        guard case .cancelled = outcome else {
            Issue.record("TransferKit saw \(outcome) after its target died")
            return
        }
    }
}

/// The representations of issue 23's list beyond text, as the wire carries them: each MIME type's bytes arrive
/// unchanged both ways between GTK 4 and TransferKit under headless sway.
@Suite(
    "Wayland drag and drop with GTK 4: an image, a custom JSON type and a file list", .timeLimit(.minutes(5)),
    .enabled(
        if: waylandGTKDragPresent,
        "needs sway, setpriv, python3-gi, gir1.2-gtk-4.0 and xdotool (Debian: sway, util-linux, python3-gi, gir1.2-gtk-4.0, xdotool)"
    ))
struct WaylandGTKRepresentationTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var mimeType: String
        var bytes: Data
        var testDescription: String { mimeType }
    }

    static let cases = [
        // A 1x1 PNG's signature and header chunk (GTK passes the bytes on without decoding them).
        Case(
            mimeType: "image/png",
            bytes: Data([
                0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1,
            ])),
        Case(mimeType: "application/json", bytes: Data(#"{"name":"card","rank":7}"#.utf8)),
        Case(mimeType: "text/uri-list", bytes: Data("file:///tmp/a%20card.json\r\nfile:///tmp/b.png\r\n".utf8)),
    ]

    @Test("GTK → TransferKit", arguments: cases)
    func fromGTK(_ row: Case) async throws {
        let rig = try await WaylandGTKRig()
        let peer = try DragPeer.source(
            title: uniqueWindowTitle("gtk source"), offers: [(row.mimeType, try rig.file(row.bytes))],
            environment: rig.gtkEnvironment, directory: rig.directory)
        defer { peer.stop() }
        let drops = rig.window.drops { targets, _ in targets.contains(row.mimeType) ? .copy : nil }
        let received = Task { () -> Data in
            for try await drop in drops {
                let bytes = try await collect(try await drop.receive(row.mimeType))
                await drop.finish(performed: .copy)
                return bytes
            }
            throw XvfbError(message: "no drop")
        }
        try await rig.drag(from: peer)
        #expect(try await received.value == row.bytes)
    }

    @Test("TransferKit → GTK", arguments: cases)
    func toGTK(_ row: Case) async throws {
        let rig = try await WaylandGTKRig()
        let out = rig.directory.appendingPathComponent("out")
        let peer = try DragPeer.target(
            title: uniqueWindowTitle("gtk target"), accepting: [row.mimeType], out: out,
            environment: rig.gtkEnvironment, directory: rig.directory)
        defer { peer.stop() }
        let offer = DesktopDragOffer(targets: [row.mimeType], actions: [.copy]) { _ in
            TransferByteStream(data: row.bytes)
        }
        let dragging = Task { try await rig.window.drag(offer) }
        try await rig.drag(to: peer) { rig.isAccepted }
        #expect(try await dragging.value == .dropped(performed: .copy, target: row.mimeType))
        let drop = try await peer.waitForEvent(["drop", "drop-failed"])
        #expect(drop.event == "drop" && drop.mime == row.mimeType, "\(peer.transcript)")
        #expect(FileManager.default.contents(atPath: out.path) == row.bytes)
    }
}
