import Foundation
import Testing
import TransferClipboard
import TransferKitPlatform
import TransferKitTestSupport

private let hasDBusDaemon = SystemTool.exists("dbus-daemon")

private let bus = DBusMessage.call(
    destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
    member: "GetId")

private func busCall(_ member: String, _ body: [DBusValue] = []) -> DBusMessage {
    var message = bus
    message.member = member
    message.body = body
    return message
}

@Suite(
    "The D-Bus client against a real dbus-daemon", .enabled(if: hasDBusDaemon, "needs dbus-daemon (Debian dbus)"),
    .timeLimit(.minutes(2)))
struct DBusConnectionTests {
    @Test("it authenticates, registers, calls the bus and gets its answers")
    func callsTheBus() async throws {
        let daemon = try await PrivateSessionBus()
        let connection = try await DBusConnection.connect(to: daemon.address, timeout: patience)
        defer { connection.close() }
        #expect(connection.uniqueName.hasPrefix(":"))
        #expect(connection.canPassDescriptors)
        let id = try await connection.call(bus, timeout: patience).returned()
        #expect(id.body.first?.text?.count == 32)
        let names = try await connection.call(busCall("ListNames"), timeout: patience).returned()
        guard case .array(_, let list)? = names.body.first else {
            Issue.record("ListNames returned \(names.body)")
            return
        }
        #expect(list.contains(.string(connection.uniqueName)))
    }

    @Test("an error reply names the D-Bus error")
    func errorReply() async throws {
        let daemon = try await PrivateSessionBus()
        let connection = try await DBusConnection.connect(to: daemon.address, timeout: patience)
        defer { connection.close() }
        let reply = try await connection.call(busCall("NoSuchMethod"), timeout: patience)
        #expect(reply.message.kind == .error)
        let error = #expect(throws: ClipboardError.self) { try reply.returned() }
        #expect(error?.code == .protocolUnavailable)
        #expect(error?.source == "org.freedesktop.DBus.Error.UnknownMethod")
        let missing = try await connection.call(
            .call(destination: "org.example.Absent", path: "/", interface: nil, member: "Ping"), timeout: patience)
        #expect(missing.message.errorName == "org.freedesktop.DBus.Error.ServiceUnknown")
    }

    @Test("a signal the connection matched arrives on its stream")
    func signals() async throws {
        let daemon = try await PrivateSessionBus()
        let connection = try await DBusConnection.connect(to: daemon.address, timeout: patience)
        defer { connection.close() }
        let stream = connection.signals()
        try await connection.addMatch(
            "type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged'", timeout: patience)
        let other = try await DBusConnection.connect(to: daemon.address, timeout: patience)
        defer { other.close() }
        var seen = false
        for await signal in stream where signal.member == "NameOwnerChanged" {
            if signal.body.first == .string(other.uniqueName) {
                seen = true
                break
            }
        }
        #expect(seen)
    }

    @Test("a peer that never answers: the call's deadline passes on the connection's clock")
    func silentPeerDeadline() async throws {
        let daemon = try await PrivateSessionBus()
        let clock = WireClock.manual()
        let connection = try await DBusConnection.connect(to: daemon.address, timeout: patience, clock: clock)
        defer { connection.close() }
        let silent = try await DBusConnection.connect(
            to: daemon.address, timeout: patience, clock: .continuous, answersCalls: false)
        defer { silent.close() }
        let call = DBusMessage.call(destination: silent.uniqueName, path: "/", interface: nil, member: "Ping")
        let result = await advancing(clock, by: .seconds(1)) {
            try await connection.call(call, timeout: .seconds(5))
        }
        guard case .failure(let error as ClipboardError) = result else {
            Issue.record("expected timedOut, got \(result)")
            return
        }
        #expect(error.code == .timedOut)
    }

    @Test("a bus that goes away mid-call fails the call with connectionFailed")
    func busDiesMidCall() async throws {
        let daemon = try await PrivateSessionBus()
        let connection = try await DBusConnection.connect(to: daemon.address, timeout: patience)
        let silent = try await DBusConnection.connect(
            to: daemon.address, timeout: patience, clock: .continuous, answersCalls: false)
        defer { silent.close() }
        let call = DBusMessage.call(destination: silent.uniqueName, path: "/", interface: nil, member: "Ping")
        let pending = Task { try await connection.call(call, timeout: .seconds(60)) }
        try await Task.sleep(for: .milliseconds(200))
        daemon.process.kill()
        let error = await #expect(throws: ClipboardError.self) { _ = try await pending.value }
        #expect(error?.code == .connectionFailed)
        let after = await #expect(throws: ClipboardError.self) {
            _ = try await connection.call(bus, timeout: patience)
        }
        #expect(after?.code == .connectionFailed)
    }

    @Test("an address with no socket that accepts is connectionFailed")
    func nothingListens() async throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = await #expect(throws: ClipboardError.self) {
            _ = try await DBusConnection.connect(
                to: "unix:path=" + folder.appendingPathComponent("none").path, timeout: patience)
        }
        #expect(error?.code == .connectionFailed)
        let tcp = await #expect(throws: ClipboardError.self) {
            _ = try await DBusConnection.connect(to: "tcp:host=localhost,port=1", timeout: patience)
        }
        #expect(tcp?.code == .connectionFailed)
    }
}
