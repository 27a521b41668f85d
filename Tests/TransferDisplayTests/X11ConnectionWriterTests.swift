import Foundation
import Testing
import TransferKitPlatform
import TransferKitTestSupport

@testable import TransferDisplay

/// The X11 connection's outbound queue against the fake server: the order of requests, what close writes, a
/// server that is gone and one that reads nothing.
@Suite("X11 connection's writer thread", .timeLimit(.minutes(2)))
struct X11ConnectionWriterTests {
    @Test("Requests reach the server in the order sent, and those queued just before close still arrive")
    func orderAndCloseFlush() async throws {
        let received = SanitizedMutex<[[UInt8]]>([])
        let done = Latch<Void>()
        let server = try FakeXServer { socket in
            defer { done.open() }
            try socket.sendAll(FakeXServer.setupReply)
            try FakeXServer.serve(socket) { _, request in
                received.withLock { $0.append(request) }
                return .send([])
            }
        }
        defer { server.stop() }
        let connection = try await server.connect()
        var sent: [[UInt8]] = []
        for index in 0..<2000 {
            let request = X11RequestEncoder.changeProperty(
                0x20_0001, property: UInt32(index), type: X11.Atom.string, format: 8,
                data: [UInt8](repeating: UInt8(index & 0xFF), count: index % 64 * 4))
            try connection.send(request)
            sent.append(request)
        }
        // What an owner sends last: its answer to a paste, and the ownership's end.
        let last = [
            X11RequestEncoder.sendSelectionNotify(
                requestor: 0x40_0001, selection: 1, target: 2, property: 3, time: 4),
            X11RequestEncoder.setSelectionOwner(X11.none, selection: 1, time: 5),
        ]
        for request in last {
            try connection.send(request)
            sent.append(request)
        }
        connection.close()
        await done.wait()
        let got = received.withLock { $0 }
        let firstDifference = Array(zip(got, sent)).firstIndex { $0 != $1 } ?? min(got.count, sent.count)
        #expect(got.count == sent.count)
        #expect(firstDifference == sent.count, "the server got request \(firstDifference) wrong or not at all")
        #expect(got.suffix(2) == last[...])
        #expect(connection.isClosed)
    }

    @Test("A server that is gone ends the connection with connectionFailed for the next request")
    func serverGone() async throws {
        let server = try FakeXServer { socket in
            try socket.sendAll(FakeXServer.setupReply)
            socket.shutdown()
        }
        defer { server.stop() }
        let connection = try await server.connect()
        defer { connection.close() }
        let error = await #expect(throws: ClipboardError.self) {
            for _ in 0..<1000 { try connection.send(X11RequestEncoder.getInputFocus()) }
            _ = try await connection.request(X11RequestEncoder.getInputFocus())
        }
        #expect(error?.code == .connectionFailed)
        #expect(connection.isClosed)
        #expect(throws: ClipboardError.self) { try connection.send(X11RequestEncoder.getInputFocus()) }
    }

    @Test("Close gives a server that reads nothing until the flush limit, then ends the connection")
    func stuckServer() async throws {
        let clock = WireClock.manual()
        let server = try FakeXServer { socket in try socket.sendAll(FakeXServer.setupReply) }
        defer { server.stop() }
        // The manual clock moves 500 ms per real millisecond while close waits; a loaded machine (the thread
        // sanitizer, other suites) can make close take long enough for it to pass a 30 s timeout, which then ends the
        // connection as timed out first. An hour keeps the flush limit (2 s) the only deadline the clock reaches.
        let connection = try await X11Connection.connect(
            socketPath: server.path, cookie: nil, timeout: .seconds(3600), clock: clock)
        // 3 MiB: under the queue's capacity, so every send returns, and far over what the socket holds.
        let request = X11RequestEncoder.changeProperty(
            1, property: 2, type: 3, format: 8, data: [UInt8](repeating: 0, count: 1 << 17))
        for _ in 0..<24 { try connection.send(request) }
        let closed = await advancing(clock, by: .milliseconds(500)) {
            await DedicatedThread.run { connection.close() }
        }
        #expect(throws: Never.self) { try closed.get() }
        #expect(clock.now >= connection.closeFlushLimit)
        #expect(connection.isClosed)
        let error = #expect(throws: ClipboardError.self) { try connection.send(X11RequestEncoder.getInputFocus()) }
        #expect(error?.code == .cancelled)
    }
}
