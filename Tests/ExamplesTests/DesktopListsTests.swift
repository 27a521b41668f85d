import Foundation
import Testing
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting
import TransferSessions

/// Whether Xvfb and xdotool are installed (Debian: xvfb, xdotool; `.ci/run` installs them).
private let desktopToolsPresent =
    FileManager.default.isExecutableFile(atPath: "/usr/bin/Xvfb") && PointerDriver.isAvailable

/// A background program whose output goes to a file; killed and reaped when dropped.
private final class BackgroundChild {
    /// The example's executable.
    static let example = TransferKitExecutable.product(named: "DesktopLists")
    let pid: Int32
    let executable: String
    let output: URL
    private var status: Int32?

    init(_ executable: String, _ arguments: [String], output: URL, environment: [String: String]? = nil) throws {
        self.executable = executable
        self.output = output
        let descriptor = try Syscall.openForWriting(output.path)
        defer { Syscall.close(descriptor) }
        let input = try Syscall.openForReading("/dev/null")
        defer { Syscall.close(input) }
        pid = try ChildProcess.spawn(
            executable, arguments: arguments, environment: environment, standardInput: input,
            standardOutput: descriptor, standardError: descriptor)
    }

    deinit { kill() }

    var text: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }

    var isRunning: Bool {
        if status == nil { status = try? ChildProcess.exitStatusIfEnded(pid, executable: executable) }
        return status == nil
    }

    /// Kills the process (if it still runs) and reaps it.
    func kill() {
        guard isRunning else { return }
        Foundation.kill(pid, SIGKILL)
        status = (try? ChildProcess.waitForExit(pid, executable: executable)) ?? -1
    }

    /// Polls the output until it contains `marker` (or the process ended), for at most `limit`.
    func wait(for marker: String, within limit: Duration = .seconds(45)) async throws -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if text.contains(marker) || !isRunning { return text.contains(marker) }
            try await Task.sleep(for: .milliseconds(50))
        }
        return text.contains(marker)
    }
}

/// A private Xvfb for one test (no cookie: only local clients of this user reach its socket).
private final class PrivateXvfb {
    let display: Int
    let process: BackgroundChild

    /// The environment of its clients: `DISPLAY`, and no Wayland.
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = ":\(display)"
        environment.removeValue(forKey: "WAYLAND_DISPLAY")
        environment.removeValue(forKey: "XAUTHORITY")
        return environment
    }

    init(directory: URL) async throws {
        for _ in 0..<20 {
            let display = Int.random(in: 1000...1900)
            guard !FileManager.default.fileExists(atPath: "/tmp/.X\(display)-lock") else { continue }
            let output = directory.appendingPathComponent("Xvfb-\(display).out")
            let process = try BackgroundChild(
                "/usr/bin/Xvfb",
                [":\(display)", "-displayfd", "1", "-noreset", "-nolisten", "tcp", "-screen", "0", "1024x768x24"],
                output: output)
            let deadline = ContinuousClock.now + .seconds(30)
            while ContinuousClock.now < deadline, process.isRunning {
                let said = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
                if said.split(whereSeparator: \.isNewline).contains(where: { $0 == "\(display)" }) {
                    self.display = display
                    self.process = process
                    return
                }
                try await Task.sleep(for: .milliseconds(20))
            }
            process.kill()
        }
        throw XvfbStartError()
    }

    deinit {
        process.kill()
        try? FileManager.default.removeItem(atPath: "/tmp/.X\(display)-lock")
        try? FileManager.default.removeItem(atPath: "/tmp/.X11-unix/X\(display)")
    }
}

/// Seed 000's two lists in two windows of two processes: a card moved by a real (xdotool) drag under Xvfb, once,
/// and with either process killed mid-drop.
@Suite(
    "Seed 000 on the desktop: two windows of two processes", .serialized, .timeLimit(.minutes(5)),
    .enabled(if: desktopToolsPresent, "needs Xvfb and xdotool (Debian: xvfb, xdotool)"))
struct DesktopListsTests {
    /// Drags Han from the left list's window to the right one's, `killing` one process at `event`; returns both
    /// lists as they are when each folder is opened again, and the two processes' output.
    private func drag(
        killing killed: String? = nil, at event: RemoteSessionEvent? = nil
    ) async throws -> (
        left: String, right: String, source: String, target: String
    ) {
        let directory = try makeTemporaryDirectory(prefix: "tk-desktop")
        defer { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        let xvfb = try await PrivateXvfb(directory: directory)
        var environment = xvfb.environment
        environment["XDG_STATE_HOME"] = path("state")
        environment["XDG_RUNTIME_DIR"] = directory.path
        let tag = UUID().uuidString.prefix(8)
        let pause = { (role: String) in killed == role ? ["--pause-at", event?.rawValue ?? ""] : [] }
        let target = try BackgroundChild(
            BackgroundChild.example,
            ["window", path("right"), "Right cards \(tag)", "--timeout", "20"] + pause("target"),
            output: directory.appendingPathComponent("target.out"), environment: environment)
        let source = try BackgroundChild(
            BackgroundChild.example,
            ["window", path("left"), "Left cards \(tag)", "--samples", "--drag", "Han", "--timeout", "20"]
                + pause("source"),
            output: directory.appendingPathComponent("source.out"), environment: environment)
        #expect(try await target.wait(for: "ready"), "\(target.text)")
        #expect(try await source.wait(for: "ready"), "\(source.text)")
        let pointer = PointerDriver(environment: environment)
        let left = try await pointer.window(titled: "Left cards \(tag)")
        let right = try await pointer.window(titled: "Right cards \(tag)")
        try await pointer.place(left, at: ScreenPoint(x: 0, y: 0))
        try await pointer.place(right, at: ScreenPoint(x: 400, y: 100))
        try await pointer.drag(from: ScreenPoint(x: 50, y: 30), to: ScreenPoint(x: 470, y: 160), steps: 6)
        if let killed, let event {
            let victim = killed == "source" ? source : target
            #expect(try await victim.wait(for: "paused at \(event.rawValue)"), "\(victim.text)")
            victim.kill()
        }
        let survivor = killed == "source" ? target : source
        _ = try await survivor.wait(for: killed == "source" ? "drop:" : "drag:")
        if killed == nil { _ = try await target.wait(for: "drop:") }
        source.kill()
        target.kill()
        func open(_ list: String) async throws -> String {
            let opened = try await ChildProcess.run(
                BackgroundChild.example, arguments: ["open", path(list)], input: [], environment: environment)
            return String(decoding: opened.standardOutput, as: UTF8.self).trimmingCharacters(
                in: .whitespacesAndNewlines)
        }
        return (try await open("left"), try await open("right"), source.text, target.text)
    }

    @Test("a card dragged from one window to the other moves once: the source removes it after the target's commit")
    func moveByARealDrag() async throws {
        let lists = try await drag()
        #expect(lists.source.contains("drag: move exactly-once=true [Luke Leia]"), "\(lists.source)")
        #expect(lists.target.contains("drop: move [Han]"), "\(lists.target)")
        #expect(lists.left == "[Luke Leia]")
        #expect(lists.right == "[Han]")
    }

    /// Who is killed at which step of the desktop drop, and which list must hold the card.
    static let killTable: [(String, RemoteSessionEvent, String)] = [
        ("source", .reserved, "left"),
        ("source", .commitReceived, "right"),
        ("source", .removed, "right"),
        ("target", .reservationReceived, "left"),
        ("target", .committedLocally, "left"),
        ("target", .decided, "right"),
        ("target", .commitSent, "right"),
    ]

    @Test(
        "killing either process at each step of the desktop drop leaves the card in exactly one list",
        arguments: killTable)
    func killed(process: String, event: RemoteSessionEvent, expected: String) async throws {
        let lists = try await drag(killing: process, at: event)
        let places = [lists.left.contains("Han") ? "left" : nil, lists.right.contains("Han") ? "right" : nil]
            .compactMap { $0 }
        #expect(places == [expected], "left \(lists.left), right \(lists.right)\n\(lists.source)\n\(lists.target)")
    }
}

/// Xvfb did not start on any of the display numbers tried.
private struct XvfbStartError: Error {}
