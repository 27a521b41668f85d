import Foundation
import Testing
import TransferDisplayTestSupport
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting

@testable import TransferClipboard
@testable import TransferDisplay

/// `transferkit drag` and `drop` under a private Xvfb, against GTK 4 peers (`Tests/Interop/gtk4_dnd_peer.py`) and
/// against each other, with xdotool pressing, moving and releasing the pointer as a user does.
@Suite(
    "transferkit drag and drop on X11", .timeLimit(.minutes(5)),
    .enabled(
        if: x11ToolsPresent && gtk4DragPeerPresent,
        "needs Xvfb, xclip, xdotool and GTK 4 for Python (Debian: xvfb, xclip, xdotool, python3-gi, gir1.2-gtk-4.0)"))
final class DragDropX11CommandLineTests {
    let bed: DragAndDropBed
    let folder: URL

    init() async throws {
        bed = try await DragAndDropBed.start()
        folder = try makeTemporaryDirectory(prefix: "drag-drop-cli")
    }

    deinit {
        bed.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    var server: XvfbServer { bed.server }
    var pointer: PointerDriver { bed.pointer }
    /// The GTK peers' environment: this test's Xvfb, GDK's X11 backend.
    var gtkEnvironment: [String: String] { bed.peerEnvironment }

    /// Where TransferKit's window goes, and the GTK peer's (or the second TransferKit window's): side by side.
    let leftCorner = ScreenPoint(x: 0, y: 0)
    let rightCorner = ScreenPoint(x: 300, y: 0)

    /// A point inside TransferKit's window (at least 240 × 120 pixels) whose top-left corner is `corner`.
    func insideTransferKitWindow(_ corner: ScreenPoint) -> ScreenPoint {
        ScreenPoint(x: corner.x + 100, y: corner.y + 60)
    }

    /// The middle of a GTK peer's window whose top-left corner is `corner`.
    func insideGTKWindow(_ corner: ScreenPoint) -> ScreenPoint {
        ScreenPoint(x: corner.x + DragPeer.windowSize.x / 2, y: corner.y + DragPeer.windowSize.y / 2)
    }

    /// A running `transferkit`, its output (both streams) in a file of the test's folder.
    struct Tool {
        let process: BackgroundProcess
        let outputFile: String

        /// Everything it printed so far.
        var output: String {
            String(decoding: FileManager.default.contents(atPath: outputFile) ?? Data(), as: UTF8.self)
        }
    }

    /// Starts `transferkit` with `arguments` on this server's X11 (and in `environment`, when given).
    func start(_ arguments: [String], environment: [String: String]? = nil) throws -> Tool {
        let outputFile = folder.appendingPathComponent("transferkit-\(UUID().uuidString).out").path
        let process = try BackgroundProcess(
            [TransferKitExecutable.defaultPath] + arguments + ["--backend", "x11"],
            environment: environment ?? server.environment, outputFile: outputFile)
        return Tool(process: process, outputFile: outputFile)
    }

    /// Finds TransferKit's window titled `title` and places its top-left corner at `corner`.
    func place(_ title: String, at corner: ScreenPoint) async throws {
        try await pointer.place(try await pointer.window(titled: title), at: corner)
    }

    /// A file in the test's folder holding `bytes`.
    func file(_ name: String, _ bytes: Data) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try bytes.write(to: url)
        return url
    }

    static let card = Data(#"{"character":"Jedi","name":"Luke"}"#.utf8)

    /// How a `drag --move` (or a plain `drag`) to a GTK target goes, by what the target does.
    struct MoveCase: Sendable, CustomTestStringConvertible {
        /// `copy` or `move`: the action the GTK target prefers; `refuse`: it refuses every drop.
        var target: String
        /// Whether `drag` gets `--move`.
        var move: Bool
        /// Whether the file is gone afterwards.
        var removed: Bool
        var testDescription: String { "\(move ? "drag --move" : "drag"), GTK target \(target)" }
    }

    @Test(
        "drag card.json → a GTK 4 target receives the bytes; --move removes the file only after a performed move",
        arguments: [
            MoveCase(target: "copy", move: false, removed: false),
            MoveCase(target: "move", move: false, removed: false),
            MoveCase(target: "copy", move: true, removed: false), MoveCase(target: "move", move: true, removed: true),
            MoveCase(target: "refuse", move: true, removed: false),
        ])
    func dragToGTK(_ scenario: MoveCase) async throws {
        let card = try file("card.json", Self.card)
        let out = folder.appendingPathComponent("gtk-received.json")
        let drag = try start(["drag", "--and-exit"] + (scenario.move ? ["--move"] : []) + [card.path])
        defer { drag.process.stop() }
        let target = try DragPeer.target(
            title: "gtk4 target for transferkit drag", accepting: ["application/json"], out: out,
            prefer: scenario.target == "move" ? "move" : "copy", refuse: scenario.target == "refuse",
            environment: gtkEnvironment, directory: folder)
        defer { target.stop() }
        try await place("transferkit drag", at: leftCorner)
        try await target.place(at: rightCorner, with: pointer)

        try await pointer.drag(from: insideTransferKitWindow(leftCorner), to: insideGTKWindow(rightCorner))
        let status = try await drag.process.exitStatus()
        if scenario.target == "refuse" {
            #expect(status == 1, "\(drag.output)")
            #expect(drag.output.hasPrefix("not dropped"), "\(drag.output)")
            #expect(!target.events.contains { $0.event == "drop" }, "\(target.transcript)")
        } else {
            let drop = try await target.waitForEvent(["drop", "drop-failed"])
            #expect(drop.event == "drop", "\(target.transcript)")
            #expect(FileManager.default.contents(atPath: out.path) == Self.card)
            let performed = scenario.move && scenario.target == "move" ? "move" : "copy"
            #expect(drop.action == performed)
            #expect(status == 0, "\(drag.output)")
            #expect(drag.output.hasPrefix("dropped \(performed) 0x"), "\(drag.output)")
        }
        #expect(FileManager.default.fileExists(atPath: card.path) == !scenario.removed, "\(drag.output)")
    }

    @Test(
        "drag FILE offers the document portal's key: a GTK 4 target takes it, and a sandboxed process opens the file",
        .enabled(if: hasSandbox, "needs dbus-daemon, xdg-document-portal, fuse3, /dev/fuse, bwrap and python3-gi"))
    func dragOffersThePortalKey() async throws {
        let portal = try await PrivatePortal()
        let card = try file("card.json", Self.card)
        let out = folder.appendingPathComponent("key.bin")
        let bus = ["DBUS_SESSION_BUS_ADDRESS": portal.bus.address, "XDG_RUNTIME_DIR": portal.bus.directory.path]
        // Without --and-exit: the key lives while the dragging process is on the bus, and this test trades it after
        // the drop, where a toolkit trades it during the drop.
        let drag = try start(["drag", card.path], environment: server.environment.merging(bus) { $1 })
        defer { drag.process.stop() }
        let target = try DragPeer.target(
            title: "gtk4 target of the portal key", accepting: ["application/vnd.portal.filetransfer"], out: out,
            environment: gtkEnvironment.merging(bus) { $1 }, directory: folder)
        defer { target.stop() }
        try await place("transferkit drag", at: leftCorner)
        try await target.place(at: rightCorner, with: pointer)
        try await pointer.drag(from: insideTransferKitWindow(leftCorner), to: insideGTKWindow(rightCorner))
        let drop = try await target.waitForEvent(["drop", "drop-failed"])
        #expect(drop.event == "drop", "\(target.transcript) \(drag.output)")
        #expect(drop.mime == "application/vnd.portal.filetransfer")
        let key = String(
            decoding: (FileManager.default.contents(atPath: out.path) ?? Data()).prefix { $0 != 0 }, as: UTF8.self)
        #expect(try await portal.documents.retrieveFiles(key: key) == [card.path])
        try await expectSandboxedRead(
            key: key, hostPath: card.path, text: String(decoding: Self.card, as: UTF8.self), portal: portal,
            folder: folder)
    }

    @Test("a GTK 4 source → drop -o DIR writes its bytes as a new file, prints the line and exits 0")
    func dropFromGTK() async throws {
        let card = try file("offer.json", Self.card)
        let out = folder.appendingPathComponent("dropped", isDirectory: true)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try Data("taken".utf8).write(to: out.appendingPathComponent("item.json"))
        let (drop, source) = try await dragFromGTK(
            [("application/json", card)], titled: "gtk4 source for transferkit drop", to: ["drop", "-o", out.path])
        defer { drop.process.stop() }
        defer { source.stop() }
        #expect(try await drop.process.exitStatus() == 0, "\(drop.output)")
        // item.json was taken: the drop never replaces a file.
        let written = out.appendingPathComponent("item 2.json")
        #expect(FileManager.default.contents(atPath: written.path) == Self.card, "\(drop.output)")
        #expect(drop.output == "\(written.path)\tpublic.json\t\(Self.card.count)\n")
        let kept = out.appendingPathComponent("item.json").path
        #expect(FileManager.default.contents(atPath: kept) == Data("taken".utf8))
        // Another program's drag is copied, never moved: its source keeps its data. (GTK does not always report the
        // drag's end when the target's process exits right after finishing the drop: checked when it does.)
        if let end = try? await source.waitForEvent(["drag-end", "drag-cancel"], within: .seconds(10)) {
            #expect(end.event == "drag-end" && end.deleteData == false, "\(source.transcript)")
        }
    }

    /// Starts `transferkit` with `arguments` (a `drop`) and a GTK 4 source window offering `offers`, side by side,
    /// and drags from the source onto TransferKit's window; both still run (the caller stops them).
    func dragFromGTK(
        _ offers: [(mime: String, file: URL)], titled title: String, to arguments: [String]
    ) async throws -> (Tool, DragPeer) {
        let drop = try start(arguments)
        let source: DragPeer
        do {
            source = try DragPeer.source(
                title: title, offers: offers, environment: gtkEnvironment, directory: folder)
        } catch {
            drop.process.stop()
            throw error
        }
        do {
            try await source.place(at: leftCorner, with: pointer)
            try await place("transferkit drop", at: rightCorner)
            // Pressed again when GTK did not begin its drag: on a loaded machine a window just mapped can miss the
            // first press (a drop that then waited out its time limit, 1 December).
            try await pointer.drag(
                from: insideGTKWindow(leftCorner), to: insideTransferKitWindow(rightCorner), started: source.dragBegan)
        } catch {
            source.stop()
            drop.process.stop()
            throw error
        }
        return (drop, source)
    }

    /// A folder of files to drag as `file:` URIs: a text file, a link to it, a FIFO, a folder; and the URI list.
    func filesToDrag() throws -> (folder: URL, list: URL, hello: Data) {
        let source = folder.appendingPathComponent("files to drag", isDirectory: true)
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        let hello = Data("hello from a file manager\n".utf8)
        try hello.write(to: source.appendingPathComponent("hello.txt"))
        try FileManager.default.createSymbolicLink(
            atPath: source.appendingPathComponent("link to hello").path, withDestinationPath: "hello.txt")
        #expect(mkfifo(source.appendingPathComponent("pipe").path, 0o600) == 0)
        try FileManager.default.createDirectory(
            at: source.appendingPathComponent("a folder"), withIntermediateDirectories: true)
        let uris = ["hello.txt", "link to hello", "pipe", "a folder"].map {
            source.appendingPathComponent($0).absoluteString + "\r\n"
        }
        let list = try file("files.uris", Data(uris.joined().utf8))
        return (source, list, hello)
    }

    @Test("a GTK 4 source of file: URIs → drop -o DIR copies the files under their own names, never over one")
    func dropFilesFromGTK() async throws {
        let (files, list, hello) = try filesToDrag()
        // Two more that are refused: a file past what --max-size leaves after the others, and a kernel file that
        // reports no size (it would be copied empty).
        try Data(repeating: 7, count: 8192).write(to: files.appendingPathComponent("big.bin"))
        let more = [files.appendingPathComponent("big.bin").absoluteString, "file:///proc/self/status"]
        let longer = try file("more.uris", try Data(contentsOf: list) + Data(more.joined(separator: "\r\n").utf8))
        let out = folder.appendingPathComponent("copies", isDirectory: true)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try Data("taken".utf8).write(to: out.appendingPathComponent("hello.txt"))
        let (drop, source) = try await dragFromGTK(
            [("text/uri-list", longer)], titled: "gtk4 file source for transferkit drop",
            to: ["drop", "-o", out.path, "--max-size", "4K"])
        defer { drop.process.stop() }
        defer { source.stop() }
        // The FIFO and the folder are refused: named, and the exit status says so once the drop is done.
        #expect(try await drop.process.exitStatus() == 2, "\(drop.output)")
        let copy = out.appendingPathComponent("hello 2.txt")
        let linked = out.appendingPathComponent("link to hello")
        #expect(FileManager.default.contents(atPath: copy.path) == hello, "\(drop.output)")
        #expect(FileManager.default.contents(atPath: linked.path) == hello, "\(drop.output)")
        #expect(
            (try? FileManager.default.destinationOfSymbolicLink(atPath: linked.path)) == nil,
            "the link's target was copied, not the link")
        let kept = out.appendingPathComponent("hello.txt")
        #expect(FileManager.default.contents(atPath: kept.path) == Data("taken".utf8))
        let lines = drop.output.split(separator: "\n").map(String.init)
        #expect(lines.contains("\(copy.path)\tpublic.data\t\(hello.count)"), "\(drop.output)")
        #expect(lines.contains("\(linked.path)\tpublic.data\t\(hello.count)"), "\(drop.output)")
        #expect(drop.output.contains("/pipe was not copied: is a FIFO"), "\(drop.output)")
        #expect(drop.output.contains("/a folder was not copied: is a folder"), "\(drop.output)")
        #expect(
            drop.output.contains(
                "/big.bin was not copied: has 8192 bytes, more than the 4044 this drop may still carry"),
            "\(drop.output)")
        #expect(
            drop.output.contains("/proc/self/status was not copied: reports no size but has content"), "\(drop.output)")
        #expect(drop.output.contains("4 dropped files were not copied"), "\(drop.output)")
        let entries = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(entries == ["hello 2.txt", "hello.txt", "link to hello"], "\(entries)")
    }

    @Test("drop --uris writes a dropped list of file: URIs as a file holding the list, as before")
    func dropURIsFromGTK() async throws {
        let (_, list, _) = try filesToDrag()
        let out = folder.appendingPathComponent("lists", isDirectory: true)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let (drop, source) = try await dragFromGTK(
            [("text/uri-list", list)], titled: "gtk4 uri source for transferkit drop",
            to: ["drop", "-o", out.path, "--uris"])
        defer { drop.process.stop() }
        defer { source.stop() }
        #expect(try await drop.process.exitStatus() == 0, "\(drop.output)")
        let entries = try FileManager.default.contentsOfDirectory(atPath: out.path)
        #expect(entries.count == 1, "\(entries)")
        let written = try #require(entries.first)
        let bytes = try #require(FileManager.default.contents(atPath: out.appendingPathComponent(written).path))
        #expect(String(decoding: bytes, as: UTF8.self).contains("hello.txt"))
    }

    @Test("a GTK 4 source → drop --archive saves every offered type into one archive")
    func dropArchiveFromGTK() async throws {
        let card = try file("offer.json", Self.card)
        let text = try file("offer.txt", Data("Luke, Jedi".utf8))
        let archive = folder.appendingPathComponent("dropped.transferkit")
        let (drop, source) = try await dragFromGTK(
            [("application/json", card), ("text/plain;charset=utf-8", text)], titled: "gtk4 source for drop --archive",
            to: ["drop", "--archive", archive.path])
        defer { drop.process.stop() }
        defer { source.stop() }
        #expect(try await drop.process.exitStatus() == 0, "\(drop.output)")
        let extract = try await ChildProcess.run(
            TransferKitExecutable.defaultPath, arguments: ["extract", archive.path, "--type", "public.json"])
        #expect(Data(extract.standardOutput) == Self.card, "\(extract.errorText)")
        let plain = try await ChildProcess.run(
            TransferKitExecutable.defaultPath,
            arguments: ["extract", archive.path, "--type", "public.utf8-plain-text"])
        #expect(plain.outputText == "Luke, Jedi", "\(plain.errorText)")
        #expect(drop.output.hasPrefix("item 1\tpublic.json\t"), "\(drop.output)")
    }

    @Test(
        "drag → drop between two transferkit processes: the file arrives; with --move it leaves its folder once",
        arguments: [false, true])
    func dragToDrop(move: Bool) async throws {
        let card = try file("card.json", Self.card)
        let out = folder.appendingPathComponent("received", isDirectory: true)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let drag = try start(["drag", "--and-exit"] + (move ? ["--move"] : []) + [card.path])
        defer { drag.process.stop() }
        let drop = try start(["drop", "-o", out.path])
        defer { drop.process.stop() }
        try await place("transferkit drag", at: leftCorner)
        try await place("transferkit drop", at: rightCorner)

        try await pointer.drag(from: insideTransferKitWindow(leftCorner), to: insideTransferKitWindow(rightCorner))
        #expect(try await drop.process.exitStatus() == 0, "\(drop.output)")
        #expect(try await drag.process.exitStatus() == 0, "\(drag.output)")
        let written = out.appendingPathComponent("card.json")  // the name in the URL the drag offers beside it
        #expect(FileManager.default.contents(atPath: written.path) == Self.card, "\(drop.output)")
        #expect(drop.output == "\(written.path)\tpublic.json\t\(Self.card.count)\n")
        #expect(drag.output.hasPrefix("dropped \(move ? "move" : "copy")"), "\(drag.output)")
        #expect(FileManager.default.fileExists(atPath: card.path) == !move)
    }

    @Test("drag --move of a file that cannot be removed (chattr +i): named on standard error, the file stays, exit 2")
    func moveOfAFileThatCannotBeRemoved() async throws {
        let card = try file("card.json", Self.card)
        // An immutable file cannot be unlinked, even by root (who ignores the folder's modes).
        let chattr = try? await ChildProcess.run(SystemTool.path("chattr"), arguments: ["+i", card.path])
        try #require(chattr?.status == 0, "chattr +i is needed (an ext2/3/4 or similar file system)")
        let out = folder.appendingPathComponent("gtk-received.json")
        let drag = try start(["drag", "--and-exit", "--move", card.path])
        defer { drag.process.stop() }
        let target = try DragPeer.target(
            title: "gtk4 target for transferkit drag", accepting: ["application/json"], out: out, prefer: "move",
            refuse: false, environment: gtkEnvironment, directory: folder)
        defer { target.stop() }
        try await place("transferkit drag", at: leftCorner)
        try await target.place(at: rightCorner, with: pointer)

        try await pointer.drag(from: insideTransferKitWindow(leftCorner), to: insideGTKWindow(rightCorner))
        let status = try? await drag.process.exitStatus()
        _ = try await ChildProcess.run(SystemTool.path("chattr"), arguments: ["-i", card.path])  // so the folder goes
        #expect(status == 2, "\(drag.output)")
        #expect(drag.output.contains("dropped move 0x"), "\(drag.output)")
        #expect(
            drag.output.contains("transferkit drag: cannot remove \(card.path) after the target moved it"),
            "\(drag.output)")
        #expect(FileManager.default.contents(atPath: card.path) == Self.card)
    }

    @Test(
        "the window manager closes the window (WM_DELETE_WINDOW): drag, nothing dropped, exits 1; drop reports 0 of 1",
        arguments: ["drag", "drop"])
    func windowClosed(command: String) async throws {
        let card = try file("card.json", Self.card)
        let tool = try start(command == "drag" ? ["drag", card.path] : ["drop", "-o", folder.path])
        defer { tool.process.stop() }
        let window = try #require(X11.ID(try await pointer.window(titled: "transferkit \(command)")))
        // What a window manager sends when the user closes the window, from another client.
        let wm = try await X11Backend.connect(environment: server.environment, timeout: .seconds(30))
        defer { wm.close() }
        let atoms = try await wm.atoms(["WM_PROTOCOLS", "WM_DELETE_WINDOW"])
        try wm.connection.send(
            X11RequestEncoder.sendClientMessage(
                to: window, window: window, type: atoms[0], data: [atoms[1], 0, 0, 0, 0]))
        let status = try await tool.process.exitStatus()
        #expect(status == 1, "\(tool.output)")
        if command == "drop" {
            #expect(tool.output == "transferkit drop: the window closed after 0 of 1 drops (empty)\n")
        } else {
            #expect(tool.output == "not dropped: the window was closed\n")
        }
    }
}
