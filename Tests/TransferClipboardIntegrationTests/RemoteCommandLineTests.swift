import Foundation
import Testing
import TransferDisplayTestSupport
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting

/// `paste --from ssh://` and `serve --stdio` without a server: the ssh command line the tool builds (a stand-in `ssh`
/// records it), and the usage errors.
@Suite("paste --from and copy --to: the ssh command line and the usage errors", .timeLimit(.minutes(2)))
struct RemoteCommandLineTests {
    func transferkit(_ arguments: [String], environment: [String: String] = [:]) async throws -> ChildProcess.Result {
        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment) { _, new in new }
        return try await ChildProcess.run(TransferKitExecutable.defaultPath, arguments: arguments, environment: merged)
    }

    @Test(
        "the location and the variables make the ssh command: TRANSFERKIT_SSH's words, -p, -l, the host, the far program"
    )
    func sshCommandLine() async throws {
        let folder = try makeTemporaryDirectory(prefix: "fake-ssh")
        defer { try? FileManager.default.removeItem(at: folder) }
        let record = folder.appendingPathComponent("argv").path
        let fakeSSH = folder.appendingPathComponent("fake-ssh").path
        try writeExecutableScript(
            "for word in \"$@\"; do printf '%s\\n' \"$word\"; done > '\(record)'\necho 'fake: no link' >&2\nexit 255\n",
            toPath: fakeSSH)
        let paste = try await transferkit(
            ["paste", "--from", "ssh://me@build-server:2222", "--primary"],
            environment: ["TRANSFERKIT_SSH": "\(fakeSSH) -o BatchMode=yes", "TRANSFERKIT_REMOTE_PROGRAM": "bin/tk"])
        #expect(paste.status == 2)
        #expect(paste.errorText.contains("fake: no link"), "\(paste.errorText)")
        let words = try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(
            words == [
                "-o", "BatchMode=yes", "-p", "2222", "-l", "me", "build-server", "bin/tk", "serve", "--stdio",
                "--primary",
            ])
    }

    @Test(
        "a location or option that is wrong is a usage error (exit 2) that says what is wrong",
        arguments: [
            (["paste", "--from", "ftp://host"], "ssh://"),
            (["paste", "--from", "ssh://-oProxyCommand=touch"], "is not a host name"),
            (["paste", "--from", "ssh://host/etc"], "not a path"),
            (["paste", "--from", "ssh://host:0"], "is not a port"),
            (["paste", "--from", "ssh://me;rm@host"], "is not a user name"),
            (["paste", "--from", "ssh://host", "--terminal"], "does not go with --from"),
            (["paste", "--timeout", "2s"], "--timeout goes with --from"),
            (["serve"], "serve needs --stdio"),
            (["serve", "--stdio", "--primary", "notes.txt"], "FILE… serves files instead"),
            (["copy", "--to", "ssh://host", "--cut", "/etc/hostname"], "does not go with --to"),
            (
                ["copy", "--to", "ssh://host", "--foreground", "--backend", "x11", "/etc/hostname"],
                "does not go with --to"
            ),
            (["copy", "--timeout", "1s", "--foreground", "/etc/hostname"], "--timeout goes with --to"),
            (["copy", "--to", "ssh://-lroot", "--foreground", "/etc/hostname"], "is not a host name"),
            (["serve", "--stdio", "--receive", "notes.txt"], "give no FILE"),
            (["serve", "--stdio", "--concealed"], "goes with --receive"),
            (["drag", "ssh://host/a.txt", "/etc/hostname"], "not both at once"),
            (["drag", "ssh://host/a.txt", "ssh://other/b.txt"], "one machine"),
            (["drag", "--move", "ssh://host/a.txt"], "dragged as copies"),
            (["drag", "ssh://host"], "needs a file"),
            (["paste", "--into", "/tmp"], "--into goes with --from"),
            (["paste", "--from", "ssh://host", "--settle"], "--settle goes with --into"),
            (["paste", "--from", "ssh://host", "--into", "/nonexistent-folder"], "needs an existing folder"),
            (["paste", "--from", "ssh://host", "--into", "/tmp", "--type", "public.data"], "does not go with --into"),
            (["serve", "--stdio", "--files", "notes.txt"], "give no FILE"),
            (["serve", "--decide", "S"], "--outcome committed or --outcome aborted"),
            (["serve", "--decide", "S", "--outcome", "maybe"], "--outcome committed or --outcome aborted"),
            (["serve", "--stdio", "--outcome", "aborted"], "--outcome goes with --decide"),
        ])
    func usageErrors(_ arguments: [String], _ message: String) async throws {
        let run = try await transferkit(arguments)
        #expect(run.status == 2, "\(arguments): \(run.errorText)")
        #expect(run.errorText.contains(message), "\(arguments): \(run.errorText)")
    }

    @Test("TRANSFERKIT_SSH set but empty is a usage error, not a run of nothing")
    func emptySSHVariable() async throws {
        let run = try await transferkit(["paste", "--from", "ssh://host"], environment: ["TRANSFERKIT_SSH": " "])
        #expect(run.status == 2)
        #expect(run.errorText.contains("TRANSFERKIT_SSH is set but empty"), "\(run.errorText)")
    }
}
