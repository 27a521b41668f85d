import Foundation
import Testing
import TransferClipboard
import TransferDisplayTestSupport
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting
import UniformTypes

/// Paste limits, expiry, the hints and `watch --exec` against wl-paste and the tool, under a private headless sway.
@Suite(
    "Wayland secrets: paste limits, expiry, hints and hooks", .serialized, .timeLimit(.minutes(5)),
    .enabled(if: waylandToolsPresent, "needs sway, wl-clipboard and setpriv (Debian: sway, wl-clipboard, util-linux)"))
final class WaylandSecretsTests {
    let compositor: WaylandCompositor

    init() async throws {
        compositor = try await WaylandCompositor.start()
    }

    deinit {
        compositor.stop()
    }

    var folder: URL { compositor.directory }

    func transferkit(_ arguments: [String]) async throws -> ChildProcess.Result {
        try await ChildProcess.run(
            TransferKitExecutable.defaultPath, arguments: arguments, environment: compositor.environment)
    }

    func file(_ name: String, _ bytes: Data) throws -> String {
        let url = folder.appendingPathComponent(name)
        try bytes.write(to: url)
        return url.path
    }

    func pasteText() async throws -> ToolResult {
        try await compositor.wlPaste(["--no-newline", "--type", "text/plain"])
    }

    @Test("pastes(1) through the library: one wl-paste is served, the write ends, a second finds nothing")
    func pasteOnce() async throws {
        let clipboard = try await Clipboard(
            backend: .wayland, environment: compositor.environment, timeout: waylandPatience)
        defer { clipboard.close() }
        let handle = try await clipboard.write(
            [TransferProvider(data: Data("hunter2".utf8), type: .utf8PlainText)],
            options: ClipboardWriteOptions(isConcealed: true, lifetime: .pastes(1)))
        let types = try await compositor.offeredNames()
        for hint in ["x-kde-passwordManagerHint", "org.nspasteboard.ConcealedType", "org.nspasteboard.TransientType"] {
            #expect(types.contains(hint), "wl-paste --list-types lacks \(hint): \(types)")
        }
        let first = try await pasteText()
        #expect(
            first.status == 0 && first.output == Data("hunter2".utf8), "\(first.status) \(first.error) \(first.output)")
        #expect(try await handle.ended() == .pastesUsedUp)
        let second = try await pasteText()
        #expect(second.status != 0 && second.output.isEmpty, "a second paste got \(second.output)")
    }

    @Test("copy --paste-once serves one wl-paste and exits; --loops 2 serves two; --expire 1s clears")
    func copyLimits() async throws {
        let once = try file("once.txt", Data("one time".utf8))
        #expect(try await transferkit(["copy", "--paste-once", once]).status == 0)
        #expect(try await compositor.offeredNames().contains("org.nspasteboard.TransientType"))
        #expect(try await pasteText().output == Data("one time".utf8))
        try await waitUntilNoProcess(containing: once)
        #expect(processes(containing: once).isEmpty, "the serving copy is still running")
        #expect(try await pasteText().status != 0)

        let twice = try file("twice.txt", Data("two times".utf8))
        #expect(try await transferkit(["copy", "--loops", "2", twice]).status == 0)
        for _ in 0..<2 {
            #expect(try await pasteText().output == Data("two times".utf8))
        }
        try await waitUntilNoProcess(containing: twice)
        #expect(try await pasteText().status != 0)

        // The expiry hint, read from a copy that lasts (a 1-second one may be gone before wl-paste starts)…
        let lasting = try file("lasting.txt", Data("lasting".utf8))
        #expect(try await transferkit(["copy", "--expire", "1h", lasting]).status == 0)
        let expires = try await compositor.wlPaste(["--no-newline", "--type", "application/x-transferkit-expires"])
        let seconds = Double(String(decoding: expires.output, as: UTF8.self)) ?? 0
        #expect(seconds > Date().timeIntervalSince1970 + 3000, "\(expires.output)")
        // …which the next copy replaces, and which then exits.
        let brief = try file("brief.txt", Data("brief".utf8))
        #expect(try await transferkit(["copy", "--expire", "1s", brief]).status == 0)
        try await waitUntilNoProcess(containing: lasting)
        #expect(processes(containing: lasting).isEmpty, "the replaced serving copy is still running")
        try await waitUntilNoProcess(containing: brief)
        #expect(processes(containing: brief).isEmpty, "the serving copy is still running")
        #expect(try await compositor.offeredNames().isEmpty)
    }

    @Test("watch --exec sees the types and flags of a change on Wayland, with no owner and the content on stdin")
    func watchExec() async throws {
        let path = try file("hooked.txt", Data("hooked text".utf8))
        let hook = try await HookRun.run(environment: compositor.environment, folder: folder) {
            let copy = try await self.transferkit(["copy", "--transient", path])
            #expect(copy.status == 0, "\(copy.errorText)")
        }
        let variables = hook.variables
        #expect(variables["CLIPBOARD_TYPE"] == "text/plain;charset=utf-8", "\(hook.environment)")
        #expect(variables["CLIPBOARD_TRANSIENT"] == "1" && variables["CLIPBOARD_CONCEALED"] == "0")
        #expect(variables["CLIPBOARD_STATE"] == "data")
        #expect(variables["CLIPBOARD_PROTOCOL"]?.hasPrefix("Wayland") == true)
        #expect(
            hook.environment.contains("org.nspasteboard.TransientType") && hook.environment.contains("text/uri-list"))
        #expect(variables["CLIPBOARD_OWNER"] == nil, "data control names no owner: \(hook.environment)")
        // Transient content is not read for the hook.
        #expect(hook.input == Data())
    }

    @Test("watch --exec pipes the chosen type's content to the command on Wayland")
    func watchExecContent() async throws {
        let path = try file("piped.txt", Data("piped text".utf8))
        let hook = try await HookRun.run(environment: compositor.environment, folder: folder) {
            let copy = try await self.transferkit(["copy", path])
            #expect(copy.status == 0, "\(copy.errorText)")
        }
        #expect(hook.variables["CLIPBOARD_TRANSIENT"] == "0")
        #expect(hook.input == Data("piped text".utf8))
    }
}
