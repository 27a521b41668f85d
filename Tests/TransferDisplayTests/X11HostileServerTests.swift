import Foundation
import Testing
import TransferKitPlatform
import TransferKitTestSupport

@testable import TransferDisplay

/// A fake X server on a Unix socket in a temporary folder: it accepts one client, reads its setup request and
/// then does what the test scripts.
final class FakeXServer: Sendable {
    /// The clock of the clients in tests that are not about time limits: a manual clock that no test advances, so
    /// none of their limits fires however long a loaded machine keeps a task waiting; each suite's time limit ends
    /// a test that hangs instead. A test of a time limit makes a manual clock of its own and advances it.
    static let unhurried = WireClock.manual()

    /// A client connection to this server, its limits on ``unhurried``: for tests that are not about time limits.
    func connect() async throws -> X11Connection {
        try await X11Connection.connect(socketPath: path, cookie: nil, timeout: .seconds(30), clock: Self.unhurried)
    }

    let path: String
    let directory: URL
    private let listener: UnixSocket
    private let client = ClientBox()

    init(_ script: @escaping @Sendable (UnixSocket) throws -> Void) throws {
        directory = try makeTemporaryDirectory(prefix: "transferclipboard-fake-x")
        path = directory.appendingPathComponent("X0").path
        listener = try UnixSocket.listen(atPath: path)
        let listener = listener
        let client = client
        let thread = Thread {
            guard let connection = try? listener.accept() else { return }
            client.socket.withLock { $0 = connection }
            var buffer = [UInt8](repeating: 0, count: 12)
            _ = FakeXServer.read(connection, into: &buffer)
            try? script(connection)
        }
        thread.start()
    }

    /// Reads up to `buffer.count` bytes; the count read.
    static func read(_ socket: UnixSocket, into buffer: inout [UInt8]) -> Int {
        var descriptors: [Int32] = []
        let outcome = buffer.withUnsafeMutableBytes { bytes in
            Result { () throws(SystemError) in try socket.receive(into: bytes, descriptors: &descriptors) }
        }
        return (try? outcome.get()) ?? 0
    }

    func stop() {
        listener.shutdown()
        client.socket.withLock { $0?.shutdown() }
        try? FileManager.default.removeItem(at: directory)
    }

    /// A valid setup reply: one screen with root window 0x100, maximum request length 65535 units.
    static let setupReply: [UInt8] = {
        var body: [UInt8] = []
        func u32(_ value: UInt32) { body += [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: value >> UInt32($0)) } }
        func u16(_ value: UInt16) { body += [UInt8(value & 0xFF), UInt8(value >> 8)] }
        u32(1)  // release
        u32(0x0020_0000)  // resource id base
        u32(0x001F_FFFF)  // resource id mask
        u32(0)  // motion buffer
        u16(4)  // vendor length
        u16(0xFFFF)  // maximum request length
        body += [1, 0, 0, 0, 32, 32, 8, 255]  // screens, formats, orders, scanline, keycodes
        body += [0, 0, 0, 0]
        body += Array("fake".utf8)
        u32(0x100)  // root
        body += [UInt8](repeating: 0, count: 36)
        let units = UInt16(body.count / 4)
        return [1, 0, 11, 0, 0, 0, UInt8(units & 0xFF), UInt8(units >> 8)] + body
    }()
}

/// The fake server's one client connection, set by its thread.
final class ClientBox: Sendable {
    let socket = SanitizedMutex<UnixSocket?>(nil)
}

@Suite("X11 against a hostile server", .timeLimit(.minutes(5)))
struct X11HostileServerTests {
    func connect(
        _ server: FakeXServer, timeout: Duration = .seconds(30), clock: WireClock = FakeXServer.unhurried
    ) async throws -> X11Backend {
        try await X11Backend.connect(socketPath: server.path, cookie: nil, timeout: timeout, clock: clock)
    }

    /// Connects with a 30 s limit on a manual clock that moves 30 s at a time until the connect ends.
    func connectUntilTimedOut(_ server: FakeXServer) async -> ClipboardError? {
        let clock = WireClock.manual()
        let result = await advancing(clock, by: .seconds(30)) {
            try await connect(server, timeout: .seconds(30), clock: clock)
        }
        guard case .failure(let error) = result else {
            Issue.record("the connect succeeded")
            return nil
        }
        return error as? ClipboardError
    }

    @Test("A malformed setup reply is a protocol violation")
    func malformedSetup() async throws {
        let server = try FakeXServer { socket in try socket.sendAll([7, 0, 0, 0, 0, 0, 0, 0]) }
        defer { server.stop() }
        let error = await #expect(throws: ClipboardError.self) { _ = try await connect(server) }
        #expect(error?.code == .protocolViolation)
    }

    @Test("A server whose listen queue is full: the connect waits for room until its limit, then timedOut")
    func fullListenQueue() async throws {
        let directory = try makeTemporaryDirectory(prefix: "transferclipboard-full-x")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("X0").path
        // A backlog of 0 holds one pending connection; nobody accepts, so the next connect finds the queue full.
        let listener = try UnixSocket.listen(atPath: path, backlog: 0)
        defer { listener.close() }
        let pending = try UnixSocket.connect(toPath: path)
        defer { pending.close() }
        let started = ContinuousClock.now
        let error = await #expect(throws: ClipboardError.self) {
            _ = try await X11Connection.connect(socketPath: path, cookie: nil, timeout: .milliseconds(300))
        }
        #expect(error?.code == .timedOut)
        #expect(ContinuousClock.now - started >= .milliseconds(300))
    }

    @Test("No server at the socket (nor at its abstract name) is connectionFailed at once, naming the socket")
    func noServer() async throws {
        let directory = try makeTemporaryDirectory(prefix: "transferclipboard-no-x")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("X0").path
        let started = ContinuousClock.now
        let error = await #expect(throws: ClipboardError.self) {
            _ = try await X11Connection.connect(
                socketPath: path, abstractName: path + "-none", cookie: nil, timeout: .seconds(30))
        }
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(error?.code == .connectionFailed)
        // The socket file's error is the one reported, not the abstract name's refusal.
        #expect((error?.cause as? SystemError)?.errorNumber == ENOENT)
        #expect(error?.message.contains(path) == true)
    }

    @Test("A refused setup is connectionFailed with the server's reason")
    func refusedSetup() async throws {
        let reason = Array("No protocol specified".utf8) + [0, 0, 0]
        let server = try FakeXServer { socket in
            try socket.sendAll([0, 21, 11, 0, 0, 0, UInt8(reason.count / 4), 0] + reason)
        }
        defer { server.stop() }
        let error = await #expect(throws: ClipboardError.self) { _ = try await connect(server) }
        #expect(error?.code == .connectionFailed)
        #expect(error?.message.contains("No protocol specified") == true)
    }

    @Test("A setup reply cut short is a protocol violation")
    func truncatedSetup() async throws {
        let server = try FakeXServer { socket in
            try socket.sendAll(Array(FakeXServer.setupReply.prefix(20)))
            socket.shutdown()
        }
        defer { server.stop() }
        let error = await #expect(throws: ClipboardError.self) { _ = try await connect(server) }
        #expect(error?.code == .protocolViolation)
    }

    @Test("A server that never answers the setup times out")
    func silentSetup() async throws {
        let server = try FakeXServer { _ in }
        defer { server.stop() }
        let error = await connectUntilTimedOut(server)
        #expect(error?.code == .timedOut)
    }

    @Test("A reply that claims gigabytes is refused before anything is allocated")
    func hugeReply() async throws {
        let server = try FakeXServer { socket in
            try socket.sendAll(FakeXServer.setupReply)
            // The reply to the first request with a reply (QueryExtension) claims 16 GiB.
            try socket.sendAll([1, 0, 2, 0, 0xFF, 0xFF, 0xFF, 0xFF] + [UInt8](repeating: 0, count: 24))
        }
        defer { server.stop() }
        let error = await #expect(throws: ClipboardError.self) { _ = try await connect(server) }
        #expect(error?.code == .protocolViolation)
    }

    @Test("A connection that ends in the middle of a message is a protocol violation")
    func truncatedReply() async throws {
        let server = try FakeXServer { socket in
            try socket.sendAll(FakeXServer.setupReply)
            // Wait for both first requests (CreateWindow, 36 bytes; QueryExtension, 16), so no write of the client
            // meets a closed socket.
            var requests = [UInt8](repeating: 0, count: 52)
            var count = 0
            while count < 52 {
                var more = [UInt8](repeating: 0, count: 52 - count)
                let got = FakeXServer.read(socket, into: &more)
                guard got > 0 else { break }
                requests.replaceSubrange(count..<(count + got), with: more.prefix(got))
                count += got
            }
            try socket.sendAll([1, 0, 2, 0, 4, 0, 0, 0] + [UInt8](repeating: 0, count: 30))
            socket.shutdown()
        }
        defer { server.stop() }
        let error = await #expect(throws: ClipboardError.self) { _ = try await connect(server) }
        #expect(error?.code == .protocolViolation)
    }

    @Test("A server that accepts the setup and then never answers times out")
    func silentAfterSetup() async throws {
        let server = try FakeXServer { socket in try socket.sendAll(FakeXServer.setupReply) }
        defer { server.stop() }
        let error = await connectUntilTimedOut(server)
        #expect(error?.code == .timedOut)
    }

    @Test("A server that stops reading makes writes time out instead of hanging")
    func serverNeverReads() async throws {
        let server = try FakeXServer { socket in try socket.sendAll(FakeXServer.setupReply) }
        defer { server.stop() }
        // The 3 s limit runs on a manual clock, moved 3 s at a time while the sends wait for room.
        let clock = WireClock.manual()
        let connection = try await X11Connection.connect(
            socketPath: server.path, cookie: nil, timeout: .seconds(3), clock: clock)
        defer { connection.close() }
        let request = X11RequestEncoder.changeProperty(
            1, property: 2, type: 3, format: 8, data: [UInt8](repeating: 0, count: 1 << 17))
        let result = await advancing(clock, by: .seconds(3)) {
            // The sends block their thread while the queue is full: a thread of their own, not the pool's.
            try await DedicatedThread.run { () throws(ClipboardError) in
                for _ in 0..<4096 { _ = try connection.send(request) }
            }
        }
        guard case .failure(let error) = result else {
            Issue.record("4096 requests of 128 KiB were sent to a server that reads nothing")
            return
        }
        #expect((error as? ClipboardError)?.code == .timedOut)
        #expect(connection.isClosed)
    }
}
