import Foundation
import Testing
import TransferDisplayTestSupport
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting

/// The far "machine" is a headless sway with its own runtime folder, reached only through a real sshd on 127.0.0.1;
/// the near one an Xvfb display. What crosses is the same session; what differs is the far clipboard's protocol.
@Suite(
    "paste --from, copy --to and paste --into with a far Wayland session, through a real sshd", .serialized,
    .timeLimit(.minutes(5)),
    .enabled(
        if: x11ToolsPresent && waylandToolsPresent && LoopbackSSHD.isAvailable,
        "needs Xvfb, xclip, sway, wl-clipboard and OpenSSH (Debian: xvfb, xclip, sway, wl-clipboard, openssh-server)"))
final class RemoteWaylandTests {
    let near: XvfbServer
    let far: WaylandCompositor
    let sshd: LoopbackSSHD
    let folder: URL

    init() async throws {
        near = try await XvfbServer.start()
        far = try await WaylandCompositor.start()
        folder = try makeTemporaryDirectory(prefix: "remote-wayland")
        sshd = try await LoopbackSSHD(directory: folder)
    }

    deinit {
        near.stop()
        far.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// The near side's environment: its display, and ssh to the loopback sshd, where `transferkit` has the far
    /// compositor's environment (words of `env`, as a login there would have them) and a state folder of its own.
    var nearEnvironment: [String: String] {
        var environment = near.environment
        environment["TRANSFERKIT_SSH"] = sshd.sshCommand.joined(separator: " ")
        environment["TRANSFERKIT_REMOTE_PROGRAM"] = [
            "env", "-u", "DISPLAY", "WAYLAND_DISPLAY=\(far.socketPath)", "XDG_RUNTIME_DIR=\(far.directory.path)",
            "XDG_STATE_HOME=\(folder.appendingPathComponent("far-state").path)", TransferKitExecutable.defaultPath,
        ].joined(separator: " ")
        return environment
    }

    var location: String { "ssh://\(sshd.user)@127.0.0.1:\(sshd.port)" }

    func transferkit(_ arguments: [String], environment: [String: String]) async throws -> ChildProcess.Result {
        try await ChildProcess.run(TransferKitExecutable.defaultPath, arguments: arguments, environment: environment)
    }

    @Test("wl-copy's text on the far compositor pastes here, and its types list")
    func pasteFromWayland() async throws {
        let file = folder.appendingPathComponent("far-note.txt")
        try Data("Copied in a Wayland session.".utf8).write(to: file)
        try await far.wlCopy(file, type: "text/plain;charset=utf-8")
        let paste = try await transferkit(["paste", "--from", location], environment: nearEnvironment)
        #expect(paste.status == 0, "\(paste.errorText)")
        #expect(paste.outputText == "Copied in a Wayland session.")
        let list = try await transferkit(["paste", "--from", location, "--list"], environment: nearEnvironment)
        #expect(list.outputText.contains("public.utf8-plain-text"), "\(list.outputText)")
    }

    @Test("copy --to puts the text on the far compositor's clipboard, where wl-paste reads it")
    func copyToWayland() async throws {
        let file = folder.appendingPathComponent("near-note.txt")
        try Data("Sent to a Wayland session.\n".utf8).write(to: file)
        let copy = try await transferkit(["copy", "--to", location, file.path], environment: nearEnvironment)
        #expect(copy.status == 0, "\(copy.errorText)")
        defer { for pid in processes(containing: file.path) { kill(pid, SIGKILL) } }
        let paste = try await far.wlPaste(["--no-newline", "--type", "text/plain"])
        #expect(paste.output == Data("Sent to a Wayland session.\n".utf8))
    }

    @Test("a file cut on the far compositor moves here once")
    func moveFromWayland() async throws {
        let farFiles = folder.appendingPathComponent("far-files")
        let nearFiles = folder.appendingPathComponent("near-files")
        for made in [farFiles, nearFiles] {
            try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
        }
        let card = farFiles.appendingPathComponent("card.json")
        try Data(#"{"name":"Han"}"#.utf8).write(to: card)
        let cut = try await ChildProcess.run(
            TransferKitExecutable.defaultPath, arguments: ["copy", "--cut", card.path], environment: far.environment)
        #expect(cut.status == 0, "\(cut.errorText)")
        defer { for pid in processes(containing: card.path) { kill(pid, SIGKILL) } }
        let paste = try await transferkit(
            ["paste", "--from", location, "--into", nearFiles.path], environment: nearEnvironment)
        #expect(paste.status == 0, "\(paste.errorText)")
        #expect(!FileManager.default.fileExists(atPath: card.path))
        let moved = try Data(contentsOf: nearFiles.appendingPathComponent("card.json"))
        #expect(moved == Data(#"{"name":"Han"}"#.utf8))
    }
}
