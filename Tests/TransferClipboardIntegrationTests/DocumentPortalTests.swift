import Foundation
import Testing
import TransferClipboard
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting

let portalExecutable = "/usr/libexec/xdg-document-portal"
let hasPortal =
    SystemTool.exist("dbus-daemon", "fusermount3") && FileManager.default.isExecutableFile(atPath: portalExecutable)
    && FileManager.default.fileExists(atPath: "/dev/fuse")
let hasSandbox = hasPortal && SystemTool.exists("bwrap") && SystemTool.exists("python3")

/// A private session bus with the real document portal on it, its FUSE file system under the bus's folder.
final class PrivatePortal {
    let bus: PrivateSessionBus
    let portal: BackgroundChild
    let connection: DBusConnection

    init() async throws {
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

    var documents: DocumentPortal { DocumentPortal(connection: connection, timeout: patience) }

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
    static func runSynchronously(_ executable: String, _ arguments: [String]) throws -> Int32 {
        let null = try Syscall.openForWriting("/dev/null")
        defer { Syscall.close(null) }
        let input = try Syscall.openForReading("/dev/null")
        defer { Syscall.close(input) }
        let pid = try ChildProcess.spawn(
            executable, arguments: arguments, standardInput: input, standardOutput: null, standardError: null)
        return try ChildProcess.waitForExit(pid, executable: executable)
    }
}

@Suite(
    "The document portal's FileTransfer, with the real xdg-document-portal",
    .enabled(if: hasPortal, "needs dbus-daemon, xdg-document-portal (Debian xdg-desktop-portal), fuse3 and /dev/fuse"),
    .serialized, .timeLimit(.minutes(3)))
struct DocumentPortalTests {
    @Test("a registered file comes back by its key; an unsandboxed receiver gets the file's own path")
    func roundTrip() async throws {
        let portal = try await PrivatePortal()
        let file = portal.bus.directory.appendingPathComponent("card.json")
        try Data(#"{"name":"Ryu"}"#.utf8).write(to: file)
        let key = try await portal.documents.startTransfer(paths: [file.path])
        #expect(!key.isEmpty)
        #expect(try await portal.documents.retrieveFiles(key: key) == [file.path])
        // autostop is off: a second paste gets the files again.
        #expect(try await portal.documents.retrieveFiles(key: key) == [file.path])
    }

    @Test("a key the portal does not know, and one whose transfer was stopped, fail with transferFailed")
    func unknownKeys() async throws {
        let portal = try await PrivatePortal()
        let unknown = await #expect(throws: ClipboardError.self) {
            _ = try await portal.documents.retrieveFiles(key: "12345")
        }
        #expect(unknown?.code == .transferFailed)
        let file = portal.bus.directory.appendingPathComponent("note.txt")
        try Data("note".utf8).write(to: file)
        let key = try await portal.documents.startTransfer(paths: [file.path])
        try await portal.documents.stopTransfer(key: key)
        let stopped = await #expect(throws: ClipboardError.self) {
            _ = try await portal.documents.retrieveFiles(key: key)
        }
        #expect(stopped?.code == .transferFailed)
    }

    @Test("a file that cannot be opened is transferFailed naming it, before anything is registered")
    func missingFile() async throws {
        let portal = try await PrivatePortal()
        let missing = portal.bus.directory.appendingPathComponent("gone.txt").path
        let error = await #expect(throws: ClipboardError.self) {
            _ = try await portal.documents.startTransfer(paths: [missing])
        }
        #expect(error?.code == .transferFailed)
        #expect(error?.source == missing)
    }

    @Test("doctor reports the session bus and whether the document portal runs, or why there is no bus")
    func doctorReportsTheBus() async throws {
        let portal = try await PrivatePortal()
        let running = try await ChildProcess.run(
            TransferKitExecutable.defaultPath, arguments: ["doctor", "--json"], environment: portal.bus.environment)
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(running.standardOutput)) as? [String: Any])
        let dbus = try #require(report["dbus"] as? [String: Any], "\(running.outputText)")
        #expect(dbus["reachable"] as? Bool == true)
        #expect(dbus["documentPortal"] as? String == "running")
        #expect(dbus["address"] as? String == portal.bus.address)
        let text = try await ChildProcess.run(
            TransferKitExecutable.defaultPath, arguments: ["doctor"], environment: portal.bus.environment)
        #expect(text.outputText.contains("document portal (files for sandboxed apps): running"), "\(text.outputText)")
        let empty = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: empty) }
        var noBus = portal.bus.environment
        noBus["DBUS_SESSION_BUS_ADDRESS"] = nil
        noBus["XDG_RUNTIME_DIR"] = empty.path
        let missing = try await ChildProcess.run(
            TransferKitExecutable.defaultPath, arguments: ["doctor", "--json"], environment: noBus)
        let missingReport = try #require(
            try JSONSerialization.jsonObject(with: Data(missing.standardOutput)) as? [String: Any])
        let error = try #require((missingReport["dbus"] as? [String: Any])?["error"] as? [String: Any])
        #expect(error["code"] as? String == "protocolUnavailable")
    }

    @Test("no portal on the bus is protocolUnavailable")
    func noPortal() async throws {
        let bus = try await PrivateSessionBus()
        let connection = try await DBusConnection.connect(to: bus.address, timeout: patience)
        defer { connection.close() }
        var call = DBusMessage.call(
            destination: "org.freedesktop.portal.Documents", path: "/org/freedesktop/portal/documents",
            interface: "org.freedesktop.portal.FileTransfer", member: "RetrieveFiles",
            body: [.string("1"), .options([])])
        call.flags = [.noAutoStart]
        let reply = try await connection.call(call, timeout: patience)
        let error = #expect(throws: ClipboardError.self) { try reply.returned() }
        #expect(error?.code == .protocolUnavailable)
    }

    @Test(
        "a sandboxed receiver that cannot open the file's path reads it through the path the portal gives it",
        .enabled(if: hasSandbox, "needs bwrap (Debian bubblewrap) and python3-gi"))
    func sandboxedReceiver() async throws {
        let portal = try await PrivatePortal()
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("card.json")
        try Data(#"{"name":"Ken"}"#.utf8).write(to: file)
        let key = try await portal.documents.startTransfer(paths: [file.path])
        try await expectSandboxedRead(
            key: key, hostPath: file.path, text: #"{"name":"Ken"}"#, portal: portal, folder: folder)
    }
}

/// The `bwrap` arguments (before the command) of a sandbox the portal takes for a Flatpak app: an empty root with
/// `/usr`, `/etc`, `/dev` and `/proc`, the bus's runtime folder (writable), a `/.flatpak-info` (written in
/// `folder`), and `readOnly` and `writable` paths at their own places; the host's other files are not there.
func sandboxArguments(
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

/// The folder of the Swift runtime libraries this process loaded (`libswiftCore.so`), which a TransferKit
/// executable of the same build needs inside a sandbox; `nil` when it is linked statically.
func swiftRuntimeFolder() -> String? {
    // /proc files report no size, so they are read to their end rather than by their size.
    guard let bytes = try? FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/maps")).readToEnd(),
        case let maps = String(decoding: bytes, as: UTF8.self),
        let line = maps.split(separator: "\n").first(where: { $0.hasSuffix("/libswiftCore.so") }),
        let slash = line.firstIndex(of: "/")
    else { return nil }
    return URL(fileURLWithPath: String(line[slash...])).deletingLastPathComponent().path
}

/// Runs a process in a sandbox the portal takes for a Flatpak app (``sandboxArguments(portal:folder:readOnly:writable:)``)
/// and expects it not to open `hostPath`, but to trade `key` for a path under the portal's mount and read `text`
/// there. `folder` holds the sandbox's `flatpak-info`.
func expectSandboxedRead(
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
