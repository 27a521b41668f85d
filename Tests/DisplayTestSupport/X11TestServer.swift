package import Foundation
import Testing
package import TransferClipboard
import TransferKitPlatform
import TransferKitTestSupport

/// The time limit of clipboards in tests that are not about time limits: the longest wait of a test (issue 21).
///
/// Above the library's default: the whole test run shares two threads. The wire layer's deadlines fire on a
/// timer thread of their own, so a busy concurrency pool no longer makes a limit expire early or late.
package let patience: Duration = .seconds(60)

/// The processes whose command line contains `marker` (the serving copies of `transferkit copy`).
///
/// With `variable`, only those that were started with that environment entry (say `DISPLAY=:12`): a marker that
/// is no file path, such as `--concealed`, is on the command lines of other suites' copies too, which run at the
/// same time against servers of their own.
package func processes(containing marker: String, startedWith variable: String? = nil) -> [Int32] {
    Syscall.directoryEntries(atPath: "/proc").compactMap { entry in
        guard let pid = Int32(entry),
            let commandLine = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"),
            String(decoding: commandLine, as: UTF8.self).contains(marker)
        else { return nil }
        if let variable {
            // The environment a process started with, NUL-separated; a process gone meanwhile has none.
            guard let environment = FileManager.default.contents(atPath: "/proc/\(entry)/environ"),
                environment.split(separator: 0).contains(where: { $0.elementsEqual(variable.utf8) })
            else { return nil }
        }
        return pid
    }
}

/// The peak memory that a `transferkit-memory-probe` run reported in `text` (its standard error), in KiB.
package func reportedPeak(_ text: String) throws -> Int {
    let line = try #require(text.split(separator: "\n").last { $0.hasPrefix("transferkit: peak memory ") })
    return try #require(Int(line.split(separator: " ").dropLast().last ?? ""))
}

/// Xvfb and xclip, the tools of the X11 tests.
package let x11ToolsPresent = SystemTool.exist("Xvfb", "xclip")

/// The result of a tool run.
package struct ToolResult: Sendable {
    package var status: Int32
    package var output: Data
    package var error: String
}

/// Runs `arguments` with `environment`, feeding `input` to it, through the package's spawner (a Dispatch thread
/// waits, never the concurrency pool, which the clipboard's tasks need).
///
/// Foundation's `Process` is not used in these tests: its pipes are not close-on-exec when they are made, so a
/// long-lived child started meanwhile (Xvfb, a serving xclip) could inherit a write end and keep a reader of
/// another test waiting for an end-of-file until it ends.
/// - Parameter outputFile: Where the tool's standard output goes instead of into memory (for large outputs).
package func runTool(
    _ arguments: [String], environment: [String: String], input: Data? = nil, outputFile: String? = nil
) async throws -> ToolResult {
    guard let executable = arguments.first else { throw XvfbError(message: "no program to run") }
    guard let outputFile else {
        let result = try await ChildProcess.run(
            executable, arguments: Array(arguments.dropFirst()), input: Array(input ?? Data()),
            environment: environment)
        return ToolResult(status: result.status, output: Data(result.standardOutput), error: result.errorText)
    }
    let process = try BackgroundProcess(arguments, environment: environment, outputFile: outputFile)
    return ToolResult(status: try await process.exitStatus(), output: Data(), error: "")
}

/// A child process that runs in the background with its output in a file (or discarded); killed and reaped when
/// stopped or released.
package final class BackgroundProcess: Sendable {
    package let pid: Int32
    package let executable: String
    private let status = SanitizedMutex<Int32?>(nil)

    /// Starts `arguments` with standard input from `inputFile` (or `/dev/null`) and both outputs to `outputFile` (or
    /// `/dev/null`).
    package init(
        _ arguments: [String], environment: [String: String], inputFile: String? = nil, outputFile: String? = nil
    )
        throws
    {
        guard let executable = arguments.first else { throw XvfbError(message: "no program to run") }
        self.executable = executable
        let output = try Syscall.openForWriting(outputFile ?? "/dev/null")
        defer { Syscall.close(output) }
        let input = try Syscall.openForReading(inputFile ?? "/dev/null")
        defer { Syscall.close(input) }
        pid = try ChildProcess.spawn(
            executable, arguments: Array(arguments.dropFirst()), environment: environment, standardInput: input,
            standardOutput: output, standardError: output)
    }

    deinit { stop() }

    /// Whether the process still runs (reaps it once it has ended).
    package var isRunning: Bool {
        status.withLock { status in
            if status == nil { status = (try? ChildProcess.exitStatusIfEnded(pid, executable: executable)) ?? nil }
            return status == nil
        }
    }

    /// Waits for the process to end, polling (so no thread blocks in `waitpid`); kills it after two minutes.
    package func exitStatus() async throws -> Int32 {
        for _ in 0..<12_000 where isRunning { try await Task.sleep(for: .milliseconds(10)) }
        stop()
        return status.withLock { $0 } ?? -1
    }

    /// Kills the process with SIGKILL (children spawned from the test runner's threads inherit a mask that blocks
    /// SIGTERM) and reaps it.
    package func stop() {
        status.withLock { status in
            guard status == nil else { return }
            kill(pid, SIGKILL)
            status = (try? ChildProcess.waitForExit(pid, executable: executable)) ?? 128 + SIGKILL
        }
    }
}

/// The display numbers of this process's Xvfb servers, from the choice of a number until the server is stopped.
private let reservedDisplays = SanitizedMutex<Set<Int>>([])

/// A private Xvfb with a MIT-MAGIC-COOKIE-1 in its own authority file.
package final class XvfbServer: Sendable {
    package let display: Int
    package let directory: URL
    package let process: BackgroundProcess
    package let cookie: [UInt8]

    /// `DISPLAY` and `XAUTHORITY` for clients of this server.
    package var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = ":\(display)"
        environment["XAUTHORITY"] = directory.appendingPathComponent("Xauthority").path
        environment.removeValue(forKey: "WAYLAND_DISPLAY")
        return environment
    }

    private init(display: Int, directory: URL, process: BackgroundProcess, cookie: [UInt8]) {
        self.display = display
        self.directory = directory
        self.process = process
        self.cookie = cookie
    }

    /// The authority file's entry for `display` with `cookie`, as `xauth add :DISPLAY . COOKIE` makes it: the local
    /// family with this host's name (`gethostname`, as Xlib and xauth take it) and MIT-MAGIC-COOKIE-1.
    package static func authorityEntry(display: Int, cookie: [UInt8]) -> X11AuthorityEntry {
        var name = [CChar](repeating: 0, count: 256)
        let hostname =
            gethostname(&name, name.count - 1) == 0
            ? String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "localhost"
        return X11AuthorityEntry(
            family: 256, address: Array(hostname.utf8), number: String(display), name: "MIT-MAGIC-COOKIE-1",
            data: cookie)
    }

    /// Starts Xvfb on a free display number and waits until it accepts connections.
    ///
    /// The authority file is written here, whole, before the server starts, in the server's own folder: `xauth add`
    /// took a lock beside the file, which a loaded machine's parallel suites made fail (`error in locking
    /// authority file`).
    /// - Parameter screen: The screen's `WIDTHxHEIGHTxDEPTH` (drag-and-drop tests need room for their windows).
    /// - Throws: `XvfbError` saying which displays were tried and what the last server said.
    package static func start(screen: String = "64x64x24") async throws -> XvfbServer {
        let directory = try makeTemporaryDirectory(prefix: "transferclipboard-x11")
        let authority = directory.appendingPathComponent("Xauthority").path
        var generator = SystemRandomNumberGenerator()
        let cookie = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        var failures: [String] = []
        for _ in 0..<20 {
            let display = Int.random(in: 200...900)
            // Suites start servers in parallel: a number is this process's once reserved, so two of them never
            // race for one display (the loser's clients would meet the winner's server and the wrong cookie).
            guard !FileManager.default.fileExists(atPath: "/tmp/.X\(display)-lock"),
                !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(display)"),
                reservedDisplays.withLock({ $0.insert(display).inserted })
            else { continue }
            do {
                try Data(authorityEntry(display: display, cookie: cookie).encoded).write(
                    to: URL(fileURLWithPath: authority), options: .atomic)
            } catch {
                reservedDisplays.withLock { _ = $0.remove(display) }
                try? FileManager.default.removeItem(at: directory)
                throw XvfbError(message: "Xvfb :\(display): cannot write its authority file \(authority): \(error)")
            }
            // -noreset: by default the server resets when its last client leaves, and a client that connects
            // during the reset is dropped before the setup reply (a test's probe, right after an xclip had ended).
            // -displayfd 1: the server writes its display number to its output once it accepts connections, the
            // readiness signal waited for below (no settling sleep after its socket appears).
            let output = directory.appendingPathComponent("Xvfb-\(display).out").path
            let process = try BackgroundProcess(
                [
                    SystemTool.path("Xvfb"), ":\(display)", "-displayfd", "1", "-noreset", "-nolisten", "tcp",
                    "-auth", authority, "-screen", "0", screen,
                ], environment: ProcessInfo.processInfo.environment, outputFile: output)
            let server = XvfbServer(display: display, directory: directory, process: process, cookie: cookie)
            for _ in 0..<500 {
                if !process.isRunning { break }
                let said = String(decoding: FileManager.default.contents(atPath: output) ?? Data(), as: UTF8.self)
                if said.split(whereSeparator: \.isNewline).contains(where: { $0 == "\(display)" }) { return server }
                try await Task.sleep(for: .milliseconds(20))
            }
            let said = String(decoding: FileManager.default.contents(atPath: output) ?? Data(), as: UTF8.self)
            failures.append(
                ":\(display) \(process.isRunning ? "was not ready within 10 s" : "exited"): "
                    + (said.split(whereSeparator: \.isNewline).suffix(3).joined(separator: " / ")))
            server.stopKeepingFiles()
        }
        try? FileManager.default.removeItem(at: directory)
        throw XvfbError(
            message: "Xvfb did not start on any display tried"
                + (failures.isEmpty ? " (every number was taken)" : ": " + failures.joined(separator: "; ")))
    }

    /// Stops the server and removes its files.
    package func stop() {
        stopKeepingFiles()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Stops the server and removes what it left in `/tmp`, but not its folder (a start that tries another display
    /// number goes on using it).
    private func stopKeepingFiles() {
        process.stop()
        // Killed, Xvfb leaves its lock file and socket behind.
        try? FileManager.default.removeItem(atPath: "/tmp/.X\(display)-lock")
        try? FileManager.default.removeItem(atPath: "/tmp/.X11-unix/X\(display)")
        reservedDisplays.withLock { _ = $0.remove(display) }
    }

    /// Runs xclip against this server.
    /// Runs `xclip` with `arguments` to its end, within two minutes: xclip has no time limit of its own, and a
    /// request whose owner exits before answering would keep it (and the test run) waiting forever.
    package func xclip(_ arguments: [String], input: Data? = nil, outputFile: String? = nil) async throws -> ToolResult
    {
        try await runTool(
            ["/usr/bin/timeout", "--kill-after=5", "120", SystemTool.path("xclip")] + arguments,
            environment: environment,
            input: input, outputFile: outputFile)
    }

    /// Starts `xclip -quiet -i` in the background (it serves until another client takes the selection).
    package func startXclipServing(_ arguments: [String], file: String) throws -> BackgroundProcess {
        try BackgroundProcess(
            [SystemTool.path("xclip"), "-quiet", "-i"] + arguments + [file], environment: environment)
    }
}

package struct XvfbError: Error, CustomStringConvertible {
    package var message: String

    /// An error that says `message`.
    package init(message: String) { self.message = message }
    package var description: String { message }
}

/// Whether python-xlib is there for the hostile X11 peers (Debian: python3-xlib).
package let pythonXlibPresent = FileManager.default.fileExists(
    atPath: "/usr/lib/python3/dist-packages/Xlib/__init__.py")
