import Foundation
import Testing
import TransferClipboard
import TransferDisplayTestSupport
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting
import UniformTypes

/// `transferkit copy` and `paste` against wl-copy, wl-paste and the library, under a private headless sway.
@Suite(
    "transferkit copy and paste on Wayland", .serialized, .timeLimit(.minutes(5)),
    .enabled(if: waylandToolsPresent, "needs sway, wl-clipboard and setpriv (Debian: sway, wl-clipboard, util-linux)"))
final class WaylandCommandLineTests {
    let compositor: WaylandCompositor

    init() async throws {
        compositor = try await WaylandCompositor.start()
    }

    deinit {
        compositor.stop()
    }

    var folder: URL { compositor.directory }

    /// Runs `executable` (by default `transferkit`) with `arguments` against this compositor.
    func transferkit(
        _ arguments: [String], executable: String = TransferKitExecutable.defaultPath
    ) async throws -> ChildProcess.Result {
        try await ChildProcess.run(executable, arguments: arguments, environment: compositor.environment)
    }

    func file(_ name: String, _ bytes: Data) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try bytes.write(to: url)
        return url
    }

    func offered() async throws -> [String] { try await compositor.offeredNames() }

    @Test("copy returns at once and a background copy serves wl-paste until wl-copy takes the clipboard; then it exits")
    func copyServesInTheBackground() async throws {
        let path = try file("notes-background.txt", Data("May the Force be with you.\n".utf8)).path
        let copy = try await transferkit(["copy", path])
        #expect(copy.status == 0, "\(copy.errorText)")
        #expect(processes(containing: path).count == 1)
        let types = try await offered()
        #expect(types.contains("text/plain") && types.contains("text/uri-list"), "\(types)")
        let text = try await compositor.wlPaste(["--no-newline", "--type", "text/plain"])
        #expect(text.output == Data("May the Force be with you.\n".utf8))
        // wl-copy takes the clipboard: the serving copy lets go and exits.
        try await compositor.wlCopy(try file("other.txt", Data("other".utf8)), type: "text/x-other")
        for _ in 0..<3000 where !processes(containing: path).isEmpty {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(processes(containing: path).isEmpty, "the serving copy is still running")
    }

    @Test(
        "copy FILE offers the document portal's key on Wayland too, and the key gives the file back",
        .enabled(if: hasPortal, "needs dbus-daemon, xdg-document-portal, fuse3 and /dev/fuse"))
    func portalKey() async throws {
        let portal = try await PrivatePortal()
        let path = try file("portal.txt", Data("through the portal".utf8)).path
        var environment = compositor.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = portal.bus.address
        let copy = try await ChildProcess.run(
            TransferKitExecutable.defaultPath, arguments: ["copy", path], environment: environment)
        #expect(copy.status == 0, "\(copy.errorText)")
        let types = try await offered()
        #expect(
            types.contains("application/vnd.portal.filetransfer") && types.contains("application/vnd.portal.files"),
            "\(types)")
        let key = try await compositor.wlPaste(["--no-newline", "--type", "application/vnd.portal.filetransfer"])
        let keyText = String(decoding: key.output.prefix { $0 != 0 }, as: UTF8.self)
        #expect(try await portal.documents.retrieveFiles(key: keyText) == [path])
    }

    @Test("copy a.json offers the JSON as plain text too, and wl-paste reads it under the text names")
    func jsonIsText() async throws {
        let json = Data(#"{"name":"Leia","title":"Princess ✓"}"#.utf8)
        let path = try file("a.json", json).path
        let copy = try await transferkit(["copy", path])
        #expect(copy.status == 0, "\(copy.errorText)")
        defer { for pid in processes(containing: path) { kill(pid, SIGKILL) } }
        let types = try await offered()
        #expect(types.contains("application/json"), "\(types)")
        for name in ["text/plain;charset=utf-8", "text/plain"] {
            #expect(types.contains(name), "\(types)")
            let text = try await compositor.wlPaste(["--no-newline", "--type", name])
            #expect(text.output == json, "\(name): \(text.error)")
        }
    }

    @Test("watch --json prints one object per change of owner")
    func watchPrintsChanges() async throws {
        let output = folder.appendingPathComponent("watch.out").path
        let watch = try BackgroundProcess(
            [TransferKitExecutable.defaultPath, "watch", "--json", "--count", "1"],
            environment: compositor.environment, outputFile: output)
        defer { watch.stop() }
        // A copy made before the watcher has connected is not a change it sees: copy again until it has seen one.
        let png = try file("watched.png", pngBytes)
        for _ in 0..<60 where watch.isRunning {
            try await compositor.wlCopy(png, type: "image/png")
            for _ in 0..<50 where watch.isRunning { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(try await watch.exitStatus() == 0)
        let text = String(decoding: FileManager.default.contents(atPath: output) ?? Data(), as: UTF8.self)
        #expect(text.hasPrefix(#"{"concealed":false,"selection":"clipboard","transient":false,"types":["#), "\(text)")
        #expect(text.contains(#"{"name":"image/png","type":"public.png"}"#), "\(text)")
    }

    @Test("paste --type public.image gives the bytes wl-copy offers as image/png; --list names them")
    func pasteFromWlCopy() async throws {
        try await compositor.wlCopy(try file("cover.png", pngBytes), type: "image/png")
        let list = try await transferkit(["paste", "--list"])
        #expect(list.outputText == "image/png\tpublic.png\n", "\(list.outputText) \(list.errorText)")
        let out = folder.appendingPathComponent("pasted.png").path
        let paste = try await transferkit(["paste", "--type", "public.image", "-o", out])
        #expect(paste.status == 0, "\(paste.errorText)")
        #expect(FileManager.default.contents(atPath: out) == pngBytes)
        let text = try await transferkit(["paste", "--type", "public.utf8-plain-text"])
        #expect(text.status == 1)
        #expect(text.errorText.contains("offers nothing of type public.utf8-plain-text; it offers public.png"))
    }

    @Test("paste --type public.file-url reads the text/uri-list wl-copy offers; its snapshot has no dyn.mime type")
    func pasteFileURLFromWlCopy() async throws {
        let list = Data("file:///tmp/one.txt\r\nfile:///tmp/two%20words.txt\r\n".utf8)
        try await compositor.wlCopy(try file("list.uris", list), type: "text/uri-list")
        let listed = try await transferkit(["paste", "--list"])
        // wl-copy adds the plain-text names to a text/* type it offers.
        #expect(listed.outputText.hasPrefix("text/uri-list\torg.transferkit.uri-list\n"), "\(listed.outputText)")
        try await expectFileURLsAndSnapshot(list, archive: folder.appendingPathComponent("uris.transferkit").path) {
            try await self.transferkit($0)
        }
    }

    @Test("paste --archive snapshots every representation; copy of the archive offers the same types and bytes")
    func snapshotAndRestore() async throws {
        let clipboard = try await Clipboard(
            backend: .wayland, environment: compositor.environment, timeout: waylandPatience)
        defer { clipboard.close() }
        let handle = try await clipboard.write([threeRepresentationProvider(CallCounter())])
        let names = [cardType.identifier, "text/plain;charset=utf-8", "image/png"]
        var before: [String: Data] = [:]
        for name in names { before[name] = try await compositor.wlPaste(["--no-newline", "--type", name]).output }
        let archive = folder.appendingPathComponent("clip.transferkit").path
        let snapshot = try await transferkit(["paste", "--archive", "-o", archive])
        #expect(snapshot.status == 0, "\(snapshot.errorText)")
        await handle.release()
        #expect(try await offered().isEmpty)

        let restore = try await transferkit(["copy", archive])
        #expect(restore.status == 0, "\(restore.errorText)")
        defer { for pid in processes(containing: archive) { kill(pid, SIGKILL) } }
        try await compositor.waitUntilOffered("image/png")
        let types = try await offered()
        for name in names {
            #expect(types.contains(name), "\(name) missing from \(types)")
            let now = try await compositor.wlPaste(["--no-newline", "--type", name])
            #expect(now.output == before[name], "\(name)")
        }
    }

    @Test(
        "images: wl-copy's PNG pastes as BMP; copy of a PNG serves wl-paste its BMP; the snapshot keeps the PNG alone")
    func derivedImages() async throws {
        try await compositor.expectDerivedImages()
    }

    @Test("64 MiB both ways through the pipes, with bounded memory")
    func largeTransfers() async throws {
        let growth = try await compositor.largeTransferGrowth()
        // 64 MiB through a process that held it whole would grow by 65 536 KiB at least.
        #expect(growth.writing < 24 << 10, "writing grew the peak RSS by \(growth.writing) KiB")
        #expect(growth.reading < 24 << 10, "reading grew the peak RSS by \(growth.reading) KiB")
        #expect(growth.restoring < 24 << 10, "restoring an archive grew the peak RSS by \(growth.restoring) KiB")
        print(
            "64 MiB Wayland: peak RSS growth writing \(growth.writing) KiB, reading \(growth.reading) KiB, "
                + "restoring an archive \(growth.restoring) KiB")
    }
}
