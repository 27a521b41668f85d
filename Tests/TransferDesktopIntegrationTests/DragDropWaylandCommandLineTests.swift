import Foundation
import Testing
import TransferDisplayTestSupport
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting

/// `transferkit drag --backend wayland` under headless sway, onto a GTK 4 target (`GDK_BACKEND=wayland`), with the
/// tests' virtual pointer (`zwlr_virtual_pointer_v1`) as the user's hand.
@Suite(
    "transferkit drag and drop on Wayland", .timeLimit(.minutes(5)),
    .enabled(
        if: waylandGTKDragPresent,
        "needs sway, setpriv, python3-gi, gir1.2-gtk-4.0 and xdotool (Debian: sway, util-linux, python3-gi, gir1.2-gtk-4.0, xdotool)"
    ))
final class DragDropWaylandCommandLineTests {
    let compositor: WaylandCompositor
    let pointer: WaylandVirtualPointer
    let folder: URL

    init() async throws {
        compositor = try await WaylandCompositor.start()
        pointer = try WaylandVirtualPointer(socketPath: compositor.socketPath)
        folder = try makeTemporaryDirectory(prefix: "drag-drop-cli-wayland")
    }

    deinit {
        compositor.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    @Test("drag --backend wayland --and-exit card.json → a GTK 4 target receives the bytes; drag exits 0")
    func dragToGTK() async throws {
        let card = folder.appendingPathComponent("card.json")
        let bytes = Data(#"{"name":"Luke"}"#.utf8)
        try bytes.write(to: card)
        let out = folder.appendingPathComponent("gtk-received.json")
        let output = folder.appendingPathComponent("drag.out").path
        let drag = try BackgroundProcess(
            [TransferKitExecutable.defaultPath, "drag", "--and-exit", "--backend", "wayland", card.path],
            environment: compositor.environment, outputFile: output)
        defer { drag.stop() }
        var gtkEnvironment = compositor.environment
        gtkEnvironment["GDK_BACKEND"] = "wayland"
        let target = try DragPeer.target(
            title: uniqueWindowTitle("gtk target"), accepting: ["application/json"], out: out,
            environment: gtkEnvironment, directory: folder)
        defer { target.stop() }
        try await compositor.place(titled: "transferkit drag", at: (100, 200))
        _ = try await target.waitForEvent(["ready"])
        try await compositor.place(titled: target.title, at: (700, 200))
        let from = try await compositor.waitForWindow(titled: "transferkit drag")
        let to = try await compositor.waitForWindow(titled: target.title)
        // TransferKit's window says nothing to the test: the press comes once the pointer has been over it a while
        // (wiggling, so it sees motion), and the drag is taken as started once the GTK target sees it enter.
        var over = 0
        try await pointer.drag(
            from: (from.x + from.width / 2, from.y + from.height / 2), to: (to.x + to.width / 2, to.y + to.height / 2),
            isPressable: {
                over += 1
                try self.pointer.move(to: (from.x + from.width / 2 + over % 2, from.y + from.height / 2))
                return over > 10
            },
            hasStarted: { true },
            isOver: { target.events.contains { $0.event == "enter" } })
        let drop = try await target.waitForEvent(["drop", "drop-failed"])
        #expect(drop.event == "drop", "\(target.transcript)")
        #expect(FileManager.default.contents(atPath: out.path) == bytes)
        let status = try await drag.exitStatus()
        let printed = String(decoding: FileManager.default.contents(atPath: output) ?? Data(), as: UTF8.self)
        #expect(status == 0, "\(printed)")
        #expect(printed.hasPrefix("dropped copy"), "\(printed)")
    }

    @Test(
        "the compositor closes the window (swaymsg kill): drag, nothing dropped, exits 1; drop reports 0 of 1 drops",
        arguments: ["drag", "drop"])
    func windowClosed(command: String) async throws {
        let card = folder.appendingPathComponent("card.json")
        try Data(#"{"name":"Luke"}"#.utf8).write(to: card)
        let output = folder.appendingPathComponent("\(command).out").path
        let arguments = command == "drag" ? ["drag", card.path] : ["drop", "-o", folder.path]
        let tool = try BackgroundProcess(
            [TransferKitExecutable.defaultPath] + arguments + ["--backend", "wayland"],
            environment: compositor.environment, outputFile: output)
        defer { tool.stop() }
        _ = try await compositor.waitForWindow(titled: "transferkit \(command)")
        _ = try await compositor.swaymsg(["[title=\"^transferkit \(command)$\"]", "kill"])
        let status = try await tool.exitStatus()
        let printed = String(decoding: FileManager.default.contents(atPath: output) ?? Data(), as: UTF8.self)
        #expect(status == 1, "\(printed)")
        #expect(!printed.contains("connectionFailed"), "\(printed)")
        if command == "drop" {
            #expect(printed == "transferkit drop: the window closed after 0 of 1 drops (empty)\n", "\(printed)")
        } else {
            #expect(printed == "not dropped: the window was closed\n", "\(printed)")
        }
    }
}
