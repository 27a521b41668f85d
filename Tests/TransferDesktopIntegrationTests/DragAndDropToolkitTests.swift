import Foundation
import Testing
import TransferDisplayTestSupport
import TransferKitTestSupport

/// The test bed of the drag-and-drop tests, proven on its own: two windows of one toolkit (GTK 4, Qt 5) under a
/// private Xvfb and a real XDND drag between them, driven by xdotool (issue 23's item 6). The TransferKit ⇄ toolkit
/// tests build on these pieces.
@Suite(
    "Toolkit drag and drop under Xvfb, driven by xdotool", .timeLimit(.minutes(5)),
    .enabled(if: x11ToolsPresent, "needs Xvfb and xclip (Debian: xvfb, xclip)"))
final class DragAndDropToolkitTests {
    let bed: DragAndDropBed

    init() async throws {
        bed = try await DragAndDropBed.start()
    }

    deinit {
        bed.stop()
    }

    /// Where the source window's top-left corner goes, and where the target's.
    let sourceCorner = ScreenPoint(x: 0, y: 0)
    let targetCorner = ScreenPoint(x: 300, y: 0)

    /// The middle of a peer window whose top-left corner is `corner`.
    func middle(of corner: ScreenPoint) -> ScreenPoint {
        ScreenPoint(x: corner.x + DragPeer.windowSize.x / 2, y: corner.y + DragPeer.windowSize.y / 2)
    }

    /// Starts a `toolkit` source offering `text` as `text/plain;charset=utf-8` and a `toolkit` target that proposes
    /// `prefer` (or refuses), both placed side by side.
    func startPeers(
        _ toolkit: DragPeer.Toolkit, text: String, prefer: String, refuse: Bool = false
    ) async throws -> (
        source: DragPeer, target: DragPeer, out: URL
    ) {
        let name = UUID().uuidString.prefix(8)
        let file = bed.server.directory.appendingPathComponent("offer-\(name).txt")
        try Data(text.utf8).write(to: file)
        let out = bed.server.directory.appendingPathComponent("dropped-\(name).bin")
        let source = try DragPeer.source(
            toolkit, title: "\(toolkit) source \(name)", offers: [("text/plain;charset=utf-8", file)],
            environment: bed.peerEnvironment, directory: bed.server.directory)
        let target = try DragPeer.target(
            toolkit, title: "\(toolkit) target \(name)", accepting: ["text/plain;charset=utf-8"], out: out,
            prefer: prefer, refuse: refuse, environment: bed.peerEnvironment, directory: bed.server.directory)
        try await source.place(at: sourceCorner, with: bed.pointer)
        try await target.place(at: targetCorner, with: bed.pointer)
        return (source, target, out)
    }

    /// Drags text from a `toolkit` source to a `toolkit` target that performs `action`, and checks both ends.
    func dragText(_ toolkit: DragPeer.Toolkit, action: String) async throws {
        let text = "Grüße aus \(toolkit), \(action)"
        let (source, target, out) = try await startPeers(toolkit, text: text, prefer: action)
        defer {
            source.stop()
            target.stop()
        }
        try await bed.pointer.drag(
            from: middle(of: sourceCorner), to: middle(of: targetCorner), started: source.dragBegan)

        let drop = try await target.waitForEvent(["drop", "drop-failed"])
        #expect(drop.event == "drop", "\(target.transcript)")
        #expect(drop.mime == "text/plain;charset=utf-8")
        #expect(drop.length == text.utf8.count)
        #expect(drop.action == action)
        #expect(FileManager.default.contents(atPath: out.path) == Data(text.utf8))
        let end = try await source.waitForEvent(["drag-end", "drag-cancel"])
        #expect(end.event == "drag-end", "\(source.transcript)")
        #expect(end.deleteData == (action == "move"))
    }

    /// Drags text from a `toolkit` source to a `toolkit` target that refuses it.
    func dragRefused(_ toolkit: DragPeer.Toolkit) async throws {
        let (source, target, out) = try await startPeers(toolkit, text: "refused", prefer: "copy", refuse: true)
        defer {
            source.stop()
            target.stop()
        }
        try await bed.pointer.drag(
            from: middle(of: sourceCorner), to: middle(of: targetCorner), started: source.dragBegan)

        let end = try await source.waitForEvent(["drag-end", "drag-cancel"])
        #expect(end.event == "drag-cancel", "\(source.transcript)")
        #expect(end.reason == "no-target")
        #expect(target.events.contains { $0.event == "enter" })
        #expect(!target.events.contains { $0.event == "drop" })
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test(
        "A GTK 4 source's text reaches a GTK 4 target by an xdotool drag; the source deletes only after a move",
        .enabled(
            if: gtk4DragPeerPresent, "needs xdotool and GTK 4 for Python (Debian: xdotool, python3-gi, gir1.2-gtk-4.0)"),
        arguments: ["copy", "move"])
    func gtkToGTK(action: String) async throws {
        try await dragText(.gtk4, action: action)
    }

    @Test(
        "A GTK 4 target that refuses the drop leaves the GTK 4 source with a cancelled drag and no data",
        .enabled(
            if: gtk4DragPeerPresent, "needs xdotool and GTK 4 for Python (Debian: xdotool, python3-gi, gir1.2-gtk-4.0)")
    )
    func gtkRefuses() async throws {
        try await dragRefused(.gtk4)
    }

    @Test(
        "A Qt 5 source's text reaches a Qt 5 target by an xdotool drag; the source deletes only after a move",
        .enabled(if: qt5DragPeerPresent, "needs xdotool and PyQt5 (Debian: xdotool, python3-pyqt5)"),
        arguments: ["copy", "move"])
    func qtToQt(action: String) async throws {
        try await dragText(.qt5, action: action)
    }

    @Test(
        "A Qt 5 target that refuses the drop leaves the Qt 5 source with a cancelled drag and no data",
        .enabled(if: qt5DragPeerPresent, "needs xdotool and PyQt5 (Debian: xdotool, python3-pyqt5)"))
    func qtRefuses() async throws {
        try await dragRefused(.qt5)
    }
}
