import Foundation
import Testing
import TransferClipboard
import TransferDisplayTestSupport
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting
import UniformTypes

private let hasPortalAndX11 = hasPortal && SystemTool.exist("Xvfb", "xclip")

/// One test's desk: an Xvfb, a private bus (with the real portal, or none), and a folder for files.
private final class PortalDesk {
    let bus: PrivateSessionBus
    /// The real portal, when asked for.
    let portal: PrivatePortal?
    let server: XvfbServer
    let folder: URL

    init(realPortal: Bool) async throws {
        let portal = realPortal ? try await PrivatePortal() : nil
        if let portal { bus = portal.bus } else { bus = try await PrivateSessionBus() }
        self.portal = portal
        server = try await XvfbServer.start()
        folder = try makeTemporaryDirectory()
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// The environment of a client of both the display and the bus, with the bus's runtime folder.
    var environment: [String: String] {
        var environment = server.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        environment["XDG_RUNTIME_DIR"] = bus.directory.path
        return environment
    }

    /// A new file in the folder.
    func file(_ name: String, _ text: String) throws -> URL {
        let file = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file
    }

    /// The real portal's interface.
    var documents: DocumentPortal {
        get throws { try #require(portal).documents }
    }
}

/// A hostile peer that owns the document portal's name and answers `RetrieveFiles` with `paths`.
private func startFakePortal(_ bus: PrivateSessionBus, answering paths: [String]) async throws -> BackgroundChild {
    let fake = try BackgroundChild(
        "/usr/bin/python3", [repositoryFile("Tests/Interop/fake_document_portal.py").path] + paths,
        output: bus.directory.appendingPathComponent("fake-portal-\(UUID().uuidString).out"),
        environment: bus.environment)
    guard try await fake.wait(for: "ready", within: patience) else {
        throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "no fake portal: \(fake.text)"])
    }
    return fake
}

@Suite(
    "File lists on the X11 clipboard through the document portal",
    .enabled(if: hasPortalAndX11, "needs Xvfb, xclip, dbus-daemon, xdg-document-portal, fuse3 and /dev/fuse"),
    .serialized, .timeLimit(.minutes(5)))
struct DocumentPortalClipboardTests {
    @Test(
        "transferkit copy offers the portal's key after the list; a sandboxed process reads the file through it",
        .enabled(if: hasSandbox, "needs bwrap (Debian bubblewrap) and python3-gi"))
    func copiedFileReachesASandbox() async throws {
        let desk = try await PortalDesk(realPortal: true)
        let file = try desk.file("card.json", #"{"name":"Chun-Li"}"#)
        let copy = try await ChildProcess.run(
            TransferKitExecutable.defaultPath, arguments: ["copy", file.path], environment: desk.environment)
        #expect(copy.status == 0, "\(copy.errorText)")

        let targets = try await desk.server.xclip(["-o", "-selection", "clipboard", "-t", "TARGETS"])
        let names = String(decoding: targets.output, as: UTF8.self).split(separator: "\n").map(String.init)
        let list = try #require(names.firstIndex(of: "text/uri-list"), "\(names)")
        let key = try #require(names.firstIndex(of: "application/vnd.portal.filetransfer"), "\(names)")
        #expect(list < key && names.contains("application/vnd.portal.files"), "\(names)")

        let served = try await desk.server.xclip(
            ["-o", "-selection", "clipboard", "-t", "application/vnd.portal.filetransfer"])
        #expect(served.status == 0, "\(served.error)")
        #expect(served.output.last == 0, "GTK 4 writes the key with its NUL")
        let keyText = String(decoding: served.output.prefix { $0 != 0 }, as: UTF8.self)
        // The key is made once: the older name serves the same one.
        let legacy = try await desk.server.xclip(
            ["-o", "-selection", "clipboard", "-t", "application/vnd.portal.files"])
        #expect(legacy.output == served.output)
        #expect(try await desk.documents.retrieveFiles(key: keyText) == [file.path])
        try await expectSandboxedRead(
            key: keyText, hostPath: file.path, text: #"{"name":"Chun-Li"}"#, portal: try #require(desk.portal),
            folder: desk.folder)
        // Pasted again: the transfer does not stop at its first paste.
        #expect(try await desk.documents.retrieveFiles(key: keyText) == [file.path])
    }

    @Test("A file the copy named but that is gone when the key is asked for refuses the key, not the list")
    func deletedFileRefusesTheKey() async throws {
        let desk = try await PortalDesk(realPortal: true)
        let file = try desk.file("gone.txt", "soon gone")
        let copy = try await ChildProcess.run(
            TransferKitExecutable.defaultPath, arguments: ["copy", file.path], environment: desk.environment)
        #expect(copy.status == 0, "\(copy.errorText)")
        try FileManager.default.removeItem(at: file)
        let key = try await desk.server.xclip(
            ["-o", "-selection", "clipboard", "-t", "application/vnd.portal.filetransfer"])
        #expect(key.status != 0 && key.output.isEmpty, "the owner refuses the key of a file it cannot open")
        let list = try await desk.server.xclip(["-o", "-selection", "clipboard", "-t", "text/uri-list"])
        #expect(list.status == 0 && list.output == URL.uriList([file]))
    }

    @Test("A file list kept by the keeper is still retrievable through the portal after its owner has exited")
    func keptListHasAKeyOfItsOwn() async throws {
        let desk = try await PortalDesk(realPortal: true)
        let file = try desk.file("kept.txt", "kept")
        let keeper = try RunningKeeper([], environment: desk.environment, folder: desk.folder)
        let owner = try BackgroundProcess(
            [TransferKitExecutable.defaultPath, "copy", "--foreground", file.path], environment: desk.environment)
        try await keeper.waitForLines(startingWith: "kept clipboard")
        owner.stop()
        try await keeper.waitForLines(startingWith: "restored clipboard")
        let key = try await desk.server.xclip(
            ["-o", "-selection", "clipboard", "-t", "application/vnd.portal.filetransfer"])
        #expect(key.status == 0, "\(key.error) \(keeper.lines)")
        let keyText = String(decoding: key.output.prefix { $0 != 0 }, as: UTF8.self)
        #expect(try await desk.documents.retrieveFiles(key: keyText) == [file.path])
    }

    /// Owns the clipboard from this process with `key` offered as the portal's key (ahead of a key of its own)
    /// beside a list of `file`, and runs `transferkit paste --type text/uri-list` against it.
    private func paste(key: String, file: URL, desk: PortalDesk) async throws -> ChildProcess.Result {
        let clipboard = try await Clipboard(backend: .x11, environment: desk.environment, timeout: patience)
        defer { clipboard.close() }
        let keyItem = TransferProvider(
            data: Data(key.utf8) + [0], type: UniformType(exportedAs: "org.transferkit.portal-file-transfer"))
        let handle = try await clipboard.write([keyItem, TransferProvider(object: [file])])
        let paste = try await ChildProcess.run(
            TransferKitExecutable.defaultPath, arguments: ["paste", "--type", "text/uri-list"],
            environment: desk.environment)
        await handle.release()
        return paste
    }

    @Test("paste trades the owner's key first: a path under the portal's mount is what it pastes")
    func pasteUsesTheKey() async throws {
        let desk = try await PortalDesk(realPortal: false)
        let file = try desk.file("offered.txt", "offered")
        let document = desk.bus.directory.appendingPathComponent("doc/1a2b3c/offered.txt")
        let fake = try await startFakePortal(desk.bus, answering: [document.path])
        defer { fake.kill() }
        let paste = try await paste(key: "4242", file: file, desk: desk)
        #expect(paste.status == 0, "\(paste.errorText)")
        #expect(Data(paste.standardOutput) == URL.uriList([document]), "\(paste.outputText)")
        #expect(fake.text.contains("retrieve 4242"), "\(fake.text)")
    }

    @Test(
        "A portal answering with a path outside its mount that the owner did not list is not believed: the list is",
        arguments: [["/etc/passwd"], ["DOC/../../../etc/passwd"]])
    func portalOutsideItsMount(answer: [String]) async throws {
        let desk = try await PortalDesk(realPortal: false)
        let file = try desk.file("offered.txt", "offered")
        let mount = desk.bus.directory.appendingPathComponent("doc").path
        let fake = try await startFakePortal(
            desk.bus, answering: answer.map { $0.replacingOccurrences(of: "DOC", with: mount) })
        defer { fake.kill() }
        let paste = try await paste(key: "4242", file: file, desk: desk)
        #expect(paste.status == 0, "\(paste.errorText)")
        #expect(Data(paste.standardOutput) == URL.uriList([file]), "\(paste.outputText)")
        #expect(fake.text.contains("retrieve 4242"), "the key was tried first: \(fake.text)")
    }

    @Test("A portal that answers RetrieveFiles with a relative path is protocolViolation")
    func relativePath() async throws {
        let bus = try await PrivateSessionBus()
        let fake = try await startFakePortal(bus, answering: ["/tmp/a", "relative/b"])
        defer { fake.kill() }
        let connection = try await DBusConnection.connect(to: bus.address, timeout: patience)
        defer { connection.close() }
        let error = await #expect(throws: ClipboardError.self) {
            _ = try await DocumentPortal(connection: connection, timeout: patience).retrieveFiles(key: "7")
        }
        #expect(error?.code == .protocolViolation)
    }

    @Test("A key the real portal does not know falls back to the owner's list")
    func unknownKeyFallsBack() async throws {
        let desk = try await PortalDesk(realPortal: true)
        let file = try desk.file("offered.txt", "offered")
        let paste = try await paste(key: "999999", file: file, desk: desk)
        #expect(paste.status == 0, "\(paste.errorText)")
        #expect(Data(paste.standardOutput) == URL.uriList([file]), "\(paste.outputText)")
    }
}
