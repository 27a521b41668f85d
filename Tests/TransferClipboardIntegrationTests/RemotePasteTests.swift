import Foundation
import Testing
import TransferDisplayTestSupport
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting
import TransferSessions
import UniformTypes

/// Two machines on one box: a "near" Xvfb where `transferkit paste --from` runs, and a "far" Xvfb with its own
/// runtime directory that the near side reaches only through a real sshd on 127.0.0.1.
@Suite(
    "paste --from and copy --to ssh:// through a real sshd, between two displays", .serialized, .timeLimit(.minutes(5)),
    .enabled(
        if: x11ToolsPresent && LoopbackSSHD.isAvailable,
        "needs Xvfb, xclip and OpenSSH (Debian: xvfb, xclip, openssh-server, openssh-client)"))
final class RemotePasteTests {
    let near: XvfbServer
    let far: XvfbServer
    let sshd: LoopbackSSHD
    let folder: URL
    /// The far side's `transferkit` (`TRANSFERKIT_REMOTE_PROGRAM`): the tool with the far display's environment.
    let farProgram: String

    init() async throws {
        near = try await XvfbServer.start()
        far = try await XvfbServer.start()
        folder = try makeTemporaryDirectory(prefix: "remote-paste")
        sshd = try await LoopbackSSHD(directory: folder)
        let runtime = folder.appendingPathComponent("far-runtime")
        try FileManager.default.createDirectory(
            at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // The far side's `transferkit` with the far display, as a login there would have it: words of `env`, not a
        // script (a script written now can still be open for writing in a child another test forks meanwhile, and
        // the far shell then fails to run it: "Text file busy").
        let farEnvironment = far.environment
        farProgram = [
            "env", "-u", "WAYLAND_DISPLAY", "DISPLAY=\(farEnvironment["DISPLAY"] ?? "")",
            "XAUTHORITY=\(farEnvironment["XAUTHORITY"] ?? "")", "XDG_RUNTIME_DIR=\(runtime.path)",
            TransferKitExecutable.defaultPath,
        ].joined(separator: " ")
    }

    deinit {
        near.stop()
        far.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// The near side's environment: its own display, and ssh reaching the loopback sshd with the run's key.
    func nearEnvironment(remoteProgram: String? = nil) -> [String: String] {
        var environment = near.environment
        environment["TRANSFERKIT_SSH"] = sshd.sshCommand.joined(separator: " ")
        environment["TRANSFERKIT_REMOTE_PROGRAM"] = remoteProgram ?? farProgram
        return environment
    }

    var location: String { "ssh://\(sshd.user)@127.0.0.1:\(sshd.port)" }

    func transferkit(_ arguments: [String], environment: [String: String]) async throws -> ChildProcess.Result {
        try await ChildProcess.run(TransferKitExecutable.defaultPath, arguments: arguments, environment: environment)
    }

    @Test("the far clipboard's text, its types and its archive reach the near side; the near clipboard is untouched")
    func pasteFarClipboard() async throws {
        let text = "Copied on the far machine.\n"
        let file = folder.appendingPathComponent("far-text.txt")
        try Data(text.utf8).write(to: file)
        let owner = try far.startXclipServing(["-selection", "clipboard"], file: file.path)
        defer { owner.stop() }
        for _ in 0..<500 {
            if try await far.xclip(["-o", "-selection", "clipboard"]).output == Data(text.utf8) { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        let environment = nearEnvironment()
        let paste = try await transferkit(["paste", "--from", location], environment: environment)
        #expect(paste.status == 0, "\(paste.errorText)")
        #expect(paste.outputText == text)

        let list = try await transferkit(["paste", "--from", location, "--list"], environment: environment)
        #expect(list.status == 0, "\(list.errorText)")
        #expect(list.outputText.split(separator: "\n").contains("public.utf8-plain-text"), "\(list.outputText)")

        let archive = folder.appendingPathComponent("far.transferkit").path
        let snapshot = try await transferkit(
            ["paste", "--from", location, "--archive", "-o", archive], environment: environment)
        #expect(snapshot.status == 0, "\(snapshot.errorText)")
        let inspect = try await transferkit(["inspect", archive, "--json"], environment: environment)
        #expect(inspect.outputText.contains(#""type":"public.utf8-plain-text""#), "\(inspect.outputText)")

        // The near display's clipboard never saw it.
        let nearClipboard = try await near.xclip(["-o", "-selection", "clipboard"])
        #expect(nearClipboard.status != 0 || nearClipboard.output.isEmpty)
    }

    @Test("serve --stdio ends its session at the next copy there: once it heard of it, every load fails")
    func serveEndsAtTheNextCopy() async throws {
        let first = folder.appendingPathComponent("first.txt")
        try Data("first copy".utf8).write(to: first)
        let owner = try far.startXclipServing(["-selection", "clipboard"], file: first.path)
        defer { owner.stop() }
        for _ in 0..<500 {
            if try await far.xclip(["-o", "-selection", "clipboard"]).output == Data("first copy".utf8) { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        let remote = try await RemoteDragSession.connect(
            runningCommand: [TransferKitExecutable.defaultPath, "serve", "--stdio"], environment: far.environment)
        defer { remote.close() }
        let provider = try #require(remote.items.first?.provider)
        #expect(try await provider.loadDataRepresentation(for: .utf8PlainText) == Data("first copy".utf8))
        // A second copy there (a password, say).
        let second = folder.appendingPathComponent("second.txt")
        try Data("second copy".utf8).write(to: second)
        let next = try far.startXclipServing(["-selection", "clipboard"], file: second.path)
        defer { next.stop() }
        // A load asked in the moment between the copy and the serve hearing of it can still reach the new owner (X11
        // has no "convert only if still owned by"); once the serve heard, the session is over for good.
        var ended = false
        for _ in 0..<100 where !ended {
            do {
                _ = try await provider.loadDataRepresentation(for: .utf8PlainText)
                try await Task.sleep(for: .milliseconds(50))
            } catch {
                ended = true
            }
        }
        #expect(ended)
        await #expect(throws: (any Error).self) {
            try await provider.loadDataRepresentation(for: .utf8PlainText)
        }
    }

    @Test(
        "copy --to returns once the far clipboard is taken; each paste there loads from here; it ends when that is taken"
    )
    func copyToFarClipboard() async throws {
        let text = "Copied on the near machine.\n"
        let path = folder.appendingPathComponent("near-notes.txt").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let copy = try await transferkit(["copy", "--to", location, path], environment: nearEnvironment())
        #expect(copy.status == 0, "\(copy.errorText)")
        defer { for pid in processes(containing: path) { kill(pid, SIGKILL) } }
        // Pasted twice there: each paste loads the bytes from here, over the link.
        for _ in 0..<2 {
            let paste = try await far.xclip(["-o", "-selection", "clipboard"])
            #expect(String(decoding: paste.output, as: UTF8.self) == text, "\(paste.error)")
        }
        // The near path names nothing there: no file URL is offered.
        let targets = try await far.xclip(["-o", "-selection", "clipboard", "-t", "TARGETS"])
        #expect(!String(decoding: targets.output, as: UTF8.self).contains("text/uri-list"))
        #expect(processes(containing: path).count == 1)
        // Another application there takes the clipboard: the near copy and the far side both end.
        let other = folder.appendingPathComponent("other.txt")
        try Data("another application".utf8).write(to: other)
        let owner = try far.startXclipServing(["-selection", "clipboard"], file: other.path)
        defer { owner.stop() }
        // The near copy ends once the far side closed the session, which it does as it ends.
        try await waitUntilNoProcess(containing: path)
        #expect(processes(containing: path).isEmpty)
    }

    @Test("copy --to a far side that cannot take its clipboard fails with what it said, and nothing serves on")
    func copyToUnreachableFarSide() async throws {
        let path = folder.appendingPathComponent("unsent.txt").path
        try Data("unsent".utf8).write(to: URL(fileURLWithPath: path))
        let copy = try await transferkit(
            ["copy", "--to", location, path], environment: nearEnvironment(remoteProgram: "/nonexistent/transferkit"))
        #expect(copy.status != 0)
        #expect(copy.errorText.contains("disconnected"), "\(copy.errorText)")
        #expect(copy.errorText.contains("exited with status 127"), "\(copy.errorText)")
        try await waitUntilNoProcess(containing: path)
        #expect(processes(containing: path).isEmpty)
    }

    @Test("copy --to a far side that never takes its clipboard fails with timedOut at --timeout, and nothing serves on")
    func copyToSilentFarSide() async throws {
        let path = folder.appendingPathComponent("untaken.txt").path
        try Data("untaken".utf8).write(to: URL(fileURLWithPath: path))
        let copy = try await transferkit(
            ["copy", "--to", location, "--timeout", "2s", path],
            environment: nearEnvironment(remoteProgram: "sleep 60 #"))
        #expect(copy.status != 0)
        #expect(copy.errorText.contains("timedOut"), "\(copy.errorText)")
        try await waitUntilNoProcess(containing: path)
        #expect(processes(containing: path).isEmpty)
    }

    @Test("a far side that never answers fails the paste with timedOut at --timeout, not a hang")
    func silentFarSide() async throws {
        // The far "program" sleeps: the shell there reads the rest of the line as a comment.
        let environment = nearEnvironment(remoteProgram: "sleep 60 #")
        let started = ContinuousClock.now
        let paste = try await transferkit(
            ["paste", "--from", location, "--timeout", "2s"], environment: environment)
        #expect(paste.status != 0)
        #expect(paste.errorText.contains("timedOut"), "\(paste.errorText)")
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    @Test("a far side without transferkit, or a refused login, fails with disconnected and what the far side said")
    func unreachableFarSide() async throws {
        let missing = try await transferkit(
            ["paste", "--from", location], environment: nearEnvironment(remoteProgram: "/nonexistent/transferkit"))
        #expect(missing.status != 0)
        #expect(missing.errorText.contains("disconnected"), "\(missing.errorText)")
        #expect(missing.errorText.contains("exited with status 127"), "\(missing.errorText)")

        let refused = try await transferkit(
            ["paste", "--from", "ssh://nobody-here@127.0.0.1:\(sshd.port)"], environment: nearEnvironment())
        #expect(refused.status != 0)
        #expect(refused.errorText.contains("Permission denied"), "\(refused.errorText)")
    }

    @Test("the link killed in the middle of a paste fails it, and the output file is not left half-written")
    func linkKilledMidPaste() async throws {
        // 256 MiB on the far clipboard, served by transferkit copy there.
        let big = folder.appendingPathComponent("big.bin").path
        #expect(FileManager.default.createFile(atPath: big, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: big))
        try handle.truncate(atOffset: 256 << 20)
        try handle.close()
        let copy = try await transferkit(["copy", big, "--type", "public.data"], environment: far.environment)
        #expect(copy.status == 0, "\(copy.errorText)")
        defer { for pid in processes(containing: big) { kill(pid, SIGKILL) } }

        // The far side's answer slowed to about 4 MiB/s, so the paste is surely still running when the link is cut
        // (at full speed 256 MiB can cross the loopback between two looks of the loop below). The script is run by
        // `sh`, not executed, so a child forked meanwhile that still holds it open cannot make it "Text file busy".
        let slow = folder.appendingPathComponent("slow-far.sh")
        try Data(
            """
            "$@" | python3 -c '
            import sys, time
            source, sink = sys.stdin.buffer, sys.stdout.buffer
            while chunk := source.read1(65536):
                sink.write(chunk)
                sink.flush()
                time.sleep(0.015)
            '

            """.utf8
        ).write(to: slow)
        let output = folder.appendingPathComponent("pasted.bin").path
        let paste = try BackgroundProcess(
            [TransferKitExecutable.defaultPath, "paste", "--from", location, "-o", output],
            environment: nearEnvironment(remoteProgram: "sh \(slow.path) \(farProgram)"))
        // Once bytes are arriving (the atomic output's temporary file has some), kill ssh: the link breaks mid-paste.
        func arrived() -> Bool {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            return names.contains { name in
                name.hasPrefix(".transferkit-tmp-") && name.contains("pasted.bin")
                    && ((try? FileManager.default.attributesOfItem(atPath: folder.path + "/" + name)[.size]) as? Int
                        ?? 0) > 0
            }
        }
        var killed = false
        for _ in 0..<6000 where !killed && paste.isRunning {
            if arrived() {
                let links = processes(containing: "-p\u{0}\(sshd.port)").filter { pid in
                    (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) == "ssh\n"
                }
                for pid in links { kill(pid, SIGKILL) }
                killed = !links.isEmpty
            }
            if !killed { try await Task.sleep(for: .milliseconds(2)) }
        }
        #expect(killed)
        let status = try await paste.exitStatus()
        #expect(status != 0)
        #expect(!FileManager.default.fileExists(atPath: output))
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasPrefix(".transferkit-tmp-")
        }
        #expect(left.isEmpty, "temporary files left: \(left)")
    }
}

/// `transferkit sync ssh://…` between the near and far displays of ``RemotePasteTests``' kind: each side's copy
/// reaches the other, is never sent back, and a concealed one never leaves.
@Suite(
    "sync ssh://: two clipboards mirrored through a real sshd", .serialized, .timeLimit(.minutes(5)),
    .enabled(
        if: x11ToolsPresent && LoopbackSSHD.isAvailable,
        "needs Xvfb, xclip and OpenSSH (Debian: xvfb, xclip, openssh-server, openssh-client)"))
final class RemoteSyncTests {
    /// Two displays and the sshd between them: the fixture of ``RemotePasteTests``, made as that suite makes it.
    let pair: RemotePasteTests

    init() async throws {
        pair = try await RemotePasteTests()
    }

    /// Waits (at most `tries` tenths of a second) until `server`'s clipboard text (`nil` when nothing can be pasted)
    /// satisfies `accept`.
    func waitForClipboard(
        _ server: XvfbServer, tries: Int = 300, until accept: (String?) -> Bool
    ) async throws -> Bool {
        for _ in 0..<tries {
            let paste = try await server.xclip(["-o", "-selection", "clipboard"])
            if accept(paste.status == 0 ? String(decoding: paste.output, as: UTF8.self) : nil) { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    /// Waits (at most 30 s) until `server`'s clipboard holds `text`.
    func waitForClipboard(_ server: XvfbServer, _ text: String) async throws -> Bool {
        try await waitForClipboard(server) { $0 == text }
    }

    /// Starts xclip serving `text` on `server`'s clipboard (it exits when it loses the clipboard).
    func copy(_ text: String, on server: XvfbServer, name: String) throws -> BackgroundProcess {
        let file = pair.folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return try server.startXclipServing(["-selection", "clipboard"], file: file.path)
    }

    @Test("a copy on either side reaches the other, each is never sent back, and a concealed copy never leaves")
    func mirrorBothWays() async throws {
        let sync = try BackgroundProcess(
            [TransferKitExecutable.defaultPath, "sync", pair.location], environment: pair.nearEnvironment(),
            outputFile: pair.folder.appendingPathComponent("sync.out").path)
        defer { sync.stop() }
        // The far watch may subscribe after its process starts: a copy it missed is made again, until one arrives.
        var far: BackgroundProcess?
        var arrived = false
        for attempt in 0..<10 where !arrived {
            far?.stop()
            far = try copy("copied over there", on: pair.far, name: "far-\(attempt).txt")
            arrived = try await waitForClipboard(pair.near, tries: 30) { $0 == "copied over there" }
        }
        defer { far?.stop() }
        #expect(arrived)
        // Not sent back: the far copy's owner still holds its clipboard after a while in which a ping-pong would show.
        try await Task.sleep(for: .milliseconds(500))
        #expect(far?.isRunning == true, "sync took the far clipboard back")

        let near = try copy("copied here", on: pair.near, name: "near.txt")
        defer { near.stop() }
        #expect(try await waitForClipboard(pair.far, "copied here"))
        try await Task.sleep(for: .milliseconds(500))
        #expect(near.isRunning, "sync took the near clipboard back")

        // A file copied here crosses as its bytes and text, without its path (which names nothing there).
        let notes = pair.folder.appendingPathComponent("notes.json").path
        try Data(#"{"mirrored":true}"#.utf8).write(to: URL(fileURLWithPath: notes))
        let fileCopy = try await pair.transferkit(["copy", notes], environment: pair.near.environment)
        #expect(fileCopy.status == 0, "\(fileCopy.errorText)")
        defer { for pid in processes(containing: notes) { kill(pid, SIGKILL) } }
        #expect(try await waitForClipboard(pair.far, #"{"mirrored":true}"#))
        let targets = try await pair.far.xclip(["-o", "-selection", "clipboard", "-t", "TARGETS"])
        let offered = String(decoding: targets.output, as: UTF8.self)
        #expect(!offered.contains("text/uri-list") && !offered.contains("x-special/gnome-copied-files"), "\(offered)")

        // A secret stays here, and the far side stops offering what this clipboard held before: its pastes would
        // read the secret that holds this clipboard now.
        let secret = pair.folder.appendingPathComponent("secret.txt").path
        try Data("hunter2".utf8).write(to: URL(fileURLWithPath: secret))
        let concealed = try await pair.transferkit(
            ["copy", "--concealed", secret], environment: pair.near.environment)
        #expect(concealed.status == 0, "\(concealed.errorText)")
        defer { for pid in processes(containing: secret) { kill(pid, SIGKILL) } }
        // Sync heard of it once the far side gave up the file's copy (a paste there in the moment before could still
        // read the secret: see the serve test above). From then on, the secret is never there.
        #expect(try await waitForClipboard(pair.far) { $0 != #"{"mirrored":true}"# && $0 != "hunter2" })
        for _ in 0..<20 {
            let farNow = try await pair.far.xclip(["-o", "-selection", "clipboard"])
            #expect(!String(decoding: farNow.output, as: UTF8.self).contains("hunter2"))
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(sync.isRunning)
    }

    @Test("the link killed mid-sync ends sync with disconnected (exit 2); each side keeps its own copy")
    func linkKilledMidSync() async throws {
        let sync = try BackgroundProcess(
            [TransferKitExecutable.defaultPath, "sync", pair.location], environment: pair.nearEnvironment(),
            outputFile: pair.folder.appendingPathComponent("sync-killed.out").path)
        defer { sync.stop() }
        // A near copy reaches the far side (made again until the far watch has subscribed and the push arrived).
        var near: BackgroundProcess?
        var arrived = false
        for attempt in 0..<10 where !arrived {
            near?.stop()
            near = try copy("kept here", on: pair.near, name: "kept-\(attempt).txt")
            arrived = try await waitForClipboard(pair.far, tries: 30) { $0 == "kept here" }
        }
        defer { near?.stop() }
        #expect(arrived)
        // Kill every ssh of this sync's link (its watch there and its push): the link is gone, mid-sync.
        let links = processes(containing: "-p\u{0}\(pair.sshd.port)").filter { pid in
            (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) == "ssh\n"
        }
        #expect(!links.isEmpty)
        for pid in links { kill(pid, SIGKILL) }
        let status = try await sync.exitStatus()
        #expect(status == 2)
        let said =
            (try? String(contentsOf: pair.folder.appendingPathComponent("sync-killed.out"), encoding: .utf8)) ?? ""
        #expect(said.contains("disconnected"), "\(said)")
        // The near copy's owner still holds its clipboard; the far side no longer offers what it cannot fetch.
        #expect(near?.isRunning == true)
        let nearNow = try await pair.near.xclip(["-o", "-selection", "clipboard"])
        #expect(String(decoding: nearNow.output, as: UTF8.self) == "kept here")
        #expect(try await waitForClipboard(pair.far) { $0 != "kept here" })
    }
}
