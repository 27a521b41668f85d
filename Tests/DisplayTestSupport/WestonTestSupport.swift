package import Foundation
import Testing
package import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting

/// weston, the compositor without data control of the tests (Debian's weston 10).
package let westonPresent = SystemTool.exists("weston")
/// weston with XWayland (Debian: xwayland) and Xvfb to run its X11 backend on.
package let westonWithXWaylandPresent = westonPresent && SystemTool.exists("Xwayland") && x11ToolsPresent

/// A private weston: a Wayland compositor with `wl_data_device_manager` but no data-control protocol, as GNOME's
/// Mutter is.
///
/// Headless (`headless-backend.so`), it has no `wl_seat` either. On its X11 backend, as a window of an Xvfb, it has a
/// seat with a keyboard and, with `--xwayland`, an X server that it starts when the first X client connects, as
/// GNOME's does: the XWayland situation.
package final class WestonCompositor: Sendable {
    package let directory: URL
    package let process: BackgroundProcess
    /// XWayland's display number, when started with it.
    package let xwaylandDisplay: Int?
    /// The Xvfb that the X11 backend draws on, if any.
    package let host: XvfbServer?

    /// The compositor's socket.
    package var socketPath: String { directory.appendingPathComponent("wayland-weston").path }

    /// The environment of its clients: `WAYLAND_DISPLAY` and `XDG_RUNTIME_DIR` naming it, `DISPLAY` its XWayland
    /// (none without one).
    package var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["WAYLAND_DISPLAY"] = socketPath
        environment["XDG_RUNTIME_DIR"] = directory.path
        environment.removeValue(forKey: "XAUTHORITY")
        if let xwaylandDisplay {
            environment["DISPLAY"] = ":\(xwaylandDisplay)"
        } else {
            environment.removeValue(forKey: "DISPLAY")
        }
        return environment
    }

    private init(directory: URL, process: BackgroundProcess, xwaylandDisplay: Int?, host: XvfbServer?) {
        self.directory = directory
        self.process = process
        self.xwaylandDisplay = xwaylandDisplay
        self.host = host
    }

    deinit { stop() }

    /// Starts weston headless, or, with `seat` or `xwayland`, on its X11 backend in a fresh Xvfb (whose keyboard
    /// gives weston a seat with a keyboard; its kiosk shell gives each new toplevel focus), with `xwayland` also
    /// with XWayland; waits until its socket (and XWayland's) accept connections.
    package static func start(seat: Bool = false, xwayland: Bool = false) async throws -> WestonCompositor {
        let directory = try makeTemporaryDirectory(prefix: "transferclipboard-weston")
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = directory.path
        environment["HOME"] = directory.path
        environment.removeValue(forKey: "WAYLAND_DISPLAY")
        environment.removeValue(forKey: "WAYLAND_SOCKET")
        var arguments = [SystemTool.path("weston"), "--socket=wayland-weston", "--idle-time=0", "--no-config"]
        var host: XvfbServer?
        if seat || xwayland {
            let server = try await XvfbServer.start()
            host = server
            environment["DISPLAY"] = ":\(server.display)"
            environment["XAUTHORITY"] = server.environment["XAUTHORITY"]
            arguments += [
                "--backend=x11-backend.so", "--use-pixman", "--width=200", "--height=150", "--shell=kiosk-shell.so",
            ]
            if xwayland { arguments.append("--xwayland") }
        } else {
            environment.removeValue(forKey: "DISPLAY")
            arguments += ["--backend=headless-backend.so"]
        }
        let log = directory.appendingPathComponent("weston.log").path
        let process = try BackgroundProcess(arguments, environment: environment, outputFile: log)
        let socket = directory.appendingPathComponent("wayland-weston").path
        for _ in 0..<600 where process.isRunning {
            let said = String(decoding: FileManager.default.contents(atPath: log) ?? Data(), as: UTF8.self)
            if unixSocketAccepts(socket) {
                guard xwayland else {
                    return WestonCompositor(directory: directory, process: process, xwaylandDisplay: nil, host: host)
                }
                // "xserver listening on display :N": weston listens for X clients and starts XWayland for the
                // first one.
                if let line = said.split(separator: "\n").first(where: { $0.contains("listening on display :") }),
                    let number = line.split(separator: ":").last.flatMap({ Int($0) })
                {
                    return WestonCompositor(
                        directory: directory, process: process, xwaylandDisplay: number, host: host)
                }
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        let said = String(decoding: FileManager.default.contents(atPath: log) ?? Data(), as: UTF8.self)
        WestonCompositor(directory: directory, process: process, xwaylandDisplay: nil, host: host).stop()
        throw XvfbError(message: "weston did not start: \(said.suffix(2000))")
    }

    /// Stops weston (and XWayland, its child, which exits with it), its Xvfb, and removes the files.
    package func stop() {
        process.stop()
        if let xwaylandDisplay {
            // Killed, weston leaves XWayland's lock file and sockets behind.
            try? FileManager.default.removeItem(atPath: "/tmp/.X\(xwaylandDisplay)-lock")
            try? FileManager.default.removeItem(atPath: "/tmp/.X11-unix/X\(xwaylandDisplay)")
        }
        host?.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs `transferkit` with `arguments` against this compositor (and `environment` changed by `change`).
    package func transferkit(
        _ arguments: [String], change: (inout [String: String]) -> Void = { _ in }
    ) async throws -> ChildProcess.Result {
        var environment = environment
        change(&environment)
        return try await ChildProcess.run(
            TransferKitExecutable.defaultPath, arguments: arguments, environment: environment)
    }
}
