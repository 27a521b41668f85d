import Foundation
import Testing
import TransferClipboard
import TransferDisplayTestSupport
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting
import UniformTypes

/// `transferkit keep` under a private Xvfb: what xclip and TransferKit owners copied survives their death.
@Suite(
    "transferkit keep on X11", .serialized, .timeLimit(.minutes(5)),
    .enabled(if: x11ToolsPresent, "needs Xvfb and xclip (Debian: xvfb, xclip)"))
final class KeeperX11Tests {
    let server: XvfbServer
    let folder: URL
    let environment: [String: String]

    init() async throws {
        server = try await XvfbServer.start()
        folder = try makeTemporaryDirectory(prefix: "clipboard-keeper")
        environment = try keeperEnvironment(server.environment, runtime: folder.appendingPathComponent("runtime"))
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    func transferkit(_ arguments: [String]) async throws -> ChildProcess.Result {
        try await ChildProcess.run(TransferKitExecutable.defaultPath, arguments: arguments, environment: environment)
    }

    func file(_ name: String, _ bytes: Data) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try bytes.write(to: url)
        return url
    }

    /// Serves `arguments` with `transferkit copy --foreground` until killed.
    func copyInForeground(_ arguments: [String]) throws -> BackgroundProcess {
        try BackgroundProcess(
            [TransferKitExecutable.defaultPath, "copy", "--foreground"] + arguments, environment: environment)
    }

    @Test("xclip's text survives xclip's death: xclip -o and transferkit paste get it from the keeper")
    func xclipTextSurvives() async throws {
        let keeper = try RunningKeeper([], environment: environment, folder: folder)
        let xclip = try server.startXclipServing(
            ["-selection", "clipboard"], file: try file("text.txt", Data("May the Force be with you.".utf8)).path)
        try await keeper.waitForLines(startingWith: "kept clipboard")
        xclip.stop()
        try await keeper.waitForLines(startingWith: "restored clipboard")
        let text = try await server.xclip(["-o", "-selection", "clipboard"])
        #expect(text.status == 0, "\(text.error)")
        #expect(text.output == Data("May the Force be with you.".utf8))
        let paste = try await transferkit(["paste"])
        #expect(paste.status == 0, "\(paste.errorText)")
        #expect(Data(paste.standardOutput) == Data("May the Force be with you.".utf8))
    }

    @Test(
        "a GTK 3 application's text and HTML survive its exit: the keeper is the clipboard manager it stores to",
        .enabled(if: gtk3PeerPresent, "needs GTK 3's Python bindings (Debian: python3-gi, gir1.2-gtk-3.0)"))
    func gtkStoresToTheKeeper() async throws {
        let keeper = try RunningKeeper([], environment: environment, folder: folder)
        try await keeper.waitForLines(startingWith: "clipboard manager:")
        var gtk = environment
        gtk["GDK_BACKEND"] = "x11"
        gtk["NO_AT_BRIDGE"] = "1"
        let output = folder.appendingPathComponent("gtk-peer.out").path
        let peer = try BackgroundProcess(
            [
                SystemTool.path("python3"), repositoryFile("Tests/Interop/gtk3_clipboard_peer.py").path,
                "Grüße aus GTK",
                "<b>Grüße</b>",
            ],
            environment: gtk, outputFile: output)
        #expect(try await peer.exitStatus() == 0)
        let said = String(decoding: FileManager.default.contents(atPath: output) ?? Data(), as: UTF8.self)
        #expect(said.contains("stored"), "\(said)")
        try await keeper.waitForLines(startingWith: "restored clipboard")
        let html = try await server.xclip(["-o", "-selection", "clipboard", "-t", "text/html"])
        #expect(html.output == Data("<b>Grüße</b>".utf8), "\(keeper.lines)")
        let text = try await server.xclip(["-o", "-selection", "clipboard", "-t", "UTF8_STRING"])
        #expect(text.output == Data("Grüße aus GTK".utf8), "\(keeper.lines)")
    }

    @Test("every type of a TransferKit owner survives its death, each with its exact bytes")
    func everyTypeSurvives() async throws {
        let archive = folder.appendingPathComponent("several.transferkit")
        try await writeKeptItemArchive(to: archive)
        let keeper = try RunningKeeper([], environment: environment, folder: folder)
        let owner = try copyInForeground([archive.path])
        try await keeper.waitForLines(startingWith: "kept clipboard")
        owner.stop()
        try await keeper.waitForLines(startingWith: "restored clipboard")
        for (type, bytes) in keptItem {
            let mime = type.preferredMIMEType ?? type.identifier
            let pasted = try await server.xclip(["-o", "-selection", "clipboard", "-t", mime])
            #expect(pasted.status == 0, "\(mime): \(pasted.error)")
            #expect(pasted.output == bytes, "\(mime)")
            let exact = try await server.xclip(["-o", "-selection", "clipboard", "-t", type.identifier])
            #expect(exact.output == bytes, "\(type.identifier)")
        }
    }

    @Test("a concealed copy is never kept: the keeper skips it, and its death leaves the clipboard empty")
    func concealedIsNeverKept() async throws {
        let keeper = try RunningKeeper(["--history", "5"], environment: environment, folder: folder)
        let before = try server.startXclipServing(
            ["-selection", "clipboard"], file: try file("before.txt", Data("before".utf8)).path)
        try await keeper.waitForLines(startingWith: "kept clipboard")
        let secret = try copyInForeground(["--concealed", try file("secret.txt", Data("hunter2".utf8)).path])
        let skipped = try await keeper.waitForLines(startingWith: "skipped clipboard")
        #expect(skipped == ["skipped clipboard: concealed"])
        before.stop()
        secret.stop()
        // The next owner's snapshot comes after whatever the secret's death made the keeper do.
        let after = try server.startXclipServing(
            ["-selection", "clipboard"], file: try file("after.txt", Data("after".utf8)).path)
        defer { after.stop() }
        try await keeper.waitForLines(startingWith: "kept clipboard", count: 2)
        #expect(!keeper.lines.contains { $0.hasPrefix("restored") }, "\(keeper.lines)")
        let history = try ClipboardKeeper.history(
            of: .clipboard, in: folder.appendingPathComponent("runtime/transferkit/keeper"))
        #expect(history.count == 2)
        for entry in history {
            let text = try await ClipboardKeeper.snapshot(at: entry).loadObject(ofClass: String.self)
            #expect(text != "hunter2")
        }
    }

    @Test("a transient copy is never kept, nor one copied with --expire (transient by default)")
    func transientIsNeverKept() async throws {
        let keeper = try RunningKeeper([], environment: environment, folder: folder)
        let transient = try copyInForeground(["--transient", try file("transient.txt", Data("one-time".utf8)).path])
        try await keeper.waitForLines(startingWith: "skipped clipboard")
        transient.stop()
        let expiring = try copyInForeground(["--expire", "1m", try file("expiring.txt", Data("soon gone".utf8)).path])
        let skipped = try await keeper.waitForLines(startingWith: "skipped clipboard", count: 2)
        #expect(skipped == ["skipped clipboard: transient", "skipped clipboard: transient"])
        expiring.stop()
    }

    @Test("an expiring item that is not transient is offered again only until it expires, and never in the history")
    func expiringIsDropped() async throws {
        let keeper = try RunningKeeper(["--history", "5"], environment: environment, folder: folder)
        let writer = try await Clipboard(backend: .x11, environment: server.environment, timeout: patience)
        let item = TransferProvider(data: Data("soon gone".utf8), type: .utf8PlainText)
        _ = try await writer.write(
            // Long enough for a busy machine's keeper to snapshot and restore it first (3 s flaked in whole-suite
            // runs: the item expired before the keeper kept it).
            [item], options: ClipboardWriteOptions(isTransient: false, lifetime: .expiring(after: .seconds(20))))
        try await keeper.waitForLines(startingWith: "kept clipboard")
        // The writer's connection ends: its window goes, as when its process exits.
        writer.close()
        try await keeper.waitForLines(startingWith: "restored clipboard")
        try await keeper.waitForLines(startingWith: "expired clipboard")
        let after = try await server.xclip(["-o", "-selection", "clipboard"])
        #expect(after.status != 0 || after.output.isEmpty, "still offered: \(after.output)")
        let history = try ClipboardKeeper.history(
            of: .clipboard, in: folder.appendingPathComponent("runtime/transferkit/keeper"))
        #expect(history.isEmpty, "\(history)")
    }

    @Test("files copied as cut are offered again as cut")
    func cutStaysCut() async throws {
        let keeper = try RunningKeeper([], environment: environment, folder: folder)
        let moved = try file("moved.txt", Data("to be moved".utf8))
        let owner = try copyInForeground(["--cut", moved.path])
        try await keeper.waitForLines(startingWith: "kept clipboard")
        owner.stop()
        try await keeper.waitForLines(startingWith: "restored clipboard")
        let gnome = try await server.xclip(["-o", "-selection", "clipboard", "-t", "x-special/gnome-copied-files"])
        #expect(String(decoding: gnome.output, as: UTF8.self) == "cut\n" + moved.standardizedFileURL.absoluteString)
        let kde = try await server.xclip(["-o", "-selection", "clipboard", "-t", "application/x-kde-cutselection"])
        #expect(kde.status == 0 && kde.output == Data("1".utf8), "\(kde.error)")
        let list = try await server.xclip(["-o", "-selection", "clipboard", "-t", "text/uri-list"])
        #expect(String(decoding: list.output, as: UTF8.self).hasPrefix(moved.standardizedFileURL.absoluteString))
    }

    @Test("a copy equal to the last one neither adds to the history nor drops its oldest entry")
    func repeatedCopyKeepsHistory() async throws {
        let keeper = try RunningKeeper(["--history", "3"], environment: environment, folder: folder)
        let words = ["one", "second", "the third", "the third"]
        for (index, word) in words.enumerated() {
            let xclip = try server.startXclipServing(
                ["-selection", "clipboard"], file: try file("\(index).txt", Data(word.utf8)).path)
            let earlier = words[..<index].filter { $0 == word }.count
            try await keeper.waitForLines(
                startingWith: "kept clipboard: 1 names, \(word.utf8.count) bytes", count: earlier + 1)
            xclip.stop()
            try await keeper.waitForLines(startingWith: "restored clipboard", count: index + 1)
        }
        for (position, word) in ["the third", "second", "one"].enumerated() {
            let kept = try await transferkit(["paste", "--from-history", "\(position)"])
            #expect(kept.status == 0 && kept.outputText == word, "\(position): \(kept.errorText) \(keeper.lines)")
        }
        #expect(try await transferkit(["paste", "--from-history", "3"]).status == 1)
    }

    @Test("--history N keeps the last N snapshots; paste --from-history K reads them, newest first")
    func history() async throws {
        let keeper = try RunningKeeper(["--history", "2"], environment: environment, folder: folder)
        // Words of different lengths: each one's line says its length, whatever other lines the deaths add.
        for (index, word) in ["one", "second", "the third"].enumerated() {
            let xclip = try server.startXclipServing(
                ["-selection", "clipboard"], file: try file("\(word).txt", Data(word.utf8)).path)
            try await keeper.waitForLines(startingWith: "kept clipboard: 1 names, \(word.utf8.count) bytes")
            xclip.stop()
            // The next owner starts only after the keeper restored this one: its check that the selection is still
            // empty and its restore are not one step (a limitation the article names), so an owner that copies in
            // that moment can be displaced.
            try await keeper.waitForLines(startingWith: "restored clipboard", count: index + 1)
        }
        let newest = try await transferkit(["paste", "--from-history", "0"])
        #expect(newest.status == 0, "\(newest.errorText)")
        #expect(newest.outputText == "the third")
        let older = try await transferkit(["paste", "--from-history", "1", "--type", "public.plain-text"])
        #expect(older.outputText == "second", "\(keeper.lines)")
        let gone = try await transferkit(["paste", "--from-history", "2"])
        #expect(gone.status == 1)
        #expect(gone.errorText.contains("(notFound)"), "\(gone.errorText)")
        let wrong = try await transferkit(["paste", "--from-history", "-1"])
        #expect(wrong.status == 2, "\(wrong.errorText)")
        // A history snapshot is an archive that copy restores.
        let snapshot = try await transferkit(
            ["paste", "--from-history", "1", "--archive", "-o", folder.path + "/h.transferkit"])
        #expect(snapshot.status == 0, "\(snapshot.errorText)")
        let inspect = try await transferkit(["inspect", folder.path + "/h.transferkit", "--json"])
        #expect(inspect.status == 0, "\(inspect.errorText)")
    }

    @Test("a payload larger than the memory cap is served from the spool file, with the keeper's memory bounded")
    func memoryCap() async throws {
        let keeper = try RunningKeeper(["--memory-cap", "1M"], environment: environment, folder: folder)
        let type = "com.example.blob"
        let small = try file("small.bin", Data("small".utf8))
        let big = folder.appendingPathComponent("big.bin")
        try PatternChunks.write(64 << 20, to: big)
        var peaks: [Int] = []
        for (round, input) in [small, big].enumerated() {
            let owner = try copyInForeground(["--type", type, input.path])
            try await keeper.waitForLines(startingWith: "kept clipboard", count: round + 1)
            owner.stop()
            try await keeper.waitForLines(startingWith: "restored clipboard", count: round + 1)
            let output = folder.appendingPathComponent("out-\(round).bin").path
            let pasted = try await server.xclip(["-o", "-selection", "clipboard", "-t", type], outputFile: output)
            #expect(pasted.status == 0)
            #expect(FileManager.default.contents(atPath: output) == FileManager.default.contents(atPath: input.path))
            try? FileManager.default.removeItem(atPath: output)
            peaks.append(try keeper.peakMemory())
        }
        // 64 MiB held whole would grow the peak by 65 536 KiB at least.
        let growth = peaks[1] - peaks[0]
        #expect(growth < 24 << 10, "keeping and serving 64 MiB grew the keeper's peak RSS by \(growth) KiB")
        print("keep --memory-cap 1M, 64 MiB kept and served over X11: peak RSS growth \(growth) KiB")
    }

    @Test("a spool folder that is a file fails with spoolUnavailable")
    func spoolFolderIsAFile() async throws {
        let clipboard = try await Clipboard(backend: .x11, environment: server.environment, timeout: patience)
        defer { clipboard.close() }
        let notAFolder = try file("not-a-folder", Data("x".utf8))
        let keeper = ClipboardKeeper(clipboard: clipboard, options: .init(spoolFolder: notAFolder))
        let error = await #expect(throws: ClipboardError.self) { try await keeper.run() }
        #expect(error?.code == .spoolUnavailable)
    }

    @Test("a spool folder that every user may write fails with spoolUnavailable before anything is kept")
    func spoolFolderOpenToAll() async throws {
        let clipboard = try await Clipboard(backend: .x11, environment: server.environment, timeout: patience)
        defer { clipboard.close() }
        // What another user could have made first at the predictable default under /tmp.
        let open = folder.appendingPathComponent("open-spool")
        try FileManager.default.createDirectory(at: open, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: open.path)
        let keeper = ClipboardKeeper(clipboard: clipboard, options: .init(spoolFolder: open))
        let error = await #expect(throws: ClipboardError.self) { try await keeper.run() }
        #expect(error?.code == .spoolUnavailable)
        #expect(error?.message.contains("mode 777") == true, "\(String(describing: error))")
    }

    @Test("keep rejects a bad --memory-cap and --history with status 2")
    func usageErrors() async throws {
        for arguments in [["--memory-cap", "lots"], ["--history", "-2"], ["--memory-cap", "12Q"]] {
            let keep = try await transferkit(["keep"] + arguments)
            #expect(keep.status == 2, "\(arguments): \(keep.errorText)")
        }
    }
}
