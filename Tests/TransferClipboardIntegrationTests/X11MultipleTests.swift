import Foundation
import Testing
import TransferDisplayTestSupport
import TransferKit
import TransferKitPlatform
import UniformTypes

@testable import TransferClipboard
@testable import TransferDisplay

/// The ICCCM `MULTIPLE` target, asked with raw requests (no stock tool asks for it).
@Suite(
    "X11 MULTIPLE conversions", .serialized, .timeLimit(.minutes(5)),
    .enabled(if: x11ToolsPresent, "needs Xvfb and xclip (Debian: xvfb, xclip)"))
final class X11MultipleTests {
    let server: XvfbServer

    init() async throws {
        server = try await XvfbServer.start()
    }

    deinit {
        server.stop()
    }

    @Test("Each pair is converted; a target the owner lacks comes back as None")
    func multiple() async throws {
        let writer = try await Clipboard(backend: .x11, environment: server.environment, timeout: patience)
        defer { writer.close() }
        let handle = try await writer.write([TransferProvider(data: Data("multi".utf8), type: .utf8PlainText)])
        let backend = try await X11Backend.connect(environment: server.environment, timeout: patience)
        defer { backend.close() }
        let names = ["MULTIPLE", "ATOM_PAIR", "UTF8_STRING", "image/png", "_TEST_ONE", "_TEST_TWO", "_TEST_PAIRS"]
        let atoms = try await backend.atoms(names)
        let (multiple, atomPair, utf8, png, one, two, pairs) = (
            atoms[0], atoms[1], atoms[2], atoms[3], atoms[4], atoms[5], atoms[6]
        )
        let connection = backend.connection
        let requestor = connection.allocateResource()
        try connection.send(
            X11RequestEncoder.createWindow(requestor, parent: connection.info.rootWindow, eventMask: 0))
        try connection.send(
            X11RequestEncoder.changeProperty(requestor, property: pairs, type: atomPair, values: [utf8, one, png, two]))
        let notifications = X11Wait.mailbox(of: X11Event.self)
        backend.state.withLock { $0.notifyWatchers[requestor] = notifications }
        try connection.send(
            X11RequestEncoder.convertSelection(
                requestor: requestor, selection: try await backend.atom("CLIPBOARD"), target: multiple,
                property: pairs, time: X11.currentTime))
        let event = try await X11Wait.next(from: notifications, within: patience, waitingFor: "SelectionNotify")
        guard case .selectionNotify(_, _, _, let target, let property) = event else {
            Issue.record("not a SelectionNotify: \(event)")
            return
        }
        #expect(target == multiple)
        #expect(property == pairs)
        let answered = try X11Reply.property(
            try await connection.request(
                X11RequestEncoder.getProperty(requestor, property: pairs, delete: true, length: 16)))
        #expect(answered.items32 == [utf8, one, png, X11.none])
        let text = try X11Reply.property(
            try await connection.request(
                X11RequestEncoder.getProperty(requestor, property: one, delete: true, length: 16)))
        #expect(text.value == Data("multi".utf8))
        await handle.release()
    }
}
