import Foundation
import Testing
import TransferDisplayTestSupport
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting

/// File lists between GTK 4 (`Tests/Interop/gtk4_files_peer.py`, a `Gdk.FileList` as GTK's applications use it) and
/// `transferkit`, through the real document portal, with one side in a `bwrap` sandbox the portal takes for a Flatpak
/// app: the sandbox cannot see the file's path, so a file that arrives came through the portal's key.
@Suite(
    "File lists between GTK 4 and transferkit through the document portal, one side sandboxed",
    .enabled(
        if: hasSandbox && x11ToolsPresent && gtk4DragPeerPresent,
        "needs dbus-daemon, xdg-document-portal, fuse3, /dev/fuse, bwrap, Xvfb, xclip, xdotool and GTK 4 for Python"),
    .serialized, .timeLimit(.minutes(5)))
final class DocumentPortalGTKTests {
    let bed: DragAndDropBed
    let portal: PrivatePortal
    let folder: URL
    /// The file the tests hand over, outside everything a sandbox sees.
    let file: URL
    static let text = "Hadouken! from a file only the portal can hand over"

    init() async throws {
        portal = try await PrivatePortal()
        bed = try await DragAndDropBed.start()
        folder = try makeTemporaryDirectory(prefix: "portal-gtk")
        file = folder.appendingPathComponent("move list.txt")
        try Data(Self.text.utf8).write(to: file)
    }

    deinit {
        bed.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// The environment of both sides: the display (GDK's X11 backend) and the private bus with its runtime folder.
    var environment: [String: String] {
        bed.peerEnvironment.merging([
            "DBUS_SESSION_BUS_ADDRESS": portal.bus.address, "XDG_RUNTIME_DIR": portal.bus.directory.path,
        ]) { $1 }
    }

    /// A sandbox that reaches the display (its socket and authority file) and, with `transferKit`, runs this build
    /// of `transferkit` (its folder and the Swift runtime's); `writable` paths are bound too.
    func sandbox(transferKit: Bool = false, writable: [String] = []) throws -> [String] {
        var readOnly = ["/tmp/.X11-unix", bed.server.directory.path]
        if transferKit {
            readOnly.append(URL(fileURLWithPath: TransferKitExecutable.defaultPath).deletingLastPathComponent().path)
            if let runtime = swiftRuntimeFolder() { readOnly.append(runtime) }
        }
        return try sandboxArguments(portal: portal, folder: folder, readOnly: readOnly, writable: writable)
    }

    /// Expects `paths` to be one path under the portal's mount holding the file's text (read here, on the host).
    func expectPortalPath(_ paths: [String]?, _ context: String) {
        #expect(paths?.count == 1, "\(context)")
        guard let path = paths?.first else { return }
        #expect(path.hasPrefix(portal.bus.directory.path + "/doc/"), "\(context)")
        #expect(FileManager.default.contents(atPath: path) == Data(Self.text.utf8), "\(context)")
    }

    @Test("GTK 4 copies a file; transferkit paste in a sandbox gets a path it can open, through GTK's key")
    func gtkCopyToSandboxedPaste() async throws {
        let owner = try DragPeer.files(
            "copy", files: [file], title: "gtk4 file copy", environment: environment, directory: folder)
        defer { owner.stop() }
        let ready = try await owner.waitForEvent(["ready"], within: patience)
        #expect(ready.portal == true, "GTK offers the key only when the portal ran before it: \(owner.transcript)")
        let paste = try await ChildProcess.run(
            SystemTool.path("bwrap"),
            arguments: try sandbox(transferKit: true) + [
                TransferKitExecutable.defaultPath, "paste", "--type", "text/uri-list", "--backend", "x11",
            ],
            environment: environment)
        #expect(paste.status == 0, "\(paste.errorText)")
        let urls = try URL.list(fromURIList: Data(paste.standardOutput))
        expectPortalPath(urls.map(\.path), paste.outputText)
    }

    @Test("transferkit copy; GTK 4 pastes in a sandbox through transferkit's key, and unsandboxed gets the path")
    func copyToSandboxedGTKPaste() async throws {
        let copy = try await ChildProcess.run(
            TransferKitExecutable.defaultPath, arguments: ["copy", file.path, "--backend", "x11"],
            environment: environment)
        #expect(copy.status == 0, "\(copy.errorText)")
        let sandboxed = try DragPeer.files(
            "paste", title: "gtk4 sandboxed paste", environment: environment, directory: folder,
            sandbox: try sandbox())
        defer { sandboxed.stop() }
        let pasted = try await sandboxed.waitForEvent(["paste", "paste-failed"], within: patience)
        #expect(pasted.event == "paste", "\(sandboxed.transcript)")
        expectPortalPath(pasted.paths, sandboxed.transcript)
        #expect(pasted.texts == [Self.text])

        let host = try DragPeer.files("paste", title: "gtk4 paste", environment: environment, directory: folder)
        defer { host.stop() }
        let hostPaste = try await host.waitForEvent(["paste", "paste-failed"], within: patience)
        #expect(hostPaste.paths == [file.path], "\(host.transcript)")
    }

    @Test("GTK 4 drags a file onto transferkit drop in a sandbox: the file is copied through GTK's key")
    func gtkDragToSandboxedDrop() async throws {
        let out = folder.appendingPathComponent("dropped", isDirectory: true)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let outputFile = folder.appendingPathComponent("drop.out").path
        let drop = try BackgroundProcess(
            [SystemTool.path("bwrap")] + (try sandbox(transferKit: true, writable: [out.path])) + [
                TransferKitExecutable.defaultPath, "drop", "-o", out.path, "--backend", "x11",
            ], environment: environment, outputFile: outputFile)
        defer { drop.stop() }
        let source = try DragPeer.files(
            "drag-source", files: [file], title: "gtk4 file drag", environment: environment, directory: folder)
        defer { source.stop() }
        try await source.place(at: ScreenPoint(x: 0, y: 0), with: bed.pointer)
        try await bed.pointer.place(
            try await bed.pointer.window(titled: "transferkit drop"), at: ScreenPoint(x: 300, y: 0))
        try await bed.pointer.drag(
            from: ScreenPoint(x: 100, y: 75), to: ScreenPoint(x: 400, y: 60), started: source.dragBegan)
        let output = { String(decoding: FileManager.default.contents(atPath: outputFile) ?? Data(), as: UTF8.self) }
        #expect(try await drop.exitStatus() == 0, "\(output())")
        let copied = out.appendingPathComponent("move list.txt")
        #expect(FileManager.default.contents(atPath: copied.path) == Data(Self.text.utf8), "\(output())")
    }

    @Test("transferkit drags a file onto a GTK 4 drop target in a sandbox: GTK opens it through transferkit's key")
    func dragToSandboxedGTKDrop() async throws {
        let outputFile = folder.appendingPathComponent("drag.out").path
        let drag = try BackgroundProcess(
            [TransferKitExecutable.defaultPath, "drag", "--and-exit", file.path, "--backend", "x11"],
            environment: environment, outputFile: outputFile)
        defer { drag.stop() }
        let target = try DragPeer.files(
            "drop-target", title: "gtk4 sandboxed drop", environment: environment, directory: folder,
            sandbox: try sandbox())
        defer { target.stop() }
        try await bed.pointer.place(
            try await bed.pointer.window(titled: "transferkit drag"), at: ScreenPoint(x: 0, y: 0))
        try await target.place(at: ScreenPoint(x: 300, y: 0), with: bed.pointer)
        try await bed.pointer.drag(from: ScreenPoint(x: 100, y: 60), to: ScreenPoint(x: 400, y: 75))
        let dropped = try await target.waitForEvent(["drop", "drop-failed"], within: patience)
        #expect(dropped.event == "drop", "\(target.transcript)")
        expectPortalPath(dropped.paths, target.transcript)
        #expect(dropped.texts == [Self.text])
        let output = String(decoding: FileManager.default.contents(atPath: outputFile) ?? Data(), as: UTF8.self)
        #expect(try await drag.exitStatus() == 0, "\(output)")
    }
}
