package import Foundation
import Testing
import TransferClipboard
import TransferDisplay
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport

/// The time limit the Wayland tests give the clipboard: long enough for a busy machine, short enough that a hang
/// fails the test within a minute.
package let waylandPatience: Duration = .seconds(60)

/// sway and wl-clipboard, the tools of the Wayland tests (and setpriv, to start sway as `nobody` under root).
package let waylandToolsPresent =
    SystemTool.exist("sway", "wl-copy", "wl-paste", "setpriv")

/// A private headless sway (`WLR_BACKENDS=headless`), started as `nobody` when the tests run as root (sway refuses
/// root), with its socket in a runtime folder of its own.
package final class WaylandCompositor: Sendable {
    package let directory: URL
    package let process: BackgroundProcess

    /// The compositor's socket.
    package var socketPath: String { directory.appendingPathComponent("wayland-1").path }

    /// The environment of clients of this compositor: this process's, with `WAYLAND_DISPLAY` and `XDG_RUNTIME_DIR`
    /// naming it and no `DISPLAY`, so nothing can reach an X server instead.
    package var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["WAYLAND_DISPLAY"] = socketPath
        environment["XDG_RUNTIME_DIR"] = directory.path
        environment.removeValue(forKey: "DISPLAY")
        return environment
    }

    private init(directory: URL, process: BackgroundProcess) {
        self.directory = directory
        self.process = process
    }

    deinit { stop() }

    /// Starts sway and waits until its socket accepts connections (not only until the file exists: sway binds before
    /// it listens).
    package static func start() async throws -> WaylandCompositor {
        let directory = try makeTemporaryDirectory(prefix: "transferclipboard-wayland")
        var environment = ProcessInfo.processInfo.environment
        environment["WLR_BACKENDS"] = "headless"
        environment["WLR_LIBINPUT_NO_DEVICES"] = "1"
        environment["WLR_RENDERER"] = "pixman"
        environment["XDG_RUNTIME_DIR"] = directory.path
        environment["HOME"] = directory.path
        environment.removeValue(forKey: "WAYLAND_DISPLAY")
        environment.removeValue(forKey: "DISPLAY")
        var arguments = [SystemTool.path("sway"), "-c", "/dev/null"]
        if getuid() == 0 {
            // The runtime folder must belong to the user sway runs as.
            try FileManager.default.setAttributes(
                [.ownerAccountID: 65534, .posixPermissions: 0o700], ofItemAtPath: directory.path)
            arguments = [SystemTool.path("setpriv"), "--reuid=65534", "--regid=65534", "--clear-groups"] + arguments
        }
        let process = try BackgroundProcess(arguments, environment: environment)
        let compositor = WaylandCompositor(directory: directory, process: process)
        for _ in 0..<600 where process.isRunning {
            if unixSocketAccepts(compositor.socketPath) { return compositor }
            try await Task.sleep(for: .milliseconds(50))
        }
        compositor.stop()
        throw XvfbError(message: "sway did not start (is its runtime folder usable, and the headless backend in?)")
    }

    /// Stops sway (its clients, the serving wl-copy among them, see the connection end and exit) and removes the
    /// folder.
    package func stop() {
        process.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs `wl-paste` with `arguments` to its end; its standard output goes to `outputFile`, or is returned.
    package func wlPaste(_ arguments: [String], outputFile: String? = nil) async throws -> ToolResult {
        try await runTool([SystemTool.path("wl-paste")] + arguments, environment: environment, outputFile: outputFile)
    }

    /// Puts `file`'s bytes on the clipboard (or the primary selection) with `wl-copy`, offered as `type`, and waits
    /// until it serves them: wl-copy's first process returns once its forked child owns the selection.
    package func wlCopy(_ file: URL, type: String, primary: Bool = false) async throws {
        let copy = try BackgroundProcess(
            [SystemTool.path("wl-copy")] + (primary ? ["--primary"] : []) + ["--type", type], environment: environment,
            inputFile: file.path)
        let status = try await copy.exitStatus()
        guard status == 0 else { throw XvfbError(message: "wl-copy exited with \(status)") }
    }
}

/// Waits for `operation`, failing with `timedOut` after `seconds` (a guard against hangs, not a timing assertion).
package func waylandWithin<T: Sendable>(
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
