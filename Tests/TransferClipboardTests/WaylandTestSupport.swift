import Foundation
import Testing
import TransferClipboard
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport

/// A headless sway for the tests, started as `nobody` when the tests run as root (sway refuses root).
final class WaylandCompositor: @unchecked Sendable {
    static let swayPath = "/usr/bin/sway"
    static let wlCopyPath = "/usr/bin/wl-copy"
    static let wlPastePath = "/usr/bin/wl-paste"
    static var isAvailable: Bool {
        [swayPath, wlCopyPath, wlPastePath].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    let runtimeDirectory: URL
    let process = Process()
    var socketPath: String { runtimeDirectory.appendingPathComponent("wayland-1").path }
    var environment: [String: String] {
        ["WAYLAND_DISPLAY": socketPath, "XDG_RUNTIME_DIR": runtimeDirectory.path]
    }

    init() throws {
        runtimeDirectory = try makeTemporaryDirectory(prefix: "transferkit-wayland")
        var environment = ProcessInfo.processInfo.environment
        environment["WLR_BACKENDS"] = "headless"
        environment["WLR_LIBINPUT_NO_DEVICES"] = "1"
        environment["WLR_RENDERER"] = "pixman"
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory.path
        environment["HOME"] = "/tmp"
        environment["WAYLAND_DISPLAY"] = nil
        environment["DISPLAY"] = nil
        if ProcessInfo.processInfo.userName == "root" {
            try FileManager.default.setAttributes(
                [.ownerAccountID: 65534, .posixPermissions: 0o700], ofItemAtPath: runtimeDirectory.path)
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = [
                "--reuid=65534", "--regid=65534", "--clear-groups", Self.swayPath, "-c", "/dev/null",
            ]
        } else {
            process.executableURL = URL(fileURLWithPath: Self.swayPath)
            process.arguments = ["-c", "/dev/null"]
        }
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // A bounded wait for the socket (generous: the machine is slow under parallel builds).
        for _ in 0..<600 where !FileManager.default.fileExists(atPath: socketPath) {
            Thread.sleep(forTimeInterval: 0.05)
        }
        guard FileManager.default.fileExists(atPath: socketPath) else {
            stop()
            throw CocoaError(.fileNoSuchFile)
        }
    }

    func stop() {
        if process.isRunning {
            // SIGKILL: the test runner's children inherit a blocked SIGTERM, so terminate() would wait forever.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: runtimeDirectory)
    }

    deinit { stop() }

    /// Runs a wl-clipboard tool to its end (killed after a minute), with stdin from `input` and stdout into a file.
    @discardableResult
    func run(_ tool: String, _ arguments: [String], input: URL? = nil) async throws -> Data {
        let output = runtimeDirectory.appendingPathComponent("out-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        try await runToFile(tool, arguments, input: input, output: output)
        return try Data(contentsOf: output)
    }

    func runToFile(_ tool: String, _ arguments: [String], input: URL? = nil, output: URL) async throws {
        var environment = ProcessInfo.processInfo.environment
        environment.merge(self.environment) { $1 }
        let standardInput = try Syscall.openForReading(input?.path ?? "/dev/null")
        let standardOutput = try Syscall.openForWriting(output.path)
        let standardError = try Syscall.openForWriting("/dev/null")
        defer { for descriptor in [standardInput, standardOutput, standardError] { Syscall.close(descriptor) } }
        // ChildProcess rather than Foundation's Process: wl-copy's parent exits at once while a forked child serves,
        // and Process waits for every process that inherited its watch descriptor, the forked child included.
        let pid = try ChildProcess.spawn(
            tool, arguments: arguments, environment: environment, standardInput: standardInput,
            standardOutput: standardOutput, standardError: standardError)
        _ = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int32, any Error>) in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try ChildProcess.waitForExit(pid, executable: tool) })
            }
        }
    }

    /// Puts `file`'s bytes on the clipboard with `wl-copy` (which stays in the background serving them).
    func copy(_ file: URL, type: String, primary: Bool = false) async throws {
        try await run(Self.wlCopyPath, (primary ? ["-p"] : []) + ["-t", type], input: file)
    }
}

/// Counts calls per key, from any task.
final class WaylandCallCounter: Sendable {
    private let counts = SanitizedMutex([String: Int]())
    func record(_ key: String) { counts.withLock { $0[key, default: 0] += 1 } }
    var snapshot: [String: Int] { counts.withLock { $0 } }
}

/// Chunks of a deterministic pattern, `count` chunks of `size` bytes; `finished` is told when iteration stops.
struct WaylandPatternChunks: AsyncSequence, Sendable {
    typealias Element = Data
    let count: Int
    let size: Int
    let finished: (@Sendable () -> Void)?

    static func chunk(_ index: Int, size: Int) -> Data {
        Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index &* 7) })
    }

    func makeAsyncIterator() -> Iterator { Iterator(count: count, size: size, token: Token(finished)) }

    final class Token: Sendable {
        let finished: (@Sendable () -> Void)?
        init(_ finished: (@Sendable () -> Void)?) { self.finished = finished }
        deinit { finished?() }
    }

    struct Iterator: AsyncIteratorProtocol {
        let count: Int
        let size: Int
        let token: Token
        var index = 0
        let template: Data

        init(count: Int, size: Int, token: Token) {
            self.count = count
            self.size = size
            self.token = token
            template = WaylandPatternChunks.chunk(0, size: size)
        }

        mutating func next() async -> Data? {
            guard index < count else { return nil }
            index += 1
            await Task.yield()
            return template
        }
    }
}

/// The peak resident memory of this process so far (`VmHWM`), in bytes.
func waylandPeakResidentBytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
    else { return 0 }
    return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
}

/// Waits for `operation`, failing with `timedOut` after `seconds` (a guard against hangs, not a timing assertion).
func waylandWithin<T: Sendable>(
    _ seconds: Int, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            throw ClipboardError(code: .timedOut, message: "test guard")
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw CancellationError() }
        return first
    }
}
