import Foundation
import Testing
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting

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
    /// The far side's `transferkit`: a script that gives the tool the far display, as a login there would.
    let farProgram: String

    init() async throws {
        near = try await XvfbServer.start()
        far = try await XvfbServer.start()
        folder = try makeTemporaryDirectory(prefix: "remote-paste")
        sshd = try await LoopbackSSHD(directory: folder)
        let runtime = folder.appendingPathComponent("far-runtime")
        try FileManager.default.createDirectory(
            at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        farProgram = folder.appendingPathComponent("far-transferkit").path
        let farEnvironment = far.environment
        try """
        #!/bin/sh
        export DISPLAY='\(farEnvironment["DISPLAY"] ?? "")' XAUTHORITY='\(farEnvironment["XAUTHORITY"] ?? "")'
        export XDG_RUNTIME_DIR='\(runtime.path)'
        unset WAYLAND_DISPLAY
        exec '\(TransferKitExecutable.defaultPath)' "$@"
        """.write(toFile: farProgram, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: farProgram)
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
        try await waitUntilNoProcess(containing: path)
        #expect(processes(containing: path).isEmpty)
        #expect(processes(containing: "serve\u{0}--stdio\u{0}--receive").isEmpty)
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

        let output = folder.appendingPathComponent("pasted.bin").path
        let paste = try BackgroundProcess(
            [TransferKitExecutable.defaultPath, "paste", "--from", location, "-o", output],
            environment: nearEnvironment())
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
