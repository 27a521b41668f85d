import Foundation
import Testing
import TransferClipboard
import TransferDisplayTestSupport
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting
import UniformTypes

/// `transferkit copy`, `paste` and `watch` against xclip and the library, under a private Xvfb.
@Suite(
    "transferkit copy, paste and watch on X11", .serialized, .timeLimit(.minutes(5)),
    .enabled(if: x11ToolsPresent, "needs Xvfb and xclip (Debian: xvfb, xclip)"))
final class X11CommandLineTests {
    let server: XvfbServer
    let folder: URL

    init() async throws {
        server = try await XvfbServer.start()
        folder = try makeTemporaryDirectory(prefix: "clipboard-cli")
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs `transferkit` with `arguments` against this server.
    func transferkit(_ arguments: [String], input: [UInt8] = []) async throws -> ChildProcess.Result {
        try await ChildProcess.run(
            TransferKitExecutable.defaultPath, arguments: arguments, input: input, environment: server.environment)
    }

    func file(_ name: String, _ bytes: Data) throws -> String {
        let url = folder.appendingPathComponent(name)
        try bytes.write(to: url)
        return url.path
    }

    func xclipText(_ target: String) async throws -> String {
        let result = try await server.xclip(["-o", "-selection", "clipboard", "-t", target])
        #expect(result.status == 0, "\(result.error)")
        return String(decoding: result.output, as: UTF8.self)
    }

    @Test(
        "copy returns at once and a background copy serves xclip until xclip takes the clipboard; then it exits",
        arguments: [false, true])
    func copyServesInTheBackground(spawned: Bool) async throws {
        let path = try file("notes-background-\(spawned).txt", Data("May the Force be with you.\n".utf8))
        var environment = server.environment
        if spawned { environment["TRANSFERKIT_COPY_NO_FORK"] = "1" }
        let copy = try await ChildProcess.run(
            TransferKitExecutable.defaultPath, arguments: ["copy", path], environment: environment)
        #expect(copy.status == 0, "\(copy.errorText)")
        let servers = processes(containing: path)
        #expect(servers.count == 1)
        // A forked serving copy keeps the environment its image started with; a spawned one was started with the
        // serving marker in it.
        let started = try servers.first.map {
            try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/\($0)/environ")).readToEnd() ?? Data()
        }
        let marked = started.map { String(decoding: $0, as: UTF8.self).contains("TRANSFERKIT_COPY_SERVES=1") }
        #expect(marked == spawned)
        let targets = try await xclipText("TARGETS").split(separator: "\n")
        #expect(targets.contains("text/plain") && targets.contains("text/uri-list"))
        #expect(try await xclipText("text/plain") == "May the Force be with you.\n")
        #expect(try await xclipText("text/uri-list").hasPrefix("file://"))
        // xclip takes the clipboard: the serving copy lets go and exits.
        let other = try file("other.txt", Data("other".utf8))
        let xclip = try server.startXclipServing(["-selection", "clipboard"], file: other)
        defer { xclip.stop() }
        for _ in 0..<1000 where !processes(containing: path).isEmpty {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(processes(containing: path).isEmpty, "the serving copy is still running")
    }

    @Test("copy --foreground serves from its own process and exits 0 when the clipboard is taken")
    func copyInTheForeground() async throws {
        let path = try file("foreground.txt", Data("foreground".utf8))
        let output = folder.appendingPathComponent("foreground.out").path
        let copy = try BackgroundProcess(
            [TransferKitExecutable.defaultPath, "copy", "--foreground", path], environment: server.environment,
            outputFile: output)
        defer { copy.stop() }
        // Until the copy owns the clipboard, xclip finds nothing there.
        for _ in 0..<1000 {
            let targets = try await server.xclip(["-o", "-selection", "clipboard", "-t", "TARGETS"])
            if String(decoding: targets.output, as: UTF8.self).contains("text/plain") { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(try await xclipText("text/plain") == "foreground")
        #expect(
            copy.isRunning, "\(String(decoding: FileManager.default.contents(atPath: output) ?? Data(), as: UTF8.self))"
        )
        let xclip = try server.startXclipServing(["-selection", "clipboard"], file: path)
        defer { xclip.stop() }
        #expect(try await copy.exitStatus() == 0)
    }

    /// Waits until this server's background copies whose command line contains `marker` have exited (they do once
    /// another client takes the clipboard).
    func waitUntilNoServingCopy(containing marker: String) async throws {
        let gone = try await waitUntilNoProcess(containing: marker, startedWith: "DISPLAY=:\(server.display)")
        #expect(gone, "a serving copy with \(marker) is still running")
    }

    func xclipBytes(_ target: String) async throws -> Data {
        let result = try await server.xclip(["-o", "-selection", "clipboard", "-t", target])
        #expect(result.status == 0, "\(result.error)")
        return result.output
    }

    @Test("copy a.json offers the JSON under UTF8_STRING and the plain-text names too; xclip reads it there")
    func jsonIsText() async throws {
        let json = Data(#"{"name":"Leia","title":"Princess ✓"}"#.utf8)
        let path = try file("a.json", json)
        let copy = try await transferkit(["copy", path])
        #expect(copy.status == 0, "\(copy.errorText)")
        defer { for pid in processes(containing: path) { kill(pid, SIGKILL) } }
        let targets = try await xclipText("TARGETS").split(separator: "\n").map(String.init)
        #expect(targets.contains("application/json"), "\(targets)")
        for name in ["UTF8_STRING", "text/plain;charset=utf-8", "text/plain", "TEXT"] {
            #expect(targets.contains(name), "\(targets)")
            #expect(try await xclipBytes(name) == json, "\(name)")
        }
        #expect(!targets.contains("STRING"), "\(targets)")
    }

    @Test("a .json file that is not UTF-8: its own type pastes its bytes, the text names refuse the paste")
    func jsonThatIsNotUTF8() async throws {
        let bytes = Data([0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x7D])
        let path = try file("broken.json", bytes)
        let copy = try await transferkit(["copy", path])
        #expect(copy.status == 0, "\(copy.errorText)")
        defer { for pid in processes(containing: path) { kill(pid, SIGKILL) } }
        #expect(try await xclipBytes("application/json") == bytes)
        let refused = try await server.xclip(["-o", "-selection", "clipboard", "-t", "UTF8_STRING"])
        #expect(refused.status != 0 && refused.output.isEmpty, "\(refused.status) \(refused.output) \(refused.error)")
    }

    @Test("standard input that is UTF-8 without NUL is offered as text whatever its sniffed type; other bytes are not")
    func standardInputIsText() async throws {
        // Sniffing says PDF (its magic), the bytes are text.
        let text = Data("%PDF-1.4 is how a PDF starts, said the note ✓\n".utf8)
        let copy = try await transferkit(["copy", "-"], input: Array(text))
        #expect(copy.status == 0, "\(copy.errorText)")
        let targets = try await xclipText("TARGETS").split(separator: "\n").map(String.init)
        #expect(targets.contains("application/pdf"), "\(targets)")
        #expect(targets.contains("UTF8_STRING"), "\(targets)")
        #expect(try await xclipBytes("UTF8_STRING") == text)
        let binary = Data([0x25, 0x50, 0x44, 0x46, 0x2D, 0x31, 0x2E, 0x34, 0x00, 0x0A])
        let second = try await transferkit(["copy", "-"], input: Array(binary))
        #expect(second.status == 0, "\(second.errorText)")
        let binaryTargets = try await xclipText("TARGETS").split(separator: "\n").map(String.init)
        #expect(!binaryTargets.contains("UTF8_STRING"), "\(binaryTargets)")
    }

    @Test("copy --cut offers the files as cut to file managers; without it, as copied")
    func copyCut() async throws {
        let path = try file("cut-me.txt", Data("moved".utf8))
        let url = URL(fileURLWithPath: path).standardizedFileURL.absoluteString
        let cut = try await transferkit(["copy", "--cut", path])
        #expect(cut.status == 0, "\(cut.errorText)")
        defer { for pid in processes(containing: path) { kill(pid, SIGKILL) } }
        #expect(try await xclipText("x-special/gnome-copied-files") == "cut\n\(url)")
        #expect(try await xclipText("application/x-kde-cutselection") == "1")
        #expect(try await xclipText("text/uri-list").hasPrefix(url))
        let copied = try file("copy-me.txt", Data("kept".utf8))
        let copy = try await transferkit(["copy", copied])
        #expect(copy.status == 0, "\(copy.errorText)")
        defer { for pid in processes(containing: copied) { kill(pid, SIGKILL) } }
        let copiedURL = URL(fileURLWithPath: copied).standardizedFileURL.absoluteString
        #expect(try await xclipText("x-special/gnome-copied-files") == "copy\n\(copiedURL)")
        #expect(!(try await xclipText("TARGETS")).contains("application/x-kde-cutselection"))
    }

    /// Runs `transferkit` with `arguments` (single-quoted) under `script`, which gives it a pseudo-terminal for
    /// standard input, output and error; what the terminal showed.
    func onATerminal(_ arguments: [String]) async throws -> ChildProcess.Result {
        let command = ([TransferKitExecutable.defaultPath] + arguments).map { "'\($0)'" }.joined(separator: " ")
        return try await ChildProcess.run(
            SystemTool.path("script"), arguments: ["-q", "-e", "-c", command, "/dev/null"],
            environment: server.environment)
    }

    @Test(
        "paste on a terminal counts the bytes of a large transfer on standard error; off a terminal it is silent",
        .enabled(
            if: SystemTool.exists("script"),
            "needs /usr/bin/script for a pseudo-terminal (Debian: bsdutils)"))
    func pasteProgressOnATerminal() async throws {
        // A small paste draws nothing and clears nothing: the text, without a newline, stays on the screen.
        let word = try file("word.txt", Data("word".utf8))
        let small = try server.startXclipServing(["-selection", "clipboard"], file: word)
        for _ in 0..<500 where try await server.xclip(["-o", "-selection", "clipboard"]).output != Data("word".utf8) {
            try await Task.sleep(for: .milliseconds(20))
        }
        let shown = try await onATerminal(["paste"])
        #expect(shown.status == 0 && shown.outputText == "word", "\(shown.outputText.debugDescription)")
        small.stop()

        let payload = PatternChunks.chunk(at: 0, count: 24 << 20)
        let source = try file("progress.bin", payload)
        let xclip = try server.startXclipServing(
            ["-selection", "clipboard", "-t", "application/octet-stream"], file: source)
        defer { xclip.stop() }
        var list = try await transferkit(["paste", "--list"])
        for _ in 0..<500 where !list.outputText.contains("application/octet-stream") {
            try await Task.sleep(for: .milliseconds(20))
            list = try await transferkit(["paste", "--list"])
        }
        // Standard error on a pseudo-terminal (util-linux's script); the bytes go to a file.
        let out = folder.appendingPathComponent("progress.out").path
        let terminal = try await onATerminal(["paste", "--type", "public.data", "-o", out])
        #expect(terminal.status == 0, "\(terminal.outputText)")
        #expect(FileManager.default.contents(atPath: out) == payload)
        #expect(terminal.outputText.contains(" MiB received"), "\(terminal.outputText)")
        #expect(terminal.outputText.hasSuffix("\r\u{1B}[K"), "the line is cleared at the end")
        let quiet = try await transferkit(["paste", "--type", "public.data", "-o", out])
        #expect(quiet.status == 0 && quiet.errorText.isEmpty, "\(quiet.errorText)")
        #expect(FileManager.default.contents(atPath: out) == payload)
        // A snapshot counts the archive's bytes the same way, and holds the same payload.
        let archive = folder.appendingPathComponent("progress.transferkit").path
        let snapshot = try await onATerminal(["paste", "--archive", "-o", archive])
        #expect(snapshot.status == 0, "\(snapshot.outputText)")
        #expect(snapshot.outputText.contains(" MiB received"), "\(snapshot.outputText)")
        let extracted = try await transferkit(["extract", archive, "--type", "public.data", "-o", out])
        #expect(extracted.status == 0, "\(extracted.errorText)")
        #expect(FileManager.default.contents(atPath: out) == payload)
    }

    @Test("paste --type public.image gives the bytes xclip offers as image/png; --list names them")
    func pasteFromXclip() async throws {
        let png = try file("cover.png", pngBytes)
        let xclip = try server.startXclipServing(["-selection", "clipboard", "-t", "image/png"], file: png)
        defer { xclip.stop() }
        var list = try await transferkit(["paste", "--list"])
        for _ in 0..<500 where !list.outputText.contains("image/png") {
            try await Task.sleep(for: .milliseconds(20))
            list = try await transferkit(["paste", "--list"])
        }
        #expect(list.outputText.contains("image/png\tpublic.png"), "\(list.outputText) \(list.errorText)")
        let json = try await transferkit(["paste", "--list", "--json"])
        #expect(json.outputText.contains(#"{"name":"image/png","type":"public.png"}"#))
        let out = folder.appendingPathComponent("pasted.png").path
        let paste = try await transferkit(["paste", "--type", "public.image", "-o", out])
        #expect(paste.status == 0, "\(paste.errorText)")
        #expect(FileManager.default.contents(atPath: out) == pngBytes)
        // By MIME type too, to standard output.
        let bytes = try await transferkit(["paste", "--type", "image/png", "-o", "-"])
        #expect(Data(bytes.standardOutput) == pngBytes)
        // Nothing of that type: exit 1 and what it offers.
        let text = try await transferkit(["paste", "--type", "public.utf8-plain-text"])
        #expect(text.status == 1)
        #expect(text.errorText.contains("offers nothing of type public.utf8-plain-text; it offers public.png"))
    }

    @Test("paste --type of a type converters derive from what xclip offers; copy of HTML offers its text to xclip")
    func derivedTypes() async throws {
        let html = try file("derived.html", Data("<p>Caf&eacute; &amp; bar</p>".utf8))
        let xclip = try server.startXclipServing(["-selection", "clipboard", "-t", "text/html"], file: html)
        try await waitUntilListed("text/html")
        let text = try await transferkit(["paste", "--type", "public.plain-text"])
        #expect(text.status == 0, "\(text.errorText)")
        #expect(text.outputText == "Café & bar")
        let utf16 = try await transferkit(["paste", "--type", "public.utf16-external-plain-text", "-o", "-"])
        #expect(utf16.status == 0, "\(utf16.errorText)")
        #expect(
            Array(utf16.standardOutput) == [0xFF, 0xFE]
                + Array("Café & bar".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        xclip.stop()

        // copy of an HTML file: xclip finds its plain text too, converted when xclip asks for it.
        let copy = try await transferkit(["copy", html])
        #expect(copy.status == 0, "\(copy.errorText)")
        var targets: [Substring] = []
        for _ in 0..<500 where !targets.contains("text/html") {
            targets = try await xclipText("TARGETS").split(separator: "\n")
            if !targets.contains("text/html") { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(targets.contains("text/html") && targets.contains("text/plain") && targets.contains("UTF8_STRING"))
        #expect(try await xclipText("text/html") == "<p>Caf&eacute; &amp; bar</p>")
        #expect(try await xclipText("text/plain") == "Café & bar")
        #expect(try await xclipText("UTF8_STRING") == "Café & bar")
        // xclip takes the clipboard: the serving copy exits.
        let other = try server.startXclipServing(["-selection", "clipboard"], file: try file("o.txt", Data("o".utf8)))
        defer { other.stop() }
        try await waitUntilNoServingCopy(containing: html)
    }

    @Test(
        "images: xclip's PNG pastes as BMP; copy of a PNG serves xclip its BMP; the snapshot keeps the PNG alone")
    func derivedImages() async throws {
        try await server.expectDerivedImages()
    }

    /// Waits until `paste --list` shows `name` (xclip has taken the clipboard).
    func waitUntilListed(_ name: String) async throws {
        for _ in 0..<500 {
            if try await transferkit(["paste", "--list"]).outputText.contains(name) { return }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    @Test("paste --type public.file-url reads the text/uri-list xclip offers; its snapshot has no dyn.mime type")
    func pasteFileURLFromXclip() async throws {
        let list = Data("file:///tmp/one.txt\r\nfile:///tmp/two%20words.txt\r\n".utf8)
        let xclip = try server.startXclipServing(
            ["-selection", "clipboard", "-t", "text/uri-list"], file: try file("list.uris", list))
        defer { xclip.stop() }
        try await waitUntilListed("text/uri-list")
        let listed = try await transferkit(["paste", "--list"])
        #expect(listed.outputText.contains("text/uri-list\torg.transferkit.uri-list"), "\(listed.outputText)")
        try await expectFileURLsAndSnapshot(list, archive: folder.appendingPathComponent("uris.transferkit").path) {
            try await self.transferkit($0)
        }
    }

    @Test("paste of names that no type stands for lists them and exits 1; --archive then writes nothing")
    func pasteNothingReadable() async throws {
        let xclip = try server.startXclipServing(
            ["-selection", "clipboard", "-t", "ODD_PRIVATE_NAME"], file: try file("odd.bin", Data("odd".utf8)))
        defer { xclip.stop() }
        try await waitUntilListed("ODD_PRIVATE_NAME")
        let paste = try await transferkit(["paste"])
        #expect(paste.status == 1)
        #expect(paste.errorText.hasPrefix("transferkit paste: the clipboard offers no name that a uniform type "))
        #expect(paste.errorText.contains("ODD_PRIVATE_NAME"), "\(paste.errorText)")
        #expect(paste.errorText.hasSuffix(" (nothingReadable)\n"), "\(paste.errorText)")
        let archive = folder.appendingPathComponent("odd.transferkit").path
        let snapshot = try await transferkit(["paste", "--archive", "-o", archive])
        #expect(snapshot.status == 1)
        #expect(snapshot.errorText.contains("ODD_PRIVATE_NAME"), "\(snapshot.errorText)")
        #expect(!FileManager.default.fileExists(atPath: archive), "no archive of an empty item")
    }

    @Test("paste --archive snapshots every representation; copy of the archive offers the same types and bytes")
    func snapshotAndRestore() async throws {
        let clipboard = try await Clipboard(backend: .x11, environment: server.environment, timeout: patience)
        defer { clipboard.close() }
        let handle = try await clipboard.write([threeRepresentationProvider(CallCounter())])
        let names = [cardType.identifier, "text/plain;charset=utf-8", "image/png"]
        var before: [String: Data] = [:]
        for name in names { before[name] = try await xclipBytes(name) }
        #expect(before["image/png"] == pngBytes)
        let archive = folder.appendingPathComponent("clip.transferkit").path
        let snapshot = try await transferkit(["paste", "--archive", "-o", archive])
        #expect(snapshot.status == 0, "\(snapshot.errorText)")
        await handle.release()
        #expect(try await clipboard.offeredTypes(on: .clipboard).isEmpty)

        let restore = try await transferkit(["copy", archive])
        #expect(restore.status == 0, "\(restore.errorText)")
        defer { for pid in processes(containing: archive) { kill(pid, SIGKILL) } }
        let targets = try await xclipText("TARGETS").split(separator: "\n").map(String.init)
        for name in names {
            #expect(targets.contains(name), "\(name) missing from \(targets)")
            #expect(try await xclipBytes(name) == before[name], "\(name)")
        }
    }

    @Test("copy of an archive with more payloads than the process may open descriptors restores it")
    func restoreManyPayloads() async throws {
        let paths = try (0..<300).map { try file("item-\($0).txt", Data("item \($0)".utf8)) }
        let archive = folder.appendingPathComponent("many.transferkit").path
        let pack = try await transferkit(["pack"] + paths + ["-o", archive])
        #expect(pack.status == 0, "\(pack.errorText)")
        // 256 descriptors at most: a descriptor per payload would run out.
        let copy = try await ChildProcess.run(
            "/bin/sh",
            arguments: ["-c", "ulimit -n 256 && exec \"$0\" copy \"$1\"", TransferKitExecutable.defaultPath, archive],
            environment: server.environment)
        #expect(copy.status == 0, "\(copy.errorText)")
        defer { for pid in processes(containing: archive) { kill(pid, SIGKILL) } }
        // X11 carries one item: the first one's text.
        #expect(try await xclipText("text/plain") == "item 0")
    }

    @Test("copy - reads standard input; --concealed adds the password managers' hints")
    func copyStandardInputConcealed() async throws {
        let copy = try await transferkit(
            ["copy", "-", "--type", "public.utf8-plain-text", "--concealed"], input: Array("hunter2".utf8))
        #expect(copy.status == 0, "\(copy.errorText)")
        let targets = try await xclipText("TARGETS").split(separator: "\n")
        #expect(targets.contains("x-kde-passwordManagerHint"))
        #expect(try await xclipText("x-kde-passwordManagerHint") == "secret")
        #expect(try await xclipText("UTF8_STRING") == "hunter2")
        let paste = try await transferkit(["paste", "--type", "public.plain-text"])
        #expect(paste.outputText == "hunter2")
        // Taken back, so no serving copy outlives the test.
        let other = try file("after-secret.txt", Data("x".utf8))
        let xclip = try server.startXclipServing(["-selection", "clipboard"], file: other)
        defer { xclip.stop() }
        try await waitUntilNoServingCopy(containing: "--concealed")
    }

    @Test(
        "copy of a PNG without an extension offers image/png: the file is typed by its content",
        .enabled(if: FileManager.default.fileExists(atPath: "/usr/share/mime/magic"), "needs shared-mime-info"))
    func copySniffsTheContent() async throws {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48, 0x44, 0x52]
        let path = try file("picture-without-extension", Data(png))
        let copy = try await transferkit(["copy", path])
        #expect(copy.status == 0, "\(copy.errorText)")
        let targets = try await xclipText("TARGETS").split(separator: "\n")
        #expect(targets.contains("image/png"), "\(targets)")
        #expect(try await xclipBytes("image/png") == Data(png))
        // Taken back, so no serving copy outlives the test.
        let other = try file("after-png.txt", Data("x".utf8))
        let xclip = try server.startXclipServing(["-selection", "clipboard"], file: other)
        defer { xclip.stop() }
        try await waitUntilNoServingCopy(containing: path)
    }

    @Test("a concealed copy survives a snapshot: paste --archive keeps the hint, copy of the archive offers it again")
    func concealedSnapshot() async throws {
        let copy = try await transferkit(
            ["copy", "-", "--type", "public.utf8-plain-text", "--concealed"], input: Array("hunter2".utf8))
        #expect(copy.status == 0, "\(copy.errorText)")
        let archive = folder.appendingPathComponent("secret.transferkit").path
        let snapshot = try await transferkit(["paste", "--archive", "-o", archive])
        #expect(snapshot.status == 0, "\(snapshot.errorText)")
        let inspect = try await transferkit(["inspect", archive, "--json"])
        #expect(inspect.outputText.contains(#""org.transferkit.concealed":true"#), "\(inspect.outputText)")
        // The hints are no representations: not even the one whose name, as a MIME type, is a (dynamic) uniform type.
        let hintType = try #require(TypeCatalog.shared.type(mimeType: "application/x-nspasteboard-concealed-type"))
        #expect(!inspect.outputText.contains(hintType.identifier), "\(inspect.outputText)")
        #expect(inspect.outputText.contains("public.utf8-plain-text"))
        // Another owner, then the archive restored.
        let other = try file("between.txt", Data("x".utf8))
        let xclip = try server.startXclipServing(["-selection", "clipboard"], file: other)
        defer { xclip.stop() }
        // No request while the clipboard changes hands: an owner that exits during one leaves xclip waiting.
        try await waitUntilNoServingCopy(containing: "--concealed")
        #expect(try await xclipText("text/plain") == "x")
        let restore = try await transferkit(["copy", archive])
        #expect(restore.status == 0, "\(restore.errorText)")
        defer { for pid in processes(containing: archive) { kill(pid, SIGKILL) } }
        let targets = try await xclipText("TARGETS").split(separator: "\n")
        #expect(targets.contains("x-kde-passwordManagerHint") && targets.contains("UTF8_STRING"), "\(targets)")
        #expect(try await xclipText("x-kde-passwordManagerHint") == "secret")
        #expect(try await xclipText("UTF8_STRING") == "hunter2")
    }

    @Test("watch --json prints one object per change of owner")
    func watchPrintsChanges() async throws {
        let output = folder.appendingPathComponent("watch.out").path
        let watch = try BackgroundProcess(
            [TransferKitExecutable.defaultPath, "watch", "--json", "--count", "1"], environment: server.environment,
            outputFile: output)
        defer { watch.stop() }
        // watch subscribes a moment after it starts and says nothing when it has: take the clipboard again until it
        // reports a change, instead of sleeping for a guess.
        // Each xclip takes the clipboard from the one before (which then exits), so every change watch can see is
        // to an owner of image/png.
        let png = try file("watched.png", pngBytes)
        var owners: [BackgroundProcess] = []
        defer { for owner in owners { owner.stop() } }
        for _ in 0..<100 where watch.isRunning {
            owners.append(try server.startXclipServing(["-selection", "clipboard", "-t", "image/png"], file: png))
            for _ in 0..<25 where watch.isRunning { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(try await watch.exitStatus() == 0)
        let text = String(decoding: FileManager.default.contents(atPath: output) ?? Data(), as: UTF8.self)
        #expect(text.hasPrefix(#"{"concealed":false,"owner":"0x"#), "\(text)")
        #expect(text.contains(#""selection":"clipboard","transient":false,"types":["#), "\(text)")
        #expect(text.contains(#"{"name":"image/png","type":"public.png"}"#), "\(text)")
    }

    @Test("an empty clipboard is exit status 1 with a message; a bad --backend is a usage error")
    func errors() async throws {
        let empty = try await transferkit(["paste", "--primary"])
        #expect(empty.status == 1)
        #expect(empty.errorText == "transferkit paste: the primary is empty (empty)\n")
        let list = try await transferkit(["paste", "--list", "--primary"])
        #expect(list.status == 1 && list.outputText.isEmpty)
        let backend = try await transferkit(["paste", "--backend", "carrier-pigeon"])
        #expect(backend.status == 2)
        #expect(backend.errorText.contains("'carrier-pigeon' is not a display protocol"))
    }
}

/// Errors that need no display server.
@Suite("transferkit copy and paste without a display", .timeLimit(.minutes(5)))
struct ClipboardCommandLineErrorTests {
    @Test("without DISPLAY or WAYLAND_DISPLAY, paste says so and exits 2")
    func noDisplay() async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = nil
        environment["WAYLAND_DISPLAY"] = nil
        let paste = try await ChildProcess.run(
            TransferKitExecutable.defaultPath, arguments: ["paste"], environment: environment)
        #expect(paste.status == 2)
        #expect(paste.errorText.contains("DISPLAY"), "\(paste.errorText)")
        // An empty regular file: /dev/null is a device, which copy refuses (unreadableFile) before it looks for a
        // display.
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID().uuidString).txt")
        try Data().write(to: empty)
        defer { try? FileManager.default.removeItem(at: empty) }
        let copy = try await ChildProcess.run(
            TransferKitExecutable.defaultPath, arguments: ["copy", "--foreground", empty.path],
            environment: environment)
        #expect(copy.status == 2)
        #expect(copy.errorText.hasPrefix("transferkit copy: ") && copy.errorText.hasSuffix(" (noDisplay)\n"))
        #expect(!copy.errorText.contains("ClipboardError"), "no Swift type names: \(copy.errorText)")
    }

    @Test("copy --cut of standard input is a usage error: only files can be moved")
    func cutStandardInput() async throws {
        let cut = try await ChildProcess.run(
            TransferKitExecutable.defaultPath, arguments: ["copy", "--cut", "-"], input: Array("x".utf8))
        #expect(cut.status == 2)
        #expect(cut.errorText.contains("--cut moves files; standard input (-) is no file"), "\(cut.errorText)")
    }

    @Test("--json without --list and --archive with --type are usage errors")
    func usage() async throws {
        let json = try await ChildProcess.run(TransferKitExecutable.defaultPath, arguments: ["paste", "--json"])
        #expect(json.status == 2 && json.errorText.contains("--json goes with --list"))
        let archive = try await ChildProcess.run(
            TransferKitExecutable.defaultPath, arguments: ["paste", "--archive", "--type", "public.png"])
        #expect(archive.status == 2 && archive.errorText.contains("--archive saves every type"))
    }
}
