import Foundation
import Testing
import TransferDisplayTestSupport
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport
import UniformTypes

@testable import TransferClipboard
@testable import TransferDisplay

/// Whether GTK 3's Python bindings are here, for the GTK peer (Debian: python3-gi, gir1.2-gtk-3.0).
let gtk3PeerPresent =
    FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/gi/__init__.py")
    && ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib"].contains {
        FileManager.default.fileExists(atPath: "\($0)/girepository-1.0/Gtk-3.0.typelib")
    }

/// What a test's clipboard manager was asked and read.
final class SaveLog: Sendable {
    private let state = SanitizedMutex<(requests: [ClipboardSaveRequest], bytes: [String: Data], cancelled: Int)>(
        ([], [:], 0))

    var requests: [ClipboardSaveRequest] { state.withLock { $0.requests } }
    var bytes: [String: Data] { state.withLock { $0.bytes } }
    var cancelled: Int { state.withLock { $0.cancelled } }

    func record(_ request: ClipboardSaveRequest) { state.withLock { $0.requests.append(request) } }
    func record(_ name: String, _ data: Data) { state.withLock { $0.bytes[name] = data } }
    func recordCancellation() { state.withLock { $0.cancelled += 1 } }
}

/// A save handler that reads every asked name (or every offered one) from `clipboard` into `log`.
func readingEverything(
    _ clipboard: Clipboard, into log: SaveLog
) -> @Sendable (ClipboardSaveRequest) async -> Bool {
    { request in
        log.record(request)
        do {
            var names = request.targets ?? []
            if request.targets == nil { names = try await clipboard.offeredTypes().map(\.name) }
            for name in names {
                var data = Data()
                for try await chunk in try await clipboard.stream(of: name) { data.append(chunk) }
                log.record(name, data)
            }
            return true
        } catch {
            return false
        }
    }
}

/// The freedesktop clipboard-manager protocol on a private Xvfb: a GTK 3 application's `gtk_clipboard_store` at
/// exit, TransferKit's own owner, and TransferKit as the manager.
@Suite(
    "X11 clipboard manager (SAVE_TARGETS)", .serialized, .timeLimit(.minutes(5)),
    .enabled(if: x11ToolsPresent, "needs Xvfb and xclip (Debian: xvfb, xclip)"))
final class X11ClipboardManagerTests {
    let server: XvfbServer

    init() async throws {
        server = try await XvfbServer.start()
    }

    deinit {
        server.stop()
    }

    func clipboard() async throws -> Clipboard {
        try await Clipboard(backend: .x11, environment: server.environment, timeout: patience)
    }

    /// Starts the GTK peer: it copies `text` and `html`, calls `gtk_clipboard_store` and exits.
    func startGTKPeer(text: String, html: String, targets: [String]? = nil, output: String) throws -> BackgroundProcess
    {
        var environment = server.environment
        environment["GDK_BACKEND"] = "x11"
        environment["NO_AT_BRIDGE"] = "1"
        let script = repositoryFile("Tests/Interop/gtk3_clipboard_peer.py").path
        return try BackgroundProcess(
            [SystemTool.path("python3"), script, text, html]
                + (targets.map { ["--targets", $0.joined(separator: ",")] } ?? []),
            environment: environment, outputFile: output)
    }

    func textProvider(_ text: String) -> TransferProvider {
        let provider = TransferProvider()
        provider.registerDataRepresentation(for: .utf8PlainText) { _ in Data(text.utf8) }
        provider.registerDataRepresentation(for: .html) { _ in Data("<p>\(text)</p>".utf8) }
        return provider
    }

    @Test(
        "A GTK 3 application's text and HTML reach the manager when it stores the clipboard at exit",
        .enabled(if: gtk3PeerPresent, "needs GTK 3's Python bindings (Debian: python3-gi, gir1.2-gtk-3.0)"),
        arguments: [nil, ["text/html", "UTF8_STRING"]] as [[String]?])
    func gtkStoresAtExit(targets: [String]?) async throws {
        // GTK waits at most 10 seconds for the manager's answer, a limit of its own that no option changes, and this
        // manager runs on the test process's pool, which a whole-suite run under the thread sanitizer starves for
        // longer: a store that GTK gave up on is tried again, twice at most, so only a manager that never gets the
        // data fails.
        var attempt: (said: String, log: SaveLog, status: Int32) = ("", SaveLog(), 0)
        for _ in 0..<3 {
            let manager = try await clipboard()
            defer { manager.close() }
            let log = SaveLog()
            let ownership = try await manager.becomeClipboardManager(save: readingEverything(manager, into: log))
            let output = server.directory.appendingPathComponent("gtk-peer-\(UUID().uuidString).out").path
            let peer = try startGTKPeer(text: "Grüße aus GTK", html: "<b>Grüße</b>", targets: targets, output: output)
            let status = try await peer.exitStatus()
            let said = String(decoding: FileManager.default.contents(atPath: output) ?? Data(), as: UTF8.self)
            await ownership.release()
            attempt = (said, log, status)
            if log.bytes["UTF8_STRING"] != nil && log.bytes["text/html"] != nil { break }
        }
        let (said, log, status) = attempt
        #expect(status == 0)
        #expect(said.contains("stored"), "\(said)")
        #expect(log.requests == [ClipboardSaveRequest(targets: targets)])
        let bytes = log.bytes
        #expect(bytes["UTF8_STRING"] == Data("Grüße aus GTK".utf8))
        #expect(bytes["text/html"] == Data("<b>Grüße</b>".utf8))
        if targets != nil { #expect(bytes.count == 2, "only what the application asked to save: \(bytes.keys)") }
    }

    /// Writes `provider` with one client and saves it to a manager on another that reads everything.
    func saveToReadingManager(_ provider: TransferProvider) async throws -> (ClipboardManagerSaveOutcome, SaveLog) {
        let manager = try await clipboard()
        defer { manager.close() }
        let log = SaveLog()
        // Closing the manager's connection (deferred above) ends its ownership of CLIPBOARD_MANAGER.
        _ = try await manager.becomeClipboardManager(save: readingEverything(manager, into: log))
        let owner = try await clipboard()
        defer { owner.close() }
        let handle = try await owner.write([provider])
        return (try await handle.saveToClipboardManager(timeout: patience), log)
    }

    @Test("A TransferKit write is saved by a TransferKit manager, which reads each offered name while it waits")
    func transferKitToTransferKit() async throws {
        let (outcome, log) = try await saveToReadingManager(textProvider("kept"))
        #expect(outcome == .saved)
        let asked = try #require(log.requests.first?.targets)
        #expect(asked.contains("text/html"))
        #expect(asked.contains("UTF8_STRING"))
        #expect(log.bytes["UTF8_STRING"] == Data("kept".utf8))
        #expect(log.bytes["text/html"] == Data("<p>kept</p>".utf8))
    }

    @Test(
        "A write whose lifetime hands over on release is saved by the manager when released; a default or transient one is not",
        arguments: [
            (ClipboardWriteOptions(lifetime: .handedOverOnRelease), true),
            (ClipboardWriteOptions(lifetime: .untilReplaced), false),
            (ClipboardWriteOptions(isTransient: true, lifetime: .handedOverOnRelease), false),
            (ClipboardWriteOptions(isConcealed: true, lifetime: .handedOverOnRelease), false),
        ])
    func handOverOnRelease(options: ClipboardWriteOptions, handedOver: Bool) async throws {
        let manager = try await clipboard()
        defer { manager.close() }
        let log = SaveLog()
        _ = try await manager.becomeClipboardManager(save: readingEverything(manager, into: log))
        let owner = try await clipboard()
        defer { owner.close() }
        let handle = try await owner.write([textProvider("at exit")], options: options)
        await handle.release()
        #expect(try await handle.ended() == .released)
        if handedOver {
            #expect(log.requests.count == 1)
            #expect(log.bytes["UTF8_STRING"] == Data("at exit".utf8))
            #expect(log.bytes["text/html"] == Data("<p>at exit</p>".utf8))
        } else {
            #expect(log.requests.isEmpty)
        }
        // Released, the selection is this process's no more.
        #expect(try await manager.offeredTypes().isEmpty)
    }

    @Test("A representation larger than one property goes to the manager by INCR before it answers")
    func largeRepresentation() async throws {
        var generator = SplitMix64(state: 24)
        var payload = Data(capacity: 3 << 20)
        for _ in 0..<((3 << 20) / 8) { withUnsafeBytes(of: generator.next()) { payload.append(contentsOf: $0) } }
        let blob = payload
        let provider = TransferProvider()
        provider.registerDataRepresentation(for: UniformType(exportedAs: "com.example.blob")) { _ in blob }
        let (outcome, log) = try await saveToReadingManager(provider)
        #expect(outcome == .saved)
        #expect(log.bytes["com.example.blob"] == payload)
    }

    @Test("Without a manager the outcome is noManager; a handle that lost the clipboard gets selectionLost")
    func noManagerAndLostSelection() async throws {
        let owner = try await clipboard()
        defer { owner.close() }
        let handle = try await owner.write([textProvider("alone")])
        #expect(try await handle.saveToClipboardManager(timeout: patience) == .noManager)
        await handle.release()
        #expect(try await handle.saveToClipboardManager(timeout: patience) == .selectionLost)
    }

    @Test("A manager that declines answers None: the outcome is refused, and the owner still owns the clipboard")
    func refusingManager() async throws {
        let manager = try await clipboard()
        defer { manager.close() }
        let ownership = try await manager.becomeClipboardManager { _ in false }
        let owner = try await clipboard()
        defer { owner.close() }
        let handle = try await owner.write([textProvider("declined")])
        #expect(try await handle.saveToClipboardManager(timeout: patience) == .refused)
        let text = try await manager.read().first?.loadObject(ofClass: String.self)
        #expect(text == "declined")
        await ownership.release()
    }

    @Test("A second manager fails with clipboardManagerRunning; once the first releases, it can take over")
    func secondManager() async throws {
        let first = try await clipboard()
        defer { first.close() }
        let ownership = try await first.becomeClipboardManager { _ in true }
        let second = try await clipboard()
        defer { second.close() }
        let error = await #expect(throws: ClipboardError.self) {
            _ = try await second.becomeClipboardManager { _ in true }
        }
        #expect(error?.code == .clipboardManagerRunning)
        await ownership.release()
        let taken = try await second.becomeClipboardManager { _ in true }
        await taken.release()
    }

    @Test("The primary selection has no manager: protocolUnavailable")
    func primaryUnavailable() async throws {
        let owner = try await clipboard()
        defer { owner.close() }
        let handle = try await owner.write([textProvider("primary")], to: .primary)
        let error = await #expect(throws: ClipboardError.self) {
            _ = try await handle.saveToClipboardManager(timeout: patience)
        }
        #expect(error?.code == .protocolUnavailable)
    }

    @Test("A manager that goes away before answering fails the save with transferFailed")
    func managerGoesAway() async throws {
        let manager = try await clipboard()
        let ownership = try await manager.becomeClipboardManager { _ in
            manager.close()
            return true
        }
        let owner = try await clipboard()
        defer { owner.close() }
        let handle = try await owner.write([textProvider("orphan")])
        let error = await #expect(throws: ClipboardError.self) {
            _ = try await handle.saveToClipboardManager(timeout: patience)
        }
        #expect(error?.code == .transferFailed)
        await ownership.release()
    }

    @Test("A manager that never answers makes the save fail with timedOut; the manager's save is then cancelled")
    func silentManager() async throws {
        let manager = try await clipboard()
        defer { manager.close() }
        let log = SaveLog()
        let ownership = try await manager.becomeClipboardManager { _ in
            while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(20)) }
            log.recordCancellation()
            return true
        }
        let owner = try await clipboard()
        defer { owner.close() }
        let handle = try await owner.write([textProvider("unanswered")])
        let error = await #expect(throws: ClipboardError.self) {
            _ = try await handle.saveToClipboardManager(timeout: .seconds(1))
        }
        #expect(error?.code == .timedOut)
        // The owner's request window is gone: the manager stops its save (within the test's limit, not a timing).
        for _ in 0..<3000 where log.cancelled == 0 { try await Task.sleep(for: .milliseconds(20)) }
        #expect(log.cancelled == 1)
        await ownership.release()
    }

    @Test("A request whose window is gone before the manager reads it runs no save; the next owner's does")
    func requestorGoneFirst() async throws {
        let manager = try await clipboard()
        defer { manager.close() }
        let log = SaveLog()
        let reading = readingEverything(manager, into: log)
        _ = try await manager.becomeClipboardManager { request in
            guard request.targets != nil else {
                log.record(request)  // only the vanished requestor asks for everything
                return false
            }
            return await reading(request)
        }
        // A raw client asks and destroys its window while it holds the server (GrabServer), so the server handles
        // both before the manager can read anything, however the client's writes are split.
        let raw = try await X11Backend.connect(environment: server.environment, timeout: patience)
        defer { raw.close() }
        let atoms = try await raw.atoms(["CLIPBOARD_MANAGER", "SAVE_TARGETS"])
        let requestor = raw.connection.allocateResource()
        try raw.connection.send(X11RequestEncoder.grabServer())
        try raw.connection.send(
            X11RequestEncoder.createWindow(requestor, parent: raw.connection.info.rootWindow, eventMask: 0))
        try raw.connection.send(
            X11RequestEncoder.convertSelection(
                requestor: requestor, selection: atoms[0], target: atoms[1], property: X11.none,
                time: X11.currentTime))
        try raw.connection.send(X11RequestEncoder.destroyWindow(requestor))
        try raw.connection.send(X11RequestEncoder.ungrabServer())
        _ = try await raw.connection.request(X11RequestEncoder.getInputFocus())

        let owner = try await clipboard()
        defer { owner.close() }
        let handle = try await owner.write([textProvider("next")])
        #expect(try await handle.saveToClipboardManager(timeout: patience) == .saved)
        #expect(log.requests.allSatisfy { $0.targets != nil }, "a save ran for a window that was gone: \(log.requests)")
        #expect(log.bytes["UTF8_STRING"] == Data("next".utf8))
    }

    @Test(
        "An owner killed during the save cancels that save, and the manager goes on answering the next owner",
        .enabled(if: gtk3PeerPresent, "needs GTK 3's Python bindings (Debian: python3-gi, gir1.2-gtk-3.0)"))
    func ownerKilledDuringSave() async throws {
        let manager = try await clipboard()
        defer { manager.close() }
        let victim = SanitizedMutex<BackgroundProcess?>(nil)
        let log = SaveLog()
        let reading = readingEverything(manager, into: log)
        let ownership = try await manager.becomeClipboardManager { request in
            if let peer = victim.withLock({ process in
                defer { process = nil }; return process
            }) {
                peer.stop()
                while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(20)) }
                log.recordCancellation()
                return true
            }
            return await reading(request)
        }
        let output = server.directory.appendingPathComponent("gtk-killed.out").path
        let peer = try startGTKPeer(text: "doomed", html: "<i>doomed</i>", output: output)
        victim.withLock { $0 = peer }
        for _ in 0..<3000 where log.cancelled == 0 { try await Task.sleep(for: .milliseconds(20)) }
        #expect(log.cancelled == 1)
        #expect(log.bytes.isEmpty)

        let next = try startGTKPeer(
            text: "survivor", html: "<i>survivor</i>", output: server.directory.appendingPathComponent("gtk.out").path)
        #expect(try await next.exitStatus() == 0)
        #expect(log.bytes["text/html"] == Data("<i>survivor</i>".utf8))
        await ownership.release()
    }
}

/// Wayland's data-control protocols have no clipboard manager: both ways say `protocolUnavailable`.
@Suite(
    "Clipboard manager on Wayland (none)", .serialized, .timeLimit(.minutes(5)),
    .enabled(if: waylandToolsPresent, "needs sway, wl-clipboard and setpriv (Debian: sway, wl-clipboard, util-linux)"))
final class WaylandClipboardManagerTests {
    let compositor: WaylandCompositor

    init() async throws {
        compositor = try await WaylandCompositor.start()
    }

    deinit {
        compositor.stop()
    }

    @Test("Saving to a manager and becoming one both fail with protocolUnavailable; the write keeps serving")
    func noManagerProtocol() async throws {
        let clipboard = try await Clipboard(backend: .wayland, environment: compositor.environment, timeout: patience)
        defer { clipboard.close() }
        let provider = TransferProvider()
        provider.registerDataRepresentation(for: .utf8PlainText) { _ in Data("still here".utf8) }
        let handle = try await clipboard.write([provider])
        let saveError = await #expect(throws: ClipboardError.self) {
            _ = try await handle.saveToClipboardManager(timeout: patience)
        }
        #expect(saveError?.code == .protocolUnavailable)
        let managerError = await #expect(throws: ClipboardError.self) {
            _ = try await clipboard.becomeClipboardManager { _ in true }
        }
        #expect(managerError?.code == .protocolUnavailable)
        let pasted = try await compositor.wlPaste(["--no-newline"])
        #expect(pasted.output == Data("still here".utf8))
        await handle.release()
    }
}
