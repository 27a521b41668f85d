public import Foundation
import TransferKitPlatform

/// A background program whose output goes to a file; killed and reaped when dropped.
public final class BackgroundChild {
    /// The process id.
    public let pid: Int32
    /// The program run.
    public let executable: String
    /// The file its standard output and error go to.
    public let output: URL
    private var status: Int32?

    /// Starts `executable` with `arguments`, its output into `output`, in `environment` (the process's when nil).
    public init(_ executable: String, _ arguments: [String], output: URL, environment: [String: String]? = nil) throws {
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

    /// What it printed so far.
    public var text: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }

    /// Whether it still runs (reaped once it ended).
    public var isRunning: Bool {
        if status == nil { status = try? ChildProcess.exitStatusIfEnded(pid, executable: executable) }
        return status == nil
    }

    /// Kills the process (if it still runs) and reaps it.
    public func kill() {
        guard isRunning else { return }
        Foundation.kill(pid, SIGKILL)
        status = (try? ChildProcess.waitForExit(pid, executable: executable)) ?? -1
    }

    /// Polls the output until it contains `marker` (or the process ended), for at most `limit`.
    public func wait(for marker: String, within limit: Duration = .seconds(45)) async throws -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if text.contains(marker) || !isRunning { return text.contains(marker) }
            try await Task.sleep(for: .milliseconds(50))
        }
        return text.contains(marker)
    }
}

/// A private Xvfb for one test (no cookie: only local clients of this user reach its socket).
public final class PrivateXvfb {
    /// The display number (`:N`).
    public let display: Int
    /// The Xvfb process.
    public let process: BackgroundChild

    /// The environment of its clients: `DISPLAY`, and no Wayland.
    public var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = ":\(display)"
        environment.removeValue(forKey: "WAYLAND_DISPLAY")
        environment.removeValue(forKey: "XAUTHORITY")
        return environment
    }

    /// Starts an Xvfb on a free display number, its output in `directory`.
    ///
    /// - Throws: ``XvfbStartError`` saying which displays were tried and what the last server said.
    public init(directory: URL) async throws {
        var failures: [String] = []
        for _ in 0..<20 {
            let display = Int.random(in: 1000...1900)
            guard !FileManager.default.fileExists(atPath: "/tmp/.X\(display)-lock") else { continue }
            let output = directory.appendingPathComponent("Xvfb-\(display).out")
            let process = try BackgroundChild(
                SystemTool.path("Xvfb"),
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
            let said = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            failures.append(
                ":\(display) \(process.isRunning ? "was not ready within 30 s" : "exited"): "
                    + said.split(whereSeparator: \.isNewline).suffix(3).joined(separator: " / "))
            process.kill()
        }
        throw XvfbStartError(failures: failures)
    }

    deinit {
        process.kill()
        try? FileManager.default.removeItem(atPath: "/tmp/.X\(display)-lock")
        try? FileManager.default.removeItem(atPath: "/tmp/.X11-unix/X\(display)")
    }
}

extension PrivateXvfb {
    /// Whether Xvfb and xdotool are installed (Debian: xvfb, xdotool; `.ci/run` installs them).
    public static let isAvailable =
        SystemTool.exists("Xvfb") && PointerDriver.isAvailable
}

/// Xvfb did not start on any of the display numbers tried.
public struct XvfbStartError: Error, CustomStringConvertible {
    /// For each display number tried, why its server did not start (the end of its output).
    public var failures: [String]

    /// Which displays were tried and why each failed.
    public var description: String {
        "Xvfb did not start on any display tried"
            + (failures.isEmpty ? " (every number was taken)" : ": " + failures.joined(separator: "; "))
    }
}
