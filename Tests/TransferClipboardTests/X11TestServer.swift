import Foundation
import TransferKitTestSupport

/// Whether a program is on this machine, for `.enabled(if:)`.
func programExists(_ name: String) -> Bool {
    ["/usr/bin/", "/bin/", "/usr/local/bin/"].contains { FileManager.default.isExecutableFile(atPath: $0 + name) }
}

/// Xvfb and xclip, the tools of the X11 tests.
let x11ToolsPresent = programExists("Xvfb") && programExists("xclip") && programExists("xauth")

/// The result of a tool run.
struct ToolResult: Sendable {
    var status: Int32
    var output: Data
    var error: String
}

/// Runs `arguments` on a thread of its own (never on the concurrency pool, which the clipboard's tasks need),
/// with `environment`, feeding `input` to it.
func runTool(
    _ arguments: [String], environment: [String: String], input: Data? = nil, outputFile: String? = nil
) async throws -> ToolResult {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            do {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: arguments[0])
                process.arguments = Array(arguments.dropFirst())
                process.environment = environment
                let output = Pipe()
                let error = Pipe()
                if let outputFile {
                    _ = FileManager.default.createFile(atPath: outputFile, contents: nil)
                    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputFile))
                } else {
                    process.standardOutput = output
                }
                process.standardError = error
                let inputPipe = Pipe()
                process.standardInput = input == nil ? FileHandle.nullDevice : inputPipe
                try process.run()
                if let input {
                    inputPipe.fileHandleForWriting.write(input)
                    try inputPipe.fileHandleForWriting.close()
                }
                let data = outputFile == nil ? output.fileHandleForReading.readDataToEndOfFile() : Data()
                let errorText = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                continuation.resume(
                    returning: ToolResult(status: process.terminationStatus, output: data, error: errorText))
            } catch {
                continuation.resume(throwing: error)
            }
        }
        thread.start()
    }
}

/// A private Xvfb with a MIT-MAGIC-COOKIE-1 in its own authority file.
final class XvfbServer: Sendable {
    let display: Int
    let directory: URL
    let process: Process
    let cookie: [UInt8]

    /// `DISPLAY` and `XAUTHORITY` for clients of this server.
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = ":\(display)"
        environment["XAUTHORITY"] = directory.appendingPathComponent("Xauthority").path
        environment.removeValue(forKey: "WAYLAND_DISPLAY")
        return environment
    }

    private init(display: Int, directory: URL, process: Process, cookie: [UInt8]) {
        self.display = display
        self.directory = directory
        self.process = process
        self.cookie = cookie
    }

    /// Starts Xvfb on a free display number and waits until it accepts connections.
    static func start() async throws -> XvfbServer {
        let directory = try makeTemporaryDirectory(prefix: "transferclipboard-x11")
        let authority = directory.appendingPathComponent("Xauthority").path
        var generator = SystemRandomNumberGenerator()
        let cookie = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let hex = cookie.map { String(format: "%02x", $0) }.joined()
        for _ in 0..<20 {
            let display = Int.random(in: 200...900)
            guard !FileManager.default.fileExists(atPath: "/tmp/.X\(display)-lock"),
                !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(display)")
            else { continue }
            let added = try await runTool(
                ["/usr/bin/xauth", "-f", authority, "add", ":\(display)", ".", hex],
                environment: ProcessInfo.processInfo.environment)
            guard added.status == 0 else { throw XvfbError(message: "xauth failed: \(added.error)") }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
            process.arguments = [":\(display)", "-nolisten", "tcp", "-auth", authority, "-screen", "0", "64x64x24"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let server = XvfbServer(display: display, directory: directory, process: process, cookie: cookie)
            for _ in 0..<200 {
                if !process.isRunning { break }
                if FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(display)") {
                    try await Task.sleep(for: .milliseconds(50))
                    return server
                }
                try await Task.sleep(for: .milliseconds(50))
            }
            server.stop()
        }
        throw XvfbError(message: "Xvfb did not start")
    }

    /// Stops the server and removes its files.
    func stop() {
        forceStop(process)
        // Killed, Xvfb leaves its lock file and socket behind.
        try? FileManager.default.removeItem(atPath: "/tmp/.X\(display)-lock")
        try? FileManager.default.removeItem(atPath: "/tmp/.X11-unix/X\(display)")
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs xclip against this server.
    func xclip(_ arguments: [String], input: Data? = nil, outputFile: String? = nil) async throws -> ToolResult {
        try await runTool(
            ["/usr/bin/xclip"] + arguments, environment: environment, input: input, outputFile: outputFile)
    }

    /// Starts `xclip -quiet -i` in the background (it serves until another client takes the selection).
    func startXclipServing(_ arguments: [String], file: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xclip")
        process.arguments = ["-quiet", "-i"] + arguments + [file]
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }
}

/// Kills a child with SIGKILL: children spawned from the test runner's threads inherit a mask that blocks SIGTERM.
func forceStop(_ process: Process) {
    guard process.isRunning else { return }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
}

struct XvfbError: Error {
    var message: String
}

/// The process's peak resident set size in KiB (VmHWM), and resets it where the kernel allows it.
func peakResidentKiB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "0") ?? 0
    }
    return 0
}

/// Resets VmHWM to the current RSS (writing 5 to /proc/self/clear_refs); `false` when not permitted.
func resetPeakResident() -> Bool {
    guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
    defer { try? handle.close() }
    return (try? handle.write(contentsOf: Data("5".utf8))) != nil
}
