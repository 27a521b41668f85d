import Foundation
import Testing
import TransferKitTestSupport

/// The test bed of the drag-and-drop tests, proven on its own: two GTK 4 windows under a private Xvfb and a real
/// XDND drag between them, driven by xdotool (issue 23's item 6). The TransferKit ⇄ GTK tests build on these pieces.
@Suite(
    "GTK 4 drag and drop under Xvfb, driven by xdotool", .timeLimit(.minutes(5)),
    .enabled(
        if: x11ToolsPresent && gtk4DragPeerPresent,
        "needs Xvfb, xauth, xdotool and GTK 4 for Python (Debian: xvfb, xauth, xdotool, python3-gi, gir1.2-gtk-4.0)"))
final class DragAndDropGTKTests {
    let server: XvfbServer
    let pointer: PointerDriver

    init() async throws {
        server = try await XvfbServer.start(screen: dragAndDropScreen)
        pointer = PointerDriver(environment: server.environment)
    }

    deinit {
        server.stop()
    }

    /// The GTK peers' environment: this test's Xvfb, GDK's X11 backend.
    var gtkEnvironment: [String: String] {
        var environment = server.environment
        environment["GDK_BACKEND"] = "x11"
        return environment
    }

    /// Where the source window's top-left corner goes, and where the target's.
    let sourceCorner = ScreenPoint(x: 0, y: 0)
    let targetCorner = ScreenPoint(x: 300, y: 0)

    /// The middle of a peer window whose top-left corner is `corner`.
    func middle(of corner: ScreenPoint) -> ScreenPoint {
        ScreenPoint(x: corner.x + GTKDragPeer.windowSize.x / 2, y: corner.y + GTKDragPeer.windowSize.y / 2)
    }

    /// Starts a GTK source offering `text` as `text/plain;charset=utf-8` and a target that proposes `prefer` (or
    /// refuses), both placed side by side.
    func startPeers(
        text: String, prefer: String, refuse: Bool = false
    ) async throws -> (
        source: GTKDragPeer, target: GTKDragPeer, out: URL
    ) {
        let name = UUID().uuidString.prefix(8)
        let file = server.directory.appendingPathComponent("offer-\(name).txt")
        try Data(text.utf8).write(to: file)
        let out = server.directory.appendingPathComponent("dropped-\(name).bin")
        let source = try GTKDragPeer.source(
            title: "gtk4 source \(name)", offers: [("text/plain;charset=utf-8", file)], environment: gtkEnvironment,
            directory: server.directory)
        let target = try GTKDragPeer.target(
            title: "gtk4 target \(name)", accepting: ["text/plain;charset=utf-8"], out: out, prefer: prefer,
            refuse: refuse, environment: gtkEnvironment, directory: server.directory)
        try await source.place(at: sourceCorner, with: pointer)
        try await target.place(at: targetCorner, with: pointer)
        return (source, target, out)
    }

    @Test(
        "A GTK 4 source's text reaches a GTK 4 target by an xdotool drag; the source deletes only after a move",
        arguments: ["copy", "move"])
    func gtkToGTK(action: String) async throws {
        let text = "Grüße aus GTK 4, \(action)"
        let (source, target, out) = try await startPeers(text: text, prefer: action)
        defer {
            source.stop()
            target.stop()
        }
        try await pointer.drag(from: middle(of: sourceCorner), to: middle(of: targetCorner))

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

    @Test("A GTK 4 target that refuses the drop leaves the GTK 4 source with a cancelled drag and no data")
    func gtkRefuses() async throws {
        let (source, target, out) = try await startPeers(text: "refused", prefer: "copy", refuse: true)
        defer {
            source.stop()
            target.stop()
        }
        try await pointer.drag(from: middle(of: sourceCorner), to: middle(of: targetCorner))

        let end = try await source.waitForEvent(["drag-end", "drag-cancel"])
        #expect(end.event == "drag-cancel", "\(source.transcript)")
        #expect(end.reason == "no-target")
        #expect(target.events.contains { $0.event == "enter" })
        #expect(!target.events.contains { $0.event == "drop" })
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }
}
