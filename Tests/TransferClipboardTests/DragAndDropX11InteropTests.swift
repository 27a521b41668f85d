import Foundation
import Testing
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport

@testable import TransferClipboard

/// TransferKit's own X11 window against GTK 4 and Qt 5 peers under a private Xvfb, with a real XDND drag driven by
/// xdotool (issue 23, item 6): what a toolkit drags arrives whole on a TransferKit window, in every case the issue
/// names.
@Suite(
    "X11 drag and drop between TransferKit and GTK 4 / Qt 5", .timeLimit(.minutes(5)),
    .enabled(if: x11ToolsPresent, "needs Xvfb, xclip and xauth (Debian: xvfb, xclip, xauth)"))
final class DragAndDropX11InteropTests {
    let bed: DragAndDropBed
    let backend: X11Backend

    init() async throws {
        bed = try await DragAndDropBed.start()
        do {
            backend = try await X11Backend.connect(environment: bed.server.environment, timeout: patience)
        } catch {
            bed.stop()
            throw error
        }
    }

    deinit {
        backend.close()
        bed.stop()
    }

    /// Where a peer's window goes, and TransferKit's (at least 240 × 120 pixels).
    static let peerCorner = ScreenPoint(x: 0, y: 0)
    static let windowCorner = ScreenPoint(x: 300, y: 0)
    /// Where the pointer presses on the peer, and where it releases on TransferKit's window.
    static let onPeer = ScreenPoint(
        x: peerCorner.x + DragPeer.windowSize.x / 2, y: peerCorner.y + DragPeer.windowSize.y / 2)
    static let onWindow = ScreenPoint(x: windowCorner.x + 120, y: windowCorner.y + 60)

    /// A 1 × 1 PNG image.
    static let png =
        Data(
            base64Encoded:
                "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")
        ?? Data()

    /// Writes `bytes` to a fresh file of the server's folder.
    func file(_ bytes: Data) throws -> URL {
        let url = bed.server.directory.appendingPathComponent("offer-\(UUID().uuidString)")
        try bytes.write(to: url)
        return url
    }

    /// Opens TransferKit's window at ``windowCorner``, recording its drops.
    func openWindow(
        wanted: [String],
        decide: @escaping @Sendable (_ targets: [String], _ actions: [DesktopDragAction]) -> DesktopDragAction?
    ) async throws -> (X11DesktopWindow, DesktopDropRecorder) {
        let window = try await backend.openDesktopWindow(
            title: "transferkit target \(UUID().uuidString.prefix(8))", lines: ["drop here"],
            x: Int16(Self.windowCorner.x), y: Int16(Self.windowCorner.y))
        return (window, DesktopDropRecorder(window: window, wanted: wanted, decide: decide))
    }

    /// Starts a `toolkit` source offering `offers`, placed at ``peerCorner``.
    func startSource(
        _ toolkit: DragPeer.Toolkit, offers: [(mime: String, bytes: Data)], actions: [String] = ["copy", "move"]
    ) async throws -> DragPeer {
        let source = try DragPeer.source(
            toolkit, title: "\(toolkit) source \(UUID().uuidString.prefix(8))",
            offers: try offers.map { ($0.mime, try file($0.bytes)) }, actions: actions,
            environment: bed.peerEnvironment,
            directory: bed.server.directory)
        try await source.place(at: Self.peerCorner, with: bed.pointer)
        return source
    }

    /// A decision that accepts drops offering `target` with `action` when the source allows it (else copy).
    static func accepting(
        _ target: String, preferring action: DesktopDragAction = .copy
    ) -> @Sendable ([String], [DesktopDragAction]) -> DesktopDragAction? {
        { targets, actions in
            guard targets.contains(target) else { return nil }
            return actions.contains(action) ? action : .copy
        }
    }

    /// One representation a toolkit drags onto TransferKit's window: its MIME type and bytes.
    struct Payload: Sendable, CustomTestStringConvertible {
        var name: String
        var mime: String
        var bytes: Data
        var testDescription: String { name }
    }

    static let payloads: [Payload] = [
        Payload(name: "text", mime: "text/plain;charset=utf-8", bytes: Data("Grüße aus dem Werkzeugkasten ✓".utf8)),
        Payload(name: "PNG image", mime: "image/png", bytes: png),
        Payload(
            name: "custom type conforming to public.json", mime: "application/vnd.example.card+json",
            bytes: Data(#"{"title":"Karte","id":7}"#.utf8)),
        Payload(
            name: "file list", mime: "text/uri-list",
            bytes: Data("file:///tmp/transferkit%20a.txt\r\nfile:///tmp/b.png\r\n".utf8)),
    ]

    /// Drags `payload` from a `toolkit` source onto TransferKit's window and checks the bytes that arrive.
    func dragOntoWindow(_ toolkit: DragPeer.Toolkit, _ payload: Payload) async throws {
        let (window, recorder) = try await openWindow(wanted: [payload.mime], decide: Self.accepting(payload.mime))
        defer { window.close() }
        var offers = [(mime: payload.mime, bytes: payload.bytes)]
        // A custom type travels with the MIME type of its supertype too, as TransferKit's own writes offer it. (GTK 4
        // offers only MIME types: a bare identifier such as `com.example.card` is listed but never converted.)
        if payload.mime.hasSuffix("+json") { offers.append(("application/json", payload.bytes)) }
        let source = try await startSource(toolkit, offers: offers)
        defer { source.stop() }
        try await bed.pointer.drag(from: Self.onPeer, to: Self.onWindow, started: source.dragBegan)

        let drops = try await recorder.waitForDrops(from: source)
        #expect(drops[0].targets.contains(payload.mime), "offered: \(drops[0].targets)")
        #expect(drops[0].error == nil)
        #expect(drops[0].bytes == payload.bytes)
        #expect(drops[0].action == .copy)
        let end = try await source.waitForEvent(["drag-end"])
        #expect(end.deleteData == false)
    }

    @Test(
        "A GTK 4 source's text, PNG image, custom JSON type and file list arrive whole on TransferKit's window",
        .enabled(
            if: gtk4DragPeerPresent, "needs xdotool and GTK 4 for Python (Debian: xdotool, python3-gi, gir1.2-gtk-4.0)"),
        arguments: payloads)
    func gtkSourceToWindow(payload: Payload) async throws {
        try await dragOntoWindow(.gtk4, payload)
    }

    @Test(
        "A Qt 5 source's text arrives whole on TransferKit's window",
        .enabled(if: qt5DragPeerPresent, "needs xdotool and PyQt5 (Debian: xdotool, python3-pyqt5)"))
    func qtSourceToWindow() async throws {
        try await dragOntoWindow(.qt5, Self.payloads[0])
    }

    @Test(
        "TransferKit's window performing a move makes the GTK 4 source delete its item; a copy leaves it",
        .enabled(
            if: gtk4DragPeerPresent, "needs xdotool and GTK 4 for Python (Debian: xdotool, python3-gi, gir1.2-gtk-4.0)"),
        arguments: [DesktopDragAction.copy, .move])
    func windowMovesFromGTK(action: DesktopDragAction) async throws {
        let text = Self.payloads[0]
        let (window, recorder) = try await openWindow(
            wanted: [text.mime], decide: Self.accepting(text.mime, preferring: action))
        defer { window.close() }
        let source = try await startSource(.gtk4, offers: [(text.mime, text.bytes)])
        defer { source.stop() }
        try await bed.pointer.drag(from: Self.onPeer, to: Self.onWindow, started: source.dragBegan)

        let drops = try await recorder.waitForDrops(from: source)
        #expect(drops[0].sourceActions.contains(.move))
        #expect(drops[0].action == action)
        #expect(drops[0].bytes == text.bytes)
        let end = try await source.waitForEvent(["drag-end"])
        #expect(end.deleteData == (action == .move), "\(source.transcript)")
    }

    @Test(
        "A drop that TransferKit's window refuses never arrives, and the GTK 4 source's drag is cancelled",
        .enabled(
            if: gtk4DragPeerPresent, "needs xdotool and GTK 4 for Python (Debian: xdotool, python3-gi, gir1.2-gtk-4.0)")
    )
    func windowRefusesGTK() async throws {
        let text = Self.payloads[0]
        let asked = SanitizedMutex<[[String]]>([])
        let (window, recorder) = try await openWindow(wanted: [text.mime]) { targets, _ in
            asked.withLock { $0.append(targets) }
            return nil
        }
        defer { window.close() }
        let source = try await startSource(.gtk4, offers: [(text.mime, text.bytes)])
        defer { source.stop() }
        try await bed.pointer.drag(from: Self.onPeer, to: Self.onWindow, started: source.dragBegan)

        let cancel = try await source.waitForEvent(["drag-cancel", "drag-end"])
        #expect(cancel.event == "drag-cancel", "\(source.transcript)")
        #expect(cancel.reason == "no-target")
        let end = try await source.waitForEvent(["drag-end"])
        #expect(end.deleteData == false)
        #expect(asked.withLock { $0.contains { $0.contains(text.mime) } })
        #expect(recorder.finished.isEmpty)
    }

    @Test(
        "A GTK 4 source killed mid-drag leaves no drop on TransferKit's window, which then takes the next drag",
        .enabled(
            if: gtk4DragPeerPresent, "needs xdotool and GTK 4 for Python (Debian: xdotool, python3-gi, gir1.2-gtk-4.0)")
    )
    func gtkSourceDiesMidDrag() async throws {
        let first = Payload(name: "first", mime: "text/plain;charset=utf-8", bytes: Data("never dropped".utf8))
        let second = Payload(name: "second", mime: "text/plain;charset=utf-8", bytes: Data("the next drag".utf8))
        let asked = SanitizedMutex(0)
        let accept = Self.accepting(first.mime)
        let (window, recorder) = try await openWindow(wanted: [first.mime]) { targets, actions in
            asked.withLock { $0 += 1 }
            return accept(targets, actions)
        }
        defer { window.close() }
        let dying = try await startSource(.gtk4, offers: [(first.mime, first.bytes)])
        defer { dying.stop() }
        let nearby = try await bed.pointer.begin(at: Self.onPeer, towards: Self.onWindow, started: dying.dragBegan)
        try await bed.pointer.moveAlong(from: nearby, to: Self.onWindow)
        // The window has been asked about the drag (an enter and a position arrived): now the source dies.
        let deadline = ContinuousClock.now + .seconds(45)
        while asked.withLock({ $0 }) == 0 {
            guard ContinuousClock.now < deadline else {
                throw DragPeerError(message: "the drag never reached the window")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        dying.stop()
        try await bed.pointer.move(to: ScreenPoint(x: Self.onWindow.x + 5, y: Self.onWindow.y))
        try await bed.pointer.release()

        let next = try await startSource(.gtk4, offers: [(second.mime, second.bytes)])
        defer { next.stop() }
        try await bed.pointer.drag(from: Self.onPeer, to: Self.onWindow, started: next.dragBegan)
        let drops = try await recorder.waitForDrops(from: next)
        #expect(drops[0].bytes == second.bytes)
        #expect(recorder.finished.count == 1)
    }

}
