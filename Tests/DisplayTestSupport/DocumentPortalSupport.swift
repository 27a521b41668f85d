package import Foundation
import Testing
package import TransferDisplay
import TransferKitPlatform
package import TransferKitTestSupport

package let portalExecutable = "/usr/libexec/xdg-document-portal"

package let hasPortal =
    SystemTool.exist("dbus-daemon", "fusermount3") && FileManager.default.isExecutableFile(atPath: portalExecutable)
    && FileManager.default.fileExists(atPath: "/dev/fuse")

package let hasSandbox = hasPortal && SystemTool.exists("bwrap") && SystemTool.exists("python3")

/// A private session bus with the real document portal on it, its FUSE file system under the bus's folder.
package final class PrivatePortal {
    package let bus: PrivateSessionBus
    package let portal: BackgroundChild
    package let connection: DBusConnection

    package init() async throws {
        bus = try await PrivateSessionBus()
        portal = try BackgroundChild(
            portalExecutable, [], output: bus.directory.appendingPathComponent("portal.out"),
            environment: bus.environment)
        connection = try await DBusConnection.connect(to: bus.address, timeout: patience)
        // Ready once the portal owns its name (it takes it after mounting its file system).
        let deadline = ContinuousClock.now + patience
        while ContinuousClock.now < deadline {
            let reply = try await connection.call(
                .call(
                    destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                    interface: "org.freedesktop.DBus", member: "NameHasOwner",
                    body: [.string("org.freedesktop.portal.Documents")]), timeout: patience
            ).returned()
            if reply.body.first == .boolean(true) { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "no portal: \(portal.text)"])
    }

    package var documents: DocumentPortal { DocumentPortal(connection: connection, timeout: patience) }

    deinit {
        connection.close()
        portal.kill()
        // A killed FUSE server leaves its mount behind; lazily unmounted, the folder can go.
        let mount = bus.directory.appendingPathComponent("doc").path
        _ = try? ChildProcessRunner.runSynchronously(SystemTool.path("fusermount3"), ["-u", "-z", mount])
    }
}

/// Runs a program to its end, ignoring its output (test teardown).
private enum ChildProcessRunner {
    package static func runSynchronously(_ executable: String, _ arguments: [String]) throws -> Int32 {
        let null = try Syscall.openForWriting("/dev/null")
        defer { Syscall.close(null) }
        let input = try Syscall.openForReading("/dev/null")
        defer { Syscall.close(input) }
        let pid = try ChildProcess.spawn(
            executable, arguments: arguments, standardInput: input, standardOutput: null, standardError: null)
        return try ChildProcess.waitForExit(pid, executable: executable)
    }
}

/// Runs a process in a sandbox the portal takes for a Flatpak app (``sandboxArguments(portal:folder:readOnly:writable:)``)
/// and expects it not to open `hostPath`, but to trade `key` for a path under the portal's mount and read `text`
/// there. `folder` holds the sandbox's `flatpak-info`.
package func expectSandboxedRead(
    key: String, hostPath: String, text: String, portal: PrivatePortal, folder: URL
) async throws {
    let script = """
        import os, sys
        from gi.repository import Gio, GLib
        try:
            open(sys.argv[2]).read()
            print("HOST-PATH-READABLE")
        except OSError:
            print("HOST-PATH-HIDDEN")
        bus = Gio.bus_get_sync(Gio.BusType.SESSION)
        reply = bus.call_sync("org.freedesktop.portal.Documents", "/org/freedesktop/portal/documents",
            "org.freedesktop.portal.FileTransfer", "RetrieveFiles",
            GLib.Variant("(sa{sv})", (sys.argv[1], {})), GLib.VariantType("(as)"), 0, 10000, None)
        for path in reply.unpack()[0]:
            print("PATH " + path)
            print("TEXT " + open(path).read())
        """
    let arguments =
        try sandboxArguments(portal: portal, folder: folder) + [
            "/usr/bin/python3", "-c", script, key, hostPath,
        ]
    let result = try await ChildProcess.run(
        SystemTool.path("bwrap"), arguments: arguments, input: [], environment: portal.bus.environment)
    let output = result.outputText
    #expect(result.status == 0, "\(result.errorText)")
    #expect(output.contains("HOST-PATH-HIDDEN"), "\(output)")
    #expect(output.contains("PATH \(portal.bus.directory.path)/doc/"), "\(output)")
    #expect(output.contains("TEXT " + text), "\(output)")
}

/// The `bwrap` arguments (before the command) of a sandbox the portal takes for a Flatpak app: an empty root with
/// `/usr`, `/etc`, `/dev` and `/proc`, the bus's runtime folder (writable), a `/.flatpak-info` (written in
/// `folder`), and `readOnly` and `writable` paths at their own places; the host's other files are not there.
package func sandboxArguments(
    portal: PrivatePortal, folder: URL, readOnly: [String] = [], writable: [String] = []
) throws -> [String] {
    let info = folder.appendingPathComponent("flatpak-info")
    try Data("[Application]\nname=org.example.Receiver\n".utf8).write(to: info)
    let runtime = portal.bus.directory.path
    return [
        "--tmpfs", "/", "--ro-bind", "/usr", "/usr", "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64",
        "/lib64", "--symlink", "usr/bin", "/bin", "--ro-bind", "/etc", "/etc", "--dev", "/dev", "--proc", "/proc",
        "--bind", runtime, runtime, "--ro-bind", info.path, "/.flatpak-info",
    ] + readOnly.flatMap { ["--ro-bind", $0, $0] } + writable.flatMap { ["--bind", $0, $0] }
}
