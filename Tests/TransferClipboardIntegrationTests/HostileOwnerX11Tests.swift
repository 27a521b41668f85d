import Foundation
import Testing
import TransferClipboard
import TransferDisplayTestSupport
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting
import UniformTypes

/// Hostile X11 owners in another process (`transferkit-clipboard-probe`): 30 000 offered types, an `INCR` transfer
/// that drips for ever, an endless stream; against the library's readers, `paste`, `keep` and `watch --exec`.
///
/// Work is bounded by counts and sizes (the cap, the snapshot's size), never asserted in time: the waits are guards
/// of a minute against a hang.
@Suite(
    "Hostile X11 owners", .serialized, .timeLimit(.minutes(5)),
    .enabled(if: x11ToolsPresent, "needs Xvfb and xclip (Debian: xvfb, xclip)"))
final class HostileOwnerX11Tests {
    let server: XvfbServer
    let folder: URL
    let environment: [String: String]
    var cap: Int { ClipboardLimits.maximumOfferedTypes }
    var history: URL { folder.appendingPathComponent("runtime/transferkit/keeper/history/clipboard") }
    var spool: URL { folder.appendingPathComponent("runtime/transferkit/keeper") }

    init() async throws {
        server = try await XvfbServer.start()
        folder = try makeTemporaryDirectory(prefix: "clipboard-hostile")
        environment = try keeperEnvironment(server.environment, runtime: folder.appendingPathComponent("runtime"))
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    func transferkit(_ arguments: [String]) async throws -> ChildProcess.Result {
        try await ChildProcess.run(TransferKitExecutable.defaultPath, arguments: arguments, environment: environment)
    }

    /// Copies `text` with xclip (serving until stopped).
    func xclipCopy(_ text: String) throws -> BackgroundProcess {
        let file = folder.appendingPathComponent("copy-\(UUID().uuidString).txt")
        try Data(text.utf8).write(to: file)
        return try server.startXclipServing(["-selection", "clipboard"], file: file.path)
    }

    /// A keeper with `arguments` that has kept one xclip copy, so it watches the clipboard from now on.
    func watchingKeeper(_ arguments: [String]) async throws -> RunningKeeper {
        let keeper = try RunningKeeper(arguments, environment: environment, folder: folder)
        let first = try xclipCopy("first")
        defer { first.stop() }
        try await keeper.waitForLines(startingWith: "kept clipboard: 1 names, 5 bytes")
        return keeper
    }

    @Test("30 000 offered types: readers take the cap, paste --list reports the rest once")
    func floodOfTypes() async throws {
        let owner = try await HostileOwner("x11", ["types", "30000"], environment: environment, folder: folder)
        let reader = try await Clipboard(backend: .x11, environment: server.environment, timeout: patience)
        defer { reader.close() }
        let offer = try await reader.offer(on: .clipboard)
        #expect(offer.types.count == cap)
        #expect(offer.omittedCount == 30_000 - cap)
        #expect(offer.types.last?.name == "com.example.flood-\(cap - 1)")
        let item = try #require(try await reader.read().first)
        #expect(item.registeredTypes.count == cap, "the provider has at most the cap")
        let last = try #require(UniformType("com.example.flood-\(cap - 1)"))
        #expect(try await item.loadDataRepresentation(for: last) == Data("com.example.flood-\(cap - 1)".utf8))

        let list = try await transferkit(["paste", "--list"])
        #expect(list.status == 0, "\(list.errorText)")
        #expect(list.outputText.split(separator: "\n").count == cap)
        let notes = list.errorText.split(separator: "\n").filter { $0.contains("\(30_000 - cap) more names") }
        #expect(notes.count == 1, "\(list.errorText)")
        owner.process.stop()
    }

    @Test("30 000 offered types: the keeper snapshots the cap, reports the rest once, and keeps the next copy")
    func keeperUnderAFlood() async throws {
        let keeper = try await watchingKeeper(["--history", "3"])
        let owner = try await HostileOwner("x11", ["types", "30000"], environment: environment, folder: folder)
        try await keeper.waitForLines(startingWith: "kept clipboard: \(cap) names")
        #expect(keeper.lines.filter { $0.hasPrefix("ignored clipboard: \(30_000 - cap) ") }.count == 1)
        let next = try xclipCopy("next")
        defer { next.stop() }
        try await keeper.waitForLines(startingWith: "kept clipboard: 1 names, 4 bytes")
        owner.process.stop()
        // The flood's snapshot is a readable history entry, its file only its user's.
        let flood = try await transferkit(["paste", "--from-history", "1", "--type", "com.example.flood-7"])
        #expect(flood.status == 0, "\(flood.errorText)")
        #expect(flood.outputText == "com.example.flood-7")
        for name in fileNames(in: history) {
            let mode =
                try FileManager.default.attributesOfItem(atPath: history.appendingPathComponent(name).path)[
                    .posixPermissions] as? Int
            #expect(mode == 0o600, "\(name): \(String(mode ?? 0, radix: 8))")
        }
        #expect(fileNames(in: history).count == 3, "\(fileNames(in: history))")
    }

    @Test("an INCR owner that drips for ever is pre-empted by the next copy, which is kept")
    func dripIsPreempted() async throws {
        let keeper = try await watchingKeeper(["--history", "3"])
        let owner = try await HostileOwner("x11", ["drip"], environment: environment, folder: folder)
        try await owner.waitFor("loaded com.example.drip")
        let next = try xclipCopy("next")
        defer { next.stop() }
        try await keeper.waitForLines(startingWith: "kept clipboard: 1 names, 4 bytes")
        #expect(keeper.lines.contains("skipped clipboard: pre-empted by a new owner"), "\(keeper.lines)")
        // Nothing of the dripping owner stays: the history holds the two xclip copies.
        #expect(fileNames(in: history).count == 2, "\(fileNames(in: history))")
    }

    @Test("an INCR owner that drips for ever ends at --snapshot-timeout, leaving nothing behind")
    func dripTimesOut() async throws {
        let keeper = try await watchingKeeper(["--history", "3", "--snapshot-timeout", "2"])
        let owner = try await HostileOwner("x11", ["drip"], environment: environment, folder: folder)
        try await keeper.waitForLines(startingWith: "skipped clipboard: timed out")
        #expect(fileNames(in: history).count == 1, "only the first copy: \(fileNames(in: history))")
        #expect(fileNames(in: spool) == ["history"], "no spool file left: \(fileNames(in: spool))")
        owner.process.stop()
    }

    @Test("an endless owner is skipped at --max-snapshot, leaving nothing in the spool or the history")
    func endlessIsTooLarge() async throws {
        let keeper = try await watchingKeeper(["--history", "3", "--max-snapshot", "4M"])
        let owner = try await HostileOwner("x11", ["endless"], environment: environment, folder: folder)
        try await keeper.waitForLines(startingWith: "skipped clipboard: too large")
        #expect(fileNames(in: history).count == 1, "only the first copy: \(fileNames(in: history))")
        #expect(fileNames(in: spool) == ["history"], "no spool file left: \(fileNames(in: spool))")
        let next = try xclipCopy("next")
        defer { next.stop() }
        try await keeper.waitForLines(startingWith: "kept clipboard: 1 names, 4 bytes")
        owner.process.stop()
    }

    @Test("watch --exec gets at most --exec-limit bytes of an endless owner, and says so once")
    func watchHookIsCapped() async throws {
        let out = folder.appendingPathComponent("hook")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let watchOutput = folder.appendingPathComponent("watch.out").path
        let watch = try BackgroundProcess(
            [
                TransferKitExecutable.defaultPath, "watch", "--exec-limit", "1M",
                "--exec", "test -n \"$CLIPBOARD_UTI\" && cat > '\(out.path)'/\"$CLIPBOARD_UTI\"",
            ], environment: environment, outputFile: watchOutput)
        defer { watch.stop() }
        // Copies until the hook ran once: then watch is watching.
        var warm: BackgroundProcess?
        for _ in 0..<30 where !fileNames(in: out).contains("public.utf8-plain-text") {
            warm?.stop()
            warm = try xclipCopy("warm")
            for _ in 0..<100 where !fileNames(in: out).contains("public.utf8-plain-text") {
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        warm?.stop()
        let owner = try await HostileOwner("x11", ["endless"], environment: environment, folder: folder)
        func watchOutputText() -> String {
            String(decoding: FileManager.default.contents(atPath: watchOutput) ?? Data(), as: UTF8.self)
        }
        for _ in 0..<3000 where !watchOutputText().contains("passed --exec-limit") {
            try await Task.sleep(for: .milliseconds(20))
        }
        // The hook ended with its input: taking the clipboard is the next change, which watch reports too.
        let next = try xclipCopy("next")
        defer { next.stop() }
        let text = out.appendingPathComponent("public.utf8-plain-text").path
        for _ in 0..<3000 where FileManager.default.contents(atPath: text) != Data("next".utf8) {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(FileManager.default.contents(atPath: text) == Data("next".utf8), "watch goes on after a cut-off hook")
        let size =
            try FileManager.default.attributesOfItem(
                atPath: out.appendingPathComponent("com.example.endless").path)[.size] as? Int
        #expect(size == 1 << 20)
        let output = watchOutputText()
        #expect(output.components(separatedBy: "passed --exec-limit").count == 2, "\(output)")
        owner.process.stop()
    }

    @Test("paste --from-history refuses a history another user could have planted, as keep does")
    func plantedHistoryIsRefused() async throws {
        // Without XDG_RUNTIME_DIR the history sits at a predictable path under TMPDIR.
        var environment = server.environment
        environment["XDG_RUNTIME_DIR"] = nil
        let temporary = folder.appendingPathComponent("tmp")
        environment["TMPDIR"] = temporary.path
        let spool = temporary.appendingPathComponent("transferkit-keeper-\(Syscall.userID)")
        let history = spool.appendingPathComponent("history/clipboard")
        try FileManager.default.createDirectory(at: history, withIntermediateDirectories: true)
        let entry = history.appendingPathComponent("00000000000000001.transferkit")
        try await writeKeptItemArchive(to: entry)
        func paste() async throws -> ChildProcess.Result {
            try await ChildProcess.run(
                TransferKitExecutable.defaultPath, arguments: ["paste", "--from-history", "0"],
                environment: environment)
        }
        for folder in [spool, spool.appendingPathComponent("history"), history] {
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder.path)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: entry.path)
        let own = try await paste()
        #expect(own.status == 0, "the user's own history is read: \(own.errorText)")
        #expect(own.outputText == "Ada Lovelace ✓")
        for folder in [spool, spool.appendingPathComponent("history"), history] {
            try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder.path)
            let planted = try await paste()
            #expect(planted.status != 0, "\(folder.path)")
            #expect(planted.errorText.contains("spoolUnavailable"), "\(folder.path): \(planted.errorText)")
            #expect(planted.outputText.isEmpty)
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder.path)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: entry.path)
        let writable = try await paste()
        #expect(
            writable.errorText.contains("spoolUnavailable"), "a snapshot every user may write: \(writable.errorText)")
        #expect(writable.outputText.isEmpty)
    }
}
