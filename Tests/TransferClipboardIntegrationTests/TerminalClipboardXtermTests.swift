import Foundation
import Testing
import TransferDisplayTestSupport
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting

/// xterm, Xvfb and xclip: the OSC 52 tests' terminal, display and check.
let xtermToolsPresent = SystemTool.exist("xterm", "Xvfb", "xclip")

/// `copy --terminal` and `paste --terminal` through a real xterm on a private Xvfb (window operations allowed, so
/// that xterm acts on OSC 52), and through tmux inside that xterm; the X clipboard checked with xclip.
@Suite(
    "copy and paste --terminal through xterm and tmux (OSC 52)", .serialized, .timeLimit(.minutes(5)),
    .enabled(if: xtermToolsPresent, "needs xterm, Xvfb and xclip (Debian: xterm, xvfb, xclip)"))
final class TerminalClipboardXtermTests {
    let server: XvfbServer
    let folder: URL

    init() async throws {
        server = try await XvfbServer.start(screen: "640x480x24")
        folder = try makeTemporaryDirectory(prefix: "clipboard-osc52")
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    func file(_ name: String, _ bytes: Data) throws -> String {
        let url = folder.appendingPathComponent(name)
        try bytes.write(to: url)
        return url.path
    }

    /// Starts an xterm that allows OSC 52 both ways and runs `command` (a shell line) in it; the xterm stays open
    /// until stopped, as it serves the selection only while it runs.
    func xterm(_ command: String, allowingWindowOps: Bool = true) throws -> BackgroundProcess {
        let resources =
            allowingWindowOps
            ? ["-xrm", "XTerm*disallowedWindowOps:", "-xrm", "XTerm*allowWindowOps: true"] : []
        var environment = server.environment
        environment["TERM"] = nil
        for name in ["TMUX", "STY", "SSH_TTY"] { environment[name] = nil }
        return try BackgroundProcess(
            [SystemTool.path("xterm")] + resources + ["-e", "/bin/sh", "-c", command], environment: environment,
            outputFile: folder.appendingPathComponent("xterm-\(UUID().uuidString).out").path)
    }

    /// `transferkit ARGUMENTS`, quoted for a shell, whose exit status goes to `status` and whose standard error
    /// to `status.err`.
    func shellLine(_ arguments: [String], status: String) -> String {
        let quoted = ([TransferKitExecutable.defaultPath] + arguments).map { "'\($0)'" }.joined(separator: " ")
        return "\(quoted) 2> '\(status).err'; echo $? > '\(status).part'; mv '\(status).part' '\(status)'"
    }

    /// The contents of `path` once it exists (within a minute), or `nil`.
    func awaitFile(_ path: String) async throws -> String? {
        for _ in 0..<3000 {
            if let data = FileManager.default.contents(atPath: path) { return String(decoding: data, as: UTF8.self) }
            try await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    /// The X clipboard's text once it is `expected` (within a minute), or what it last was.
    func awaitClipboard(_ expected: String) async throws -> String {
        var text = ""
        for _ in 0..<600 {
            let result = try await server.xclip(["-o", "-selection", "clipboard"])
            text = String(decoding: result.output, as: UTF8.self)
            if result.status == 0, text == expected { return text }
            try await Task.sleep(for: .milliseconds(100))
        }
        return text
    }

    @Test("copy --terminal in xterm puts the text on the X clipboard, which xclip -o reads; it says what it sent")
    func copyThroughXterm() async throws {
        let text = "OSC 52 from TransferKit: héllo ✓\nsecond line\n"
        let path = try file("notes.txt", Data(text.utf8))
        let status = folder.appendingPathComponent("copy.status").path
        let xterm = try xterm(shellLine(["copy", "--terminal", path], status: status) + "; sleep 120")
        defer { xterm.stop() }
        let exit = try await awaitFile(status)
        let said = (try? String(contentsOfFile: status + ".err", encoding: .utf8)) ?? ""
        #expect(exit == "0\n", "\(String(describing: exit)): \(said)")
        #expect(try await awaitClipboard(text) == text)
        #expect(said.contains("the text of \(path)") && said.contains("\(text.utf8.count) bytes"), "\(said)")
    }

    @Test(
        "copy --terminal in tmux inside xterm goes through tmux's passthrough to the X clipboard",
        .enabled(if: SystemTool.exists("tmux"), "needs tmux (Debian: tmux)"))
    func copyThroughTmux() async throws {
        let text = "through tmux: ✓ \(UUID().uuidString)"
        let path = try file("tmux-notes.txt", Data(text.utf8))
        let status = folder.appendingPathComponent("tmux.status").path
        let configuration = try file("tmux.conf", Data("set -g allow-passthrough on\n".utf8))
        let socket = folder.appendingPathComponent("tmux.socket").path
        // The pane's command as a script: no quoting of quotes.
        let script = try file(
            "tmux-pane.sh", Data((shellLine(["copy", "--terminal", path], status: status) + "; sleep 120\n").utf8))
        let tmux = [SystemTool.path("tmux"), "-S", socket, "-f", configuration, "new-session", "/bin/sh " + script]
            .map { "'\($0)'" }.joined(separator: " ")
        let xterm = try xterm(tmux)
        defer { xterm.stop() }
        let exit = try await awaitFile(status)
        let said = (try? String(contentsOfFile: status + ".err", encoding: .utf8)) ?? ""
        #expect(exit == "0\n", "\(String(describing: exit)): \(said)")
        #expect(said.contains("through tmux"), "\(said)")
        #expect(try await awaitClipboard(text) == text)
        let stop = try await ChildProcess.run(SystemTool.path("tmux"), arguments: ["-S", socket, "kill-server"])
        #expect(stop.status == 0, "\(stop.errorText)")
    }

    @Test(
        "paste --terminal in tmux (set-clipboard on) gets tmux's newest paste buffer as tmux's answer",
        .enabled(if: SystemTool.exists("tmux"), "needs tmux (Debian: tmux)"))
    func pasteThroughTmux() async throws {
        let text = "tmux buffer \(UUID().uuidString)"
        let output = folder.appendingPathComponent("tmux-pasted.txt").path
        let status = folder.appendingPathComponent("tmux-paste.status").path
        let configuration = try file("tmux-paste.conf", Data("set -g set-clipboard on\n".utf8))
        let socket = folder.appendingPathComponent("tmux-paste.socket").path
        let tmux = [SystemTool.path("tmux"), "-S", socket]
        let setBuffer = (tmux + ["set-buffer", text]).map { "'\($0)'" }.joined(separator: " ")
        let script = try file(
            "tmux-paste-pane.sh",
            Data("\(setBuffer); \(shellLine(["paste", "--terminal", "-o", output], status: status)); sleep 120\n".utf8))
        let xterm = try xterm(
            (tmux + ["-f", configuration, "new-session", "/bin/sh " + script]).map { "'\($0)'" }.joined(separator: " "))
        defer { xterm.stop() }
        let exit = try await awaitFile(status)
        let said = (try? String(contentsOfFile: status + ".err", encoding: .utf8)) ?? ""
        #expect(exit == "0\n", "\(String(describing: exit)): \(said)")
        #expect(FileManager.default.contents(atPath: output) == Data(text.utf8))
        let stop = try await ChildProcess.run(SystemTool.path("tmux"), arguments: ["-S", socket, "kill-server"])
        #expect(stop.status == 0, "\(stop.errorText)")
    }

    @Test("paste --terminal in xterm asks for the X clipboard that xclip holds and writes xterm's answer")
    func pasteThroughXterm() async throws {
        let text = "pasted through OSC 52: ✓ \(UUID().uuidString)"
        let source = try file("source.txt", Data(text.utf8))
        let xclip = try server.startXclipServing(["-selection", "clipboard"], file: source)
        defer { xclip.stop() }
        #expect(try await awaitClipboard(text) == text)
        let output = folder.appendingPathComponent("pasted.txt").path
        let status = folder.appendingPathComponent("paste.status").path
        let xterm = try xterm(shellLine(["paste", "--terminal", "-o", output], status: status))
        defer { xterm.stop() }
        let exit = try await awaitFile(status)
        let said = (try? String(contentsOfFile: status + ".err", encoding: .utf8)) ?? ""
        #expect(exit == "0\n", "\(String(describing: exit)): \(said)")
        #expect(FileManager.default.contents(atPath: output) == Data(text.utf8))
    }
}

/// What `copy --terminal` refuses before it touches a terminal, the hint of a terminal session without a display
/// server, and the doctor's report of it; the tool runs in a session of its own (no controlling terminal).
@Suite(
    "copy --terminal refusals and the terminal-session hint", .timeLimit(.minutes(2)),
    .enabled(if: SystemTool.exists("setsid"), "needs setsid (Debian: util-linux)"))
final class TerminalClipboardRefusalTests {
    let folder: URL

    init() throws {
        folder = try makeTemporaryDirectory(prefix: "clipboard-osc52-refusals")
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    func file(_ name: String, _ bytes: Data) throws -> String {
        let url = folder.appendingPathComponent(name)
        try bytes.write(to: url)
        return url.path
    }

    /// The tool without a controlling terminal (`setsid -w`), with `environment` over a display-less one.
    func transferkit(_ arguments: [String], environment: [String: String] = [:]) async throws -> ChildProcess.Result {
        var base = ProcessInfo.processInfo.environment
        for name in ["DISPLAY", "WAYLAND_DISPLAY", "SSH_TTY", "TMUX", "STY"] { base[name] = nil }
        base.merge(environment) { $1 }
        return try await ChildProcess.run(
            SystemTool.path("setsid"), arguments: ["-w", TransferKitExecutable.defaultPath] + arguments,
            environment: base)
    }

    @Test("bytes that are not UTF-8 are refused with notText, naming the file, its type and the offset")
    func notUTF8() async throws {
        let path = try file("picture.bin", Data([0x41, 0x42, 0xC3, 0x28, 0x00]))
        let result = try await transferkit(["copy", "--terminal", path])
        #expect(result.status != 0)
        #expect(result.errorText.contains("(notText)") && result.errorText.contains("offset 2"), "\(result.errorText)")
        #expect(result.errorText.contains(path), "\(result.errorText)")
    }

    @Test("a text over the limit is refused with limitExceeded naming the limit; --terminal-limit changes it")
    func oversize() async throws {
        let path = try file("big.txt", Data(repeating: 0x61, count: 74_995))
        let result = try await transferkit(["copy", "--terminal", path])
        #expect(
            result.errorText.contains("(limitExceeded)") && result.errorText.contains("74994"), "\(result.errorText)")
        let small = try await transferkit(["copy", "--terminal", "--terminal-limit", "10", path])
        #expect(
            small.errorText.contains("(limitExceeded)") && small.errorText.contains(" 10 bytes"), "\(small.errorText)")
        // Within a raised limit the text passes the checks, and only the missing terminal stops it.
        let raised = try await transferkit(["copy", "--terminal", "--terminal-limit", "100000", path])
        #expect(raised.errorText.contains("(noTerminal)"), "\(raised.errorText)")
        let standardInput = try await ChildProcess.run(
            "/bin/sh",
            arguments: [
                "-c", "exec \"$0\" -w \"$1\" copy --terminal - < \"$2\"", SystemTool.path("setsid"),
                TransferKitExecutable.defaultPath, path,
            ])
        #expect(standardInput.errorText.contains("(limitExceeded)"), "\(standardInput.errorText)")
    }

    @Test("an archive is refused with the reason; several files and server options are usage errors")
    func refusals() async throws {
        let text = try file("a.txt", Data("a".utf8))
        let archive = folder.appendingPathComponent("a.transferkit").path
        let pack = try await transferkit(["pack", text, "-o", archive])
        #expect(pack.status == 0, "\(pack.errorText)")
        let packed = try await transferkit(["copy", "--terminal", archive])
        #expect(packed.errorText.contains("(notText)") && packed.errorText.contains("archive"), "\(packed.errorText)")
        let two = try await transferkit(["copy", "--terminal", text, text])
        #expect(two.status == 2 && two.errorText.contains("one text"), "\(two.errorText)")
        let cut = try await transferkit(["copy", "--terminal", "--cut", text])
        #expect(cut.status == 2 && cut.errorText.contains("--cut"), "\(cut.errorText)")
        let limit = try await transferkit(["copy", "--terminal-limit", "5", text])
        #expect(limit.status == 2 && limit.errorText.contains("--terminal-limit goes with --terminal"))
        let list = try await transferkit(["paste", "--terminal", "--list"])
        #expect(list.status == 2 && list.errorText.contains("--list"), "\(list.errorText)")
    }

    @Test("without a controlling terminal, copy and paste --terminal fail with noTerminal")
    func noTerminal() async throws {
        let text = try file("b.txt", Data("b".utf8))
        let copy = try await transferkit(["copy", "--terminal", text])
        #expect(copy.errorText.contains("(noTerminal)") && copy.errorText.contains("/dev/tty"), "\(copy.errorText)")
        let paste = try await transferkit(["paste", "--terminal"])
        #expect(paste.errorText.contains("(noTerminal)"), "\(paste.errorText)")
    }

    @Test("a terminal session without a display server: copy and paste suggest --terminal, doctor reports it")
    func hint() async throws {
        let text = try file("c.txt", Data("c".utf8))
        let paste = try await transferkit(["paste"])
        #expect(
            paste.errorText.contains("--terminal") && paste.errorText.contains("neither DISPLAY"), "\(paste.errorText)")
        let copy = try await transferkit(["copy", "--foreground", text])
        #expect(copy.errorText.contains("--terminal"), "\(copy.errorText)")
        // Over ssh with a display variable that leads nowhere.
        let ssh = try await transferkit(["paste"], environment: ["SSH_TTY": "/dev/pts/9", "DISPLAY": ":987"])
        #expect(ssh.errorText.contains("SSH_TTY is set") && ssh.errorText.contains("--terminal"), "\(ssh.errorText)")
        // Not a terminal session: no hint.
        let desktop = try await transferkit(["paste"], environment: ["DISPLAY": ":987"])
        #expect(!desktop.errorText.contains("--terminal"), "\(desktop.errorText)")
        let doctor = try await transferkit(["doctor"], environment: ["TMUX": "/tmp/x,1,0"])
        #expect(doctor.outputText.contains("Terminal: a terminal session, without a controlling terminal, inside tmux"))
        let json = try await transferkit(["doctor", "--json"], environment: ["SSH_TTY": "/dev/pts/9"])
        #expect(
            json.outputText.contains(
                #""terminal":{"controllingTerminal":false,"multiplexer":"none","terminalSession":true}"#),
            "\(json.outputText)")
    }
}
