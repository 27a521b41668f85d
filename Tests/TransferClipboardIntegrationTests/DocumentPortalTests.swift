import Foundation
import Testing
import TransferClipboard
import TransferDisplayTestSupport
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting

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
