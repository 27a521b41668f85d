import Foundation
import Testing
import TransferClipboard
import TransferDisplayTestSupport
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

    @Test("a bus that refuses NEGOTIATE_UNIX_FD connects, and a call with descriptors is protocolUnavailable")
    func noDescriptorPassing() async throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bus").path
        let listener = try UnixSocket.listen(atPath: path)
        defer { listener.close() }
        let server = Thread { Self.serveWithoutDescriptors(listener) }
        server.start()
        let connection = try await DBusConnection.connect(to: "unix:path=" + path, timeout: patience)
        defer { connection.close() }
        #expect(!connection.canPassDescriptors)
        #expect(connection.uniqueName == ":1.7")
        let descriptor = try Syscall.openForReading("/dev/null")
        defer { Syscall.close(descriptor) }
        let error = await #expect(throws: ClipboardError.self) {
            _ = try await connection.call(bus, descriptors: [descriptor], timeout: patience)
        }
        #expect(error?.code == .protocolUnavailable)
    }

    /// A bus of the least kind, for one client: it accepts `EXTERNAL`, answers `NEGOTIATE_UNIX_FD` with `ERROR`,
    /// and answers the first message (`Hello`) with the name `:1.7`; then it keeps the connection until it closes.
    private static func serveWithoutDescriptors(_ listener: UnixSocket) {
        guard let client = try? listener.accept(until: .after(patience, on: .continuous)) else { return }
        defer { client.close() }
        var received: [UInt8] = []
        var descriptors: [Int32] = []
        /// Reads until `received` holds `count` bytes; `false` when the client has gone.
        func fill(_ count: Int) -> Bool {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while received.count < count {
                let read = buffer.withUnsafeMutableBytes { try? client.receive(into: $0, descriptors: &descriptors) }
                guard let read, read > 0 else { return false }
                received += buffer[..<read]
            }
            return true
        }
        /// The next line of the authentication, without its CR LF.
        func line() -> String? {
            while true {
                if let end = received.firstRange(of: [13, 10]) {
                    defer { received.removeSubrange(..<end.upperBound) }
                    return String(decoding: received[..<end.lowerBound], as: UTF8.self)
                }
                guard fill(received.count + 1) else { return nil }
            }
        }
        while let command = line() {
            let answer: String
            if command.hasPrefix("BEGIN") { break }
            if command.hasPrefix("NEGOTIATE_UNIX_FD") {
                answer = "ERROR\r\n"
            } else if command.contains("AUTH EXTERNAL") {
                answer = "OK " + String(repeating: "0123456789abcdef", count: 2) + "\r\n"
            } else {
                answer = "REJECTED EXTERNAL\r\n"
            }
            try? client.sendAll(Array(answer.utf8))
        }
        guard fill(DBusWire.fixedHeaderSize),
            let length = try? DBusWire.messageLength(header: received[...]), fill(length),
            let hello = try? DBusWire.decode(Array(received[..<length]), descriptorCount: 0),
            let reply = try? DBusWire.encode(
                DBusMessage(
                    kind: .methodReturn, serial: 1, replySerial: hello.serial, destination: ":1.7",
                    sender: "org.freedesktop.DBus", body: [.string(":1.7")]))
        else { return }
        try? client.sendAll(reply)
        var rest = [UInt8](repeating: 0, count: 4096)
        while let read = rest.withUnsafeMutableBytes({ try? client.receive(into: $0, descriptors: &descriptors) }),
            read > 0
        {}
        for descriptor in descriptors { Syscall.close(descriptor) }
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
