import Foundation
import Testing
import TransferDisplayTestSupport
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting

/// `paste --from ssh://… --into DIR`: files cut on the far display move to the near folder exactly once, through a
/// real sshd, whichever side is killed at whatever step; copied files are copied.
@Suite(
    "paste --into: cut files move between machines exactly once, through a real sshd", .serialized,
    .timeLimit(.minutes(8)),
    .enabled(
        if: x11ToolsPresent && LoopbackSSHD.isAvailable,
        "needs Xvfb, xclip and OpenSSH (Debian: xvfb, xclip, openssh-server, openssh-client)"))
final class RemoteMoveTests {
    /// Two displays and the sshd between them: the fixture of ``RemotePasteTests``.
    let pair: RemotePasteTests
    /// The far machine's state folder (its decision record and marks), `XDG_STATE_HOME` there.
    let farState: URL

    init() async throws {
        pair = try await RemotePasteTests()
        farState = pair.folder.appendingPathComponent("far-state")
    }

    /// One move's folders: the far files' and the near destination.
    struct Folders {
        var far: URL
        var near: URL
    }

    /// New folders for a move, and `names` cut (or copied) on the far clipboard, each holding its own name's text
    /// (nothing is copied for no names).
    func cut(_ names: [String], cut: Bool = true) async throws -> Folders {
        let run = UUID().uuidString.prefix(8)
        let folders = Folders(
            far: pair.folder.appendingPathComponent("far-files-\(run)"),
            near: pair.folder.appendingPathComponent("near-files-\(run)"))
        for folder in [folders.far, folders.near] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        for name in names { try Data("the file \(name)\n".utf8).write(to: folders.far.appendingPathComponent(name)) }
        guard !names.isEmpty else { return folders }
        let copy = try await pair.transferkit(
            ["copy"] + (cut ? ["--cut"] : []) + names.map { folders.far.appendingPathComponent($0).path },
            environment: pair.far.environment)
        #expect(copy.status == 0, "\(copy.errorText)")
        return folders
    }

    /// The far program, with the far state folder, a marker to find its processes by, and a step to pause at.
    func farProgram(marker: String, pauseAt step: String? = nil) -> String {
        "env XDG_STATE_HOME=\(farState.path) TK_MOVE_RUN=\(marker) "
            + (step.map { "TRANSFERKIT_PAUSE_AT=\($0) " } ?? "") + pair.farProgram
    }

    /// Names in `folder`, hidden ones too.
    func names(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    @Test("cut files move: they arrive whole under their names, and only then leave the far machine")
    func moveCutFiles() async throws {
        let folders = try await cut(["card.json", "notes.txt"])
        defer { for pid in processes(containing: folders.far.path) { kill(pid, SIGKILL) } }
        let environment = pair.nearEnvironment(remoteProgram: farProgram(marker: "plain"))
        let paste = try await pair.transferkit(
            ["paste", "--from", pair.location, "--into", folders.near.path], environment: environment)
        #expect(paste.status == 0, "\(paste.errorText)")
        #expect(paste.outputText.contains("moved\t\(folders.near.path)/card.json\t"), "\(paste.outputText)")
        #expect(names(in: folders.near) == ["card.json", "notes.txt"])
        #expect(names(in: folders.far).isEmpty)
        let card = try String(contentsOf: folders.near.appendingPathComponent("card.json"), encoding: .utf8)
        #expect(card == "the file card.json\n")
        // The far record says committed; no mark is left there.
        let decisions = names(in: farState.appendingPathComponent("transferkit/session-decisions"))
        #expect(decisions.count == 1 && decisions.allSatisfy { $0.hasSuffix(".decision") }, "\(decisions)")
        #expect(names(in: farState.appendingPathComponent("transferkit/remote-moves")).isEmpty)
    }

    @Test("copied files are copied: the far files stay, and a name taken here gets ' 2'")
    func copyCopiedFiles() async throws {
        let folders = try await cut(["report.txt"], cut: false)
        defer { for pid in processes(containing: folders.far.path) { kill(pid, SIGKILL) } }
        try Data("already here\n".utf8).write(to: folders.near.appendingPathComponent("report.txt"))
        let paste = try await pair.transferkit(
            ["paste", "--from", pair.location, "--into", folders.near.path],
            environment: pair.nearEnvironment(remoteProgram: farProgram(marker: "copy")))
        #expect(paste.status == 0, "\(paste.errorText)")
        #expect(paste.outputText.hasPrefix("copied\t\(folders.near.path)/report 2.txt\t"), "\(paste.outputText)")
        #expect(names(in: folders.far) == ["report.txt"])
        #expect(names(in: folders.near) == ["report 2.txt", "report.txt"])
    }

    @Test("a far clipboard without files fails with empty (exit 1), and nothing is written")
    func noFiles() async throws {
        let text = pair.folder.appendingPathComponent("plain.txt")
        try Data("just text".utf8).write(to: text)
        let owner = try pair.far.startXclipServing(["-selection", "clipboard"], file: text.path)
        defer { owner.stop() }
        let near = pair.folder.appendingPathComponent("near-empty")
        try FileManager.default.createDirectory(at: near, withIntermediateDirectories: true)
        let paste = try await pair.transferkit(
            ["paste", "--from", pair.location, "--into", near.path],
            environment: pair.nearEnvironment(remoteProgram: farProgram(marker: "none")))
        #expect(paste.status != 0)
        #expect(paste.errorText.contains("holds no files"), "\(paste.errorText)")
        #expect(names(in: near).isEmpty)
    }

    @Test("a folder on the far clipboard fails the paste with notFound (exit 1), naming it; nothing moves")
    func folderRefused() async throws {
        let folders = try await cut([])
        let list = pair.folder.appendingPathComponent("folder.uris")
        try Data("\(folders.far.absoluteString)\r\n".utf8).write(to: list)
        let owner = try pair.far.startXclipServing(
            ["-selection", "clipboard", "-t", "text/uri-list"], file: list.path)
        defer { owner.stop() }
        let paste = try await pair.transferkit(
            ["paste", "--from", pair.location, "--into", folders.near.path],
            environment: pair.nearEnvironment(remoteProgram: farProgram(marker: "folder")))
        #expect(paste.status != 0)
        #expect(
            paste.errorText.contains("is not a regular file") && paste.errorText.contains("notFound"),
            "\(paste.errorText)")
        #expect(names(in: folders.near).isEmpty)
        #expect(FileManager.default.fileExists(atPath: folders.far.path))
    }

    @Test(
        "a decision that cannot be recorded leaves the move undecided (commitFailed, exit 2); --settle gives it back")
    func undecidedMoveSettles() async throws {
        let folders = try await cut(["card.txt"])
        defer { for pid in processes(containing: folders.far.path) { kill(pid, SIGKILL) } }
        // The far program fails only the decision (a far side whose record cannot be written at that moment).
        let wrapper = pair.folder.appendingPathComponent("no-decide.sh").path
        try writeExecutableScript(
            """
            for word in "$@"; do [ "$word" = --decide ] && { echo "record unavailable" >&2; exit 3; }; done
            exec \(farProgram(marker: "undecided")) "$@"
            """, toPath: wrapper)
        let paste = try await pair.transferkit(
            ["paste", "--from", pair.location, "--into", folders.near.path],
            environment: pair.nearEnvironment(remoteProgram: wrapper))
        #expect(paste.status == 2)
        #expect(paste.errorText.contains("commitFailed") && paste.errorText.contains("--settle"), "\(paste.errorText)")
        // The file waits here, pending, and is still there: nobody decided.
        #expect(names(in: folders.near) == [".transferkit-moves"])
        #expect(names(in: folders.far) == ["card.txt"])
        let settle = try await pair.transferkit(
            ["paste", "--from", pair.location, "--into", folders.near.path, "--settle"],
            environment: pair.nearEnvironment(remoteProgram: farProgram(marker: "settle-undecided")))
        #expect(settle.status == 0, "\(settle.errorText)")
        #expect(names(in: folders.near).isEmpty)
        #expect(names(in: folders.far) == ["card.txt"])
    }

    @Test("two pastes of one cut at once: the file moves once, into the first; the second reserves nothing")
    func twoPastesOneCut() async throws {
        let folders = try await cut(["card.txt"])
        defer { for pid in processes(containing: folders.far.path) { kill(pid, SIGKILL) } }
        let second = pair.folder.appendingPathComponent("near-second-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: second, withIntermediateDirectories: true)
        // The first paste stops once it has stored the file, its far serve holding the reservation.
        var environment = pair.nearEnvironment(remoteProgram: farProgram(marker: "first"))
        environment["TRANSFERKIT_PAUSE_AT"] = "stored"
        let first = try BackgroundProcess(
            [TransferKitExecutable.defaultPath, "paste", "--from", pair.location, "--into", folders.near.path],
            environment: environment)
        defer { first.stop() }
        for _ in 0..<600 where processState(first.pid) != "T" { try await Task.sleep(for: .milliseconds(50)) }
        #expect(processState(first.pid) == "T")
        let other = try await pair.transferkit(
            ["paste", "--from", pair.location, "--into", second.path],
            environment: pair.nearEnvironment(remoteProgram: farProgram(marker: "second")))
        #expect(other.status != 0)
        #expect(other.errorText.contains("itemsUnavailable"), "\(other.errorText)")
        #expect(names(in: second).isEmpty)
        kill(first.pid, SIGCONT)
        #expect(try await first.exitStatus() == 0)
        #expect(names(in: folders.near) == ["card.txt"])
        #expect(names(in: folders.far).isEmpty)
    }

    /// Who is killed at which step of a move, and where the file must end.
    static let killTable: [(String, String, String)] = [
        ("far", "offered", "far"),
        ("far", "reserved", "far"),
        ("far", "commitReceived", "near"),
        ("far", "removed", "near"),
        ("near", "reservationReceived", "far"),
        ("near", "stored", "far"),
        ("near", "decided", "near"),
        ("near", "commitSent", "near"),
    ]

    @Test(
        "killing either side at any step leaves the file on exactly one machine once both settled; nothing listens",
        arguments: killTable)
    func killed(side: String, step: String, expected: String) async throws {
        let folders = try await cut(["card.txt"])
        defer { for pid in processes(containing: folders.far.path) { kill(pid, SIGKILL) } }
        let marker = UUID().uuidString
        var environment = pair.nearEnvironment(
            remoteProgram: farProgram(marker: marker, pauseAt: side == "far" ? step : nil))
        if side == "near" { environment["TRANSFERKIT_PAUSE_AT"] = step }
        let paste = try BackgroundProcess(
            [TransferKitExecutable.defaultPath, "paste", "--from", pair.location, "--into", folders.near.path],
            environment: environment, outputFile: pair.folder.appendingPathComponent("paste-\(marker).out").path)
        defer { paste.stop() }
        // The far serve is the process with the marker in its environment that serves the files.
        func farServe() -> Int32? {
            // (An entry of its own: the near side's ssh has the marker inside TRANSFERKIT_REMOTE_PROGRAM's value.)
            processes(containing: "--files").first { pid in
                let environ = FileManager.default.contents(atPath: "/proc/\(pid)/environ") ?? Data()
                return environ.split(separator: 0).contains { Data($0) == Data("TK_MOVE_RUN=\(marker)".utf8) }
            }
        }
        defer { if let far = farServe() { kill(far, SIGKILL) } }
        var victim: Int32?
        for _ in 0..<600 where victim == nil {
            let candidate = side == "near" ? paste.pid : farServe()
            if let candidate, processState(candidate) == "T" { victim = candidate }
            if victim == nil { try await Task.sleep(for: .milliseconds(50)) }
        }
        let stopped = try #require(victim, "the \(side) side never paused at \(step)")
        // Neither side listens on a TCP port: ssh is the only transport.
        for pid in [paste.pid, farServe()].compactMap({ $0 }) {
            #expect(listeningTCPSockets(of: pid).isEmpty, "process \(pid) listens on TCP")
        }
        kill(stopped, SIGKILL)
        _ = try await paste.exitStatus()
        let settle = try await pair.transferkit(
            ["paste", "--from", pair.location, "--into", folders.near.path, "--settle"],
            environment: pair.nearEnvironment(remoteProgram: farProgram(marker: "settle")))
        #expect(settle.status == 0, "\(settle.errorText)")
        let places = [
            names(in: folders.far).contains("card.txt") ? "far" : nil,
            names(in: folders.near).contains("card.txt") ? "near" : nil,
        ]
        .compactMap { $0 }
        #expect(places == [expected], "far \(names(in: folders.far)), near \(names(in: folders.near))")
        let place = expected == "far" ? folders.far : folders.near
        let text = try String(contentsOf: place.appendingPathComponent("card.txt"), encoding: .utf8)
        #expect(text == "the file card.txt\n")
        // Nothing waits anywhere: no pending move here, no mark there.
        #expect(names(in: folders.near).filter { $0.hasPrefix(".") }.isEmpty, "\(names(in: folders.near))")
        #expect(names(in: farState.appendingPathComponent("transferkit/remote-moves")).isEmpty)
    }

    /// The state letter of `/proc/PID/stat` (`T` for a stopped process), or `nil` when it is gone.
    private func processState(_ pid: Int32) -> String? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        return stat[close...].split(separator: " ").dropFirst().first.map(String.init)
    }

    /// The TCP sockets of `pid` that listen (`/proc/net/tcp` and `tcp6` rows in state `0A` whose inode is one of
    /// the process's descriptors).
    private func listeningTCPSockets(of pid: Int32) -> [String] {
        let descriptors = Syscall.directoryEntries(atPath: "/proc/\(pid)/fd")
        let inodes = Set(
            descriptors.compactMap { Syscall.readLink("/proc/\(pid)/fd/\($0)") }.filter { $0.hasPrefix("socket:[") }
                .map { String($0.dropFirst("socket:[".count).dropLast()) })
        var listening: [String] = []
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            let rows = (try? String(contentsOfFile: table, encoding: .utf8)) ?? ""
            for row in rows.split(separator: "\n").dropFirst() {
                let fields = row.split(separator: " ")
                if fields.count > 9, fields[3] == "0A", inodes.contains(String(fields[9])) {
                    listening.append(String(row))
                }
            }
        }
        return listening
    }
}
