public import Foundation
import TransferKitPlatform

/// A private D-Bus session bus for one test: Debian's `dbus-daemon --session` listening on a socket in a folder of
/// its own, killed when dropped. Its address goes in `DBUS_SESSION_BUS_ADDRESS`.
public final class PrivateSessionBus {
    /// The folder the socket (and the daemon's output) is in.
    public let directory: URL
    /// The bus's address, `unix:path=…/bus`.
    public let address: String
    /// The daemon.
    public let process: BackgroundChild

    /// The environment of the bus's clients: the process's, with `DBUS_SESSION_BUS_ADDRESS` and `XDG_RUNTIME_DIR`
    /// set to this bus and its folder.
    public var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        environment["XDG_RUNTIME_DIR"] = directory.path
        return environment
    }

    /// Starts a bus and waits until its socket exists. The folder doubles as the bus's `XDG_RUNTIME_DIR` (mode 0700),
    /// so services it starts, such as the document portal, keep their sockets and mounts there.
    /// - Throws: when `dbus-daemon` cannot start or its socket does not accept within 60 seconds.
    public init() async throws {
        directory = try makeTemporaryDirectory(prefix: "transferkit-dbus")
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
        let socket = directory.appendingPathComponent("bus").path
        address = "unix:path=" + socket
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = directory.path
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        process = try BackgroundChild(
            SystemTool.path("dbus-daemon"), ["--session", "--nofork", "--nopidfile", "--address=" + address],
            output: directory.appendingPathComponent("dbus-daemon.out"), environment: environment)
        let deadline = ContinuousClock.now + .seconds(60)
        // The socket's file appears at bind(2), before the daemon listens: wait until a connection is accepted.
        while !unixSocketAccepts(socket) {
            guard ContinuousClock.now < deadline, process.isRunning else {
                throw CocoaError(
                    .fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "dbus-daemon did not start: \(process.text)"]
                )
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    deinit {
        process.kill()
        try? FileManager.default.removeItem(at: directory)
    }
}
