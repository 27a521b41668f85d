import Foundation
import Testing
import TransferClipboard
import TransferDisplayTestSupport
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting
import UniformTypes

/// Paste limits, expiry, the hints and `watch --exec` against xclip and the tool, under a private Xvfb.
@Suite(
    "X11 secrets: paste limits, expiry, hints and hooks", .serialized, .timeLimit(.minutes(5)),
    .enabled(if: x11ToolsPresent, "needs Xvfb and xclip (Debian: xvfb, xclip)"))
final class X11SecretsTests {
    let server: XvfbServer
    let folder: URL

    init() async throws {
        server = try await XvfbServer.start()
        folder = try makeTemporaryDirectory(prefix: "clipboard-secrets")
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    func transferkit(_ arguments: [String], input: [UInt8] = []) async throws -> ChildProcess.Result {
        try await ChildProcess.run(
            TransferKitExecutable.defaultPath, arguments: arguments, input: input, environment: server.environment)
    }

    func file(_ name: String, _ bytes: Data) throws -> String {
        let url = folder.appendingPathComponent(name)
        try bytes.write(to: url)
        return url.path
    }

    func pasteText() async throws -> ToolResult {
        try await server.xclip(["-o", "-selection", "clipboard", "-t", "text/plain"])
    }

    func targets() async throws -> [String] {
        let result = try await server.xclip(["-o", "-selection", "clipboard", "-t", "TARGETS"])
        return String(decoding: result.output, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test("pastes(1): TARGETS and the hints are no pastes; one xclip paste is served, then the clipboard is clear")
    func pasteOnce() async throws {
        let clipboard = try await Clipboard(backend: .x11, environment: server.environment, timeout: patience)
        defer { clipboard.close() }
        let provider = TransferProvider(data: Data("hunter2".utf8), type: .utf8PlainText)
        let handle = try await clipboard.write(
            [provider], options: ClipboardWriteOptions(isConcealed: true, lifetime: .pastes(1)))
        // Asking about the selection (its types, a hint's bytes) uses up nothing.
        #expect(try await targets().contains("x-kde-passwordManagerHint"))
        let hint = try await server.xclip(["-o", "-selection", "clipboard", "-t", "x-kde-passwordManagerHint"])
        #expect(hint.output == Data("secret".utf8))
        let first = try await pasteText()
        #expect(first.status == 0 && first.output == Data("hunter2".utf8), "\(first.error)")
        #expect(try await handle.ended() == .pastesUsedUp)
        let second = try await pasteText()
        #expect(second.status != 0 && second.output.isEmpty, "a second paste got \(second.output)")
        #expect(try await clipboard.offeredTypes().isEmpty)
    }

    @Test("pastes(2) serves two pastes and refuses none before; the write is transient by default")
    func twoPastes() async throws {
        let clipboard = try await Clipboard(backend: .x11, environment: server.environment, timeout: patience)
        defer { clipboard.close() }
        let handle = try await clipboard.write(
            [TransferProvider(data: Data("twice".utf8), type: .utf8PlainText)],
            options: ClipboardWriteOptions(lifetime: .pastes(2)))
        #expect(try await targets().contains("org.nspasteboard.TransientType"))
        for _ in 0..<2 {
            let paste = try await pasteText()
            #expect(paste.status == 0 && paste.output == Data("twice".utf8), "\(paste.error)")
        }
        #expect(try await handle.ended() == .pastesUsedUp)
        #expect(try await pasteText().status != 0)
    }

    @Test("an expiring write clears the selection when it expires, and says so")
    func expiry() async throws {
        let clipboard = try await Clipboard(backend: .x11, environment: server.environment, timeout: patience)
        defer { clipboard.close() }
        let handle = try await clipboard.write(
            [TransferProvider(data: Data("brief".utf8), type: .utf8PlainText)],
            options: ClipboardWriteOptions(lifetime: .expiring(after: .seconds(1))))
        #expect(try await handle.ended() == .expired)
        #expect(try await clipboard.offeredTypes().isEmpty)
        #expect(try await pasteText().status != 0)
    }

    @Test("a lifetime as long as Duration allows is served, with the expiry hint at the providers' limit")
    func longestLifetime() async throws {
        let clipboard = try await Clipboard(backend: .x11, environment: server.environment, timeout: patience)
        defer { clipboard.close() }
        // Int64.max seconds overflowed the hint's millisecond count and trapped the write.
        let handle = try await clipboard.write(
            [TransferProvider(data: Data("long".utf8), type: .utf8PlainText)],
            options: ClipboardWriteOptions(lifetime: .expiring(after: .seconds(Int64.max))))
        let hint = try await server.xclip(
            ["-o", "-selection", "clipboard", "-t", ClipboardTypeMapping.expiresName])
        #expect(hint.output == Data("100000000000.000".utf8))
        #expect(try await pasteText().output == Data("long".utf8))
        await handle.release()
    }

    @Test("release and replacement are told apart; a paste limit below 1 is invalidOptions")
    func otherEnds() async throws {
        let clipboard = try await Clipboard(backend: .x11, environment: server.environment, timeout: patience)
        defer { clipboard.close() }
        let text = TransferProvider(data: Data("x".utf8), type: .utf8PlainText)
        let released = try await clipboard.write([text])
        await released.release()
        #expect(try await released.ended() == .released)

        let replaced = try await clipboard.write([text])
        let other = try file("other.txt", Data("other".utf8))
        let xclip = try server.startXclipServing(["-selection", "clipboard"], file: other)
        defer { xclip.stop() }
        #expect(try await replaced.ended() == .replaced)

        let error = await #expect(throws: ClipboardError.self) {
            _ = try await clipboard.write([text], options: ClipboardWriteOptions(lifetime: .pastes(0)))
        }
        #expect(error?.code == .invalidOptions)
    }

    @Test("the four hints and the expiry are offered, and read back as the provider's flags and expirationDate")
    func hintsRoundTrip() async throws {
        let clipboard = try await Clipboard(backend: .x11, environment: server.environment, timeout: patience)
        defer { clipboard.close() }
        let before = Date()
        let handle = try await clipboard.write(
            [TransferProvider(data: Data("code".utf8), type: .utf8PlainText)],
            options: ClipboardWriteOptions(
                isConcealed: true, isAutoGenerated: true, lifetime: .expiring(after: .seconds(600))))
        let names = try await targets()
        for hint in [
            "x-kde-passwordManagerHint", "application/x-nspasteboard-concealed-type", "org.nspasteboard.ConcealedType",
            "org.nspasteboard.TransientType", "org.nspasteboard.AutoGeneratedType", "application/x-transferkit-expires",
        ] {
            #expect(names.contains(hint), "TARGETS lacks \(hint): \(names)")
        }
        let expires = try await server.xclip([
            "-o", "-selection", "clipboard", "-t", "application/x-transferkit-expires",
        ])
        let seconds = try #require(Double(String(decoding: expires.output, as: UTF8.self)))
        #expect(seconds >= before.timeIntervalSince1970 + 590 && seconds <= Date().timeIntervalSince1970 + 610)

        let item = try #require(try await clipboard.read().first)
        #expect(item.isConcealed && item.isTransient && item.isAutoGenerated)
        let expiration = try #require(item.expirationDate)
        #expect(abs(expiration.timeIntervalSince1970 - seconds) < 0.01)
        #expect(item.registeredTypes.allSatisfy { !$0.identifier.hasPrefix("org.nspasteboard") })
        #expect(try await item.loadObject(ofClass: String.self) == "code")
        await handle.release()
    }

    @Test("copy --paste-once: the serving copy serves one xclip paste, clears the clipboard and exits")
    func copyPasteOnce() async throws {
        let path = try file("once.txt", Data("one time".utf8))
        let copy = try await transferkit(["copy", "--paste-once", "--concealed", path])
        #expect(copy.status == 0, "\(copy.errorText)")
        #expect(try await targets().contains("org.nspasteboard.TransientType"))
        let first = try await pasteText()
        #expect(first.output == Data("one time".utf8), "\(first.error)")
        try await waitUntilNoProcess(containing: path)
        #expect(processes(containing: path).isEmpty, "the serving copy is still running")
        let second = try await pasteText()
        #expect(second.status != 0 && second.output.isEmpty)
    }

    @Test("copy --loops 2 serves two pastes; copy --expire 1s clears the clipboard")
    func copyLoopsAndExpiry() async throws {
        let path = try file("loops.txt", Data("two times".utf8))
        #expect(try await transferkit(["copy", "--loops", "2", path]).status == 0)
        for _ in 0..<2 {
            #expect(try await pasteText().output == Data("two times".utf8))
        }
        try await waitUntilNoProcess(containing: path)
        #expect(try await pasteText().status != 0)

        let brief = try file("brief.txt", Data("brief".utf8))
        #expect(try await transferkit(["copy", "--expire", "1s", brief]).status == 0)
        try await waitUntilNoProcess(containing: brief)
        #expect(processes(containing: brief).isEmpty, "the serving copy is still running")
        let list = try await transferkit(["paste", "--list"])
        #expect(list.status == 1 && list.outputText.isEmpty, "\(list.outputText)")
    }

    @Test(
        "copy's limits that cannot be read are usage errors that say what is expected",
        arguments: [
            (["--expire", "5"], "--expire needs a duration such as 500ms, 30s, 2m or 1h (got '5')"),
            (["--expire", "1.5s"], "--expire needs a duration such as 500ms"), (["--expire", "-1s"], "(got '-1s')"),
            (["--expire", "2d"], "(got '2d')"), (["--expire", "s"], "(got 's')"),
            (["--expire", "99999999999999999h"], "--expire 99999999999999999h is too long"),
            (["--loops", "0"], "--loops needs a positive number"), (["--loops", "two"], "--loops needs a positive"),
            (["--paste-once", "--loops", "2"], "--paste-once is --loops 1; give one of them"),
        ])
    func badLimits(arguments: [String], message: String) async throws {
        let copy = try await transferkit(["copy", "--foreground"] + arguments + ["/dev/null"])
        #expect(copy.status == 2, "\(arguments): \(copy.errorText)")
        #expect(copy.errorText.contains(message), "\(arguments): \(copy.errorText)")
    }

    @Test("copy --foreground --expire 500ms serves, then ends by itself with status 0 and the clipboard cleared")
    func foregroundExpiry() async throws {
        let path = try file("foreground-brief.txt", Data("brief".utf8))
        let copy = try await transferkit(["copy", "--foreground", "--expire", "500ms", path])
        #expect(copy.status == 0, "\(copy.errorText)")
        #expect(try await targets().isEmpty)
    }

    @Test("paste --list and watch --json show the concealed and transient flags")
    func flagsShown() async throws {
        let path = try file("flags.txt", Data("flagged".utf8))
        let output = folder.appendingPathComponent("watch-flags.out").path
        let watch = try BackgroundProcess(
            [TransferKitExecutable.defaultPath, "watch", "--json", "--count", "1"], environment: server.environment,
            outputFile: output)
        defer { watch.stop() }
        // watch subscribes a moment after it starts: copy again until it reports.
        for _ in 0..<100 where watch.isRunning {
            #expect(try await transferkit(["copy", "--concealed", "--transient", path]).status == 0)
            for _ in 0..<25 where watch.isRunning { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(try await watch.exitStatus() == 0)
        let line = String(decoding: FileManager.default.contents(atPath: output) ?? Data(), as: UTF8.self)
        #expect(line.hasPrefix(#"{"concealed":true,"owner":"0x"#), "\(line)")
        #expect(line.contains(#""transient":true"#), "\(line)")
        let list = try await transferkit(["paste", "--list"])
        #expect(list.outputText.contains("x-kde-passwordManagerHint\thint: concealed\n"), "\(list.outputText)")
        #expect(list.outputText.contains("org.nspasteboard.TransientType\thint: transient\n"), "\(list.outputText)")
        let json = try await transferkit(["paste", "--list", "--json"])
        #expect(json.outputText.contains(#""hint":"transient","name":"org.nspasteboard.TransientType""#))
    }

    @Test("watch --exec runs the command per change with the types, the flags and the owner, and the content")
    func watchExec() async throws {
        let path = try file("hooked.txt", Data("hooked text".utf8))
        let hook = try await HookRun.run(environment: server.environment, folder: folder) {
            let copy = try await self.transferkit(["copy", path])
            #expect(copy.status == 0, "\(copy.errorText)")
        }
        let variables = hook.variables
        #expect(variables["CLIPBOARD_TYPE"] == "text/plain;charset=utf-8", "\(hook.environment)")
        #expect(variables["CLIPBOARD_UTI"] == "public.utf8-plain-text")
        #expect(variables["CLIPBOARD_SELECTION"] == "clipboard")
        #expect(variables["CLIPBOARD_CONCEALED"] == "0" && variables["CLIPBOARD_TRANSIENT"] == "0")
        #expect(variables["CLIPBOARD_STATE"] == "data")
        #expect(variables["CLIPBOARD_PROTOCOL"] == "X11")
        #expect(variables["CLIPBOARD_OWNER"]?.hasPrefix("0x") == true, "\(hook.environment)")
        // CLIPBOARD_TYPES is one name per line: its first line is in the variable, the rest on lines of their own.
        #expect(hook.environment.contains("text/uri-list\n") && hook.environment.contains("UTF8_STRING\n"))
        #expect(hook.input == Data("hooked text".utf8))
    }

    @Test("watch --exec gives a concealed copy's hook the flags but no content, and leaves its one paste")
    func watchExecSecret() async throws {
        let path = try file("hooked-secret.txt", Data("s3cret".utf8))
        let hook = try await HookRun.run(environment: server.environment, folder: folder) {
            let copy = try await self.transferkit(["copy", "--concealed", "--paste-once", path])
            #expect(copy.status == 0, "\(copy.errorText)")
        }
        let variables = hook.variables
        #expect(variables["CLIPBOARD_CONCEALED"] == "1" && variables["CLIPBOARD_TRANSIENT"] == "1")
        #expect(variables["CLIPBOARD_STATE"] == "sensitive", "\(hook.environment)")
        #expect(hook.input == Data())
        // The hook used no paste: the one paste is still there.
        #expect(try await pasteText().output == Data("s3cret".utf8))
    }
}
