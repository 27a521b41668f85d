import Foundation
import Testing
import TransferKitPlatform
import TransferKitTestSupport

@testable import TransferDisplay

/// What a scripted fake server does with one request.
enum FakeAnswer {
    /// Sends these bytes (a reply or an error), or nothing.
    case send([UInt8])
    /// Sends these bytes and closes the connection.
    case close([UInt8])
    /// Answers nothing more, ever (until the client goes).
    case silence
}

extension FakeXServer {
    /// Cuts the client's requests by their length fields and answers each as `answer` says; `sequence` counts
    /// from 1, as the server's do.
    static func serve(_ socket: UnixSocket, _ answer: (_ sequence: UInt16, _ request: [UInt8]) -> FakeAnswer) throws {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var sequence: UInt16 = 0
        while true {
            let got = read(socket, into: &buffer)
            guard got > 0 else { return }
            pending += buffer.prefix(got)
            var out: [UInt8] = []
            var start = 0
            while pending.count - start >= 4 {
                let length = (Int(pending[start + 2]) | Int(pending[start + 3]) << 8) * 4
                guard length >= 4, pending.count - start >= length else { break }
                let request = Array(pending[start..<(start + length)])
                start += length
                sequence &+= 1
                switch answer(sequence, request) {
                case .send(let bytes):
                    out += bytes
                case .close(let bytes):
                    try socket.sendAll(out + bytes)
                    socket.shutdown()
                    return
                case .silence:
                    try socket.sendAll(out)
                    while read(socket, into: &buffer) > 0 {}
                    return
                }
            }
            pending.removeFirst(start)
            if !out.isEmpty { try socket.sendAll(out) }
        }
    }

    /// A `GetAtomName` reply naming the atom `name`.
    static func atomNameReply(sequence: UInt16, name: String) -> [UInt8] {
        let bytes = Array(name.utf8)
        let padded = bytes + [UInt8](repeating: 0, count: X11RequestEncoder.padding(bytes.count))
        let units = UInt32(padded.count / 4)
        return [1, 0, UInt8(sequence & 0xFF), UInt8(sequence >> 8)]
            + [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: units >> UInt32($0)) }
            + [UInt8(bytes.count & 0xFF), UInt8(bytes.count >> 8)] + [UInt8](repeating: 0, count: 22) + padded
    }

    /// The X error `code` for request `major`.
    static func errorReply(sequence: UInt16, code: UInt8, major: UInt8) -> [UInt8] {
        [0, code, UInt8(sequence & 0xFF), UInt8(sequence >> 8), 0, 0, 0, 0, 0, 0, major]
            + [UInt8](repeating: 0, count: 21)
    }

    /// The atom a `GetAtomName` request asks about.
    static func atom(of request: [UInt8]) -> UInt32 {
        request.count < 8 ? 0 : (4..<8).reduce(0) { $0 | UInt32(request[$1]) << (8 * UInt32($1 - 4)) }
    }

    /// The name the fake servers give atom `atom`.
    static func name(of atom: UInt32) -> String { "ATOM_\(atom)" }
}

/// Many requests sent before their replies are read, against scripted servers that answer, fail, die or go silent
/// in the middle.
@Suite("X11 pipelined requests", .timeLimit(.minutes(5)))
struct X11PipelinedRequestTests {
    /// A fake server that answers every `GetAtomName` with the atom's name, and once `stop(sequence)` says so,
    /// does `then` instead.
    func server(
        stop: @escaping @Sendable (UInt16) -> Bool = { _ in false }, then: @escaping @Sendable (UInt16) -> FakeAnswer
    ) throws -> FakeXServer {
        try FakeXServer { socket in
            try socket.sendAll(FakeXServer.setupReply)
            try FakeXServer.serve(socket) { sequence, request in
                if stop(sequence) { return then(sequence) }
                return .send(
                    FakeXServer.atomNameReply(
                        sequence: sequence, name: FakeXServer.name(of: FakeXServer.atom(of: request))))
            }
        }
    }

    func atomNames(_ atoms: some Sequence<UInt32>) -> [[UInt8]] { atoms.map { X11RequestEncoder.getAtomName($0) } }

    @Test("Replies come back in order, through many windows and past the 16-bit sequence numbers")
    func inOrder() async throws {
        let server = try server(then: { _ in .silence })
        defer { server.stop() }
        let connection = try await server.connect()
        defer { connection.close() }
        let atoms = (1...70_000).map { UInt32($0) * 3 }
        let replies = try await connection.requests(atomNames(atoms), window: 100)
        let names = try replies.map { try X11Reply.atomName($0) }
        #expect(names == atoms.map { FakeXServer.name(of: $0) })
        // The connection goes on: a single request after the run gets its own reply.
        #expect(try X11Reply.atomName(try await connection.request(X11RequestEncoder.getAtomName(7))) == "ATOM_7")
    }

    @Test("An X error for one request fails the run with transferFailed, and the connection goes on")
    func errorInTheMiddle() async throws {
        let server = try server(stop: { $0 == 500 }) { .send(FakeXServer.errorReply(sequence: $0, code: 5, major: 17)) }
        defer { server.stop() }
        let connection = try await server.connect()
        defer { connection.close() }
        let error = await #expect(throws: ClipboardError.self) {
            _ = try await connection.requests(atomNames(1...2000), window: 64)
        }
        #expect(error?.code == .transferFailed)
        #expect(try X11Reply.atomName(try await connection.request(X11RequestEncoder.getAtomName(9))) == "ATOM_9")
    }

    @Test("A server that closes the connection in the middle of a run: connectionFailed, not a hang")
    func serverCloses() async throws {
        let server = try server(stop: { $0 == 300 }) { _ in .close([]) }
        defer { server.stop() }
        let connection = try await server.connect()
        defer { connection.close() }
        let error = await #expect(throws: ClipboardError.self) {
            _ = try await connection.requests(atomNames(1...5000))
        }
        #expect(error?.code == .connectionFailed)
        #expect(connection.isClosed)
    }

    @Test("A server that dies in the middle of a reply: protocolViolation, not a hang")
    func serverDiesMidReply() async throws {
        let server = try server(stop: { $0 == 300 }) {
            .close(Array(FakeXServer.atomNameReply(sequence: $0, name: "cut short").prefix(20)))
        }
        defer { server.stop() }
        let connection = try await server.connect()
        defer { connection.close() }
        let error = await #expect(throws: ClipboardError.self) {
            _ = try await connection.requests(atomNames(1...5000))
        }
        #expect(error?.code == .protocolViolation)
    }

    @Test("A server that goes silent in the middle of a run: timedOut after the connection's time limit")
    func serverGoesSilent() async throws {
        let silent = Latch<Void>()
        let server = try server(stop: { $0 == 300 }) { _ in
            silent.open()
            return .silence
        }
        defer { server.stop() }
        // The limit is on a manual clock, moved once the server is silent: the run cannot time out before.
        let clock = WireClock.manual()
        let connection = try await X11Connection.connect(
            socketPath: server.path, cookie: nil, timeout: .seconds(30), clock: clock)
        defer { connection.close() }
        let run = Task { try await connection.requests(self.atomNames(1...5000)) }
        #expect(try await silent.wait(until: .after(.seconds(60))) != nil, "the server never went silent")
        let result = await advancing(clock, by: .seconds(30)) { try await run.value }
        guard case .failure(let error) = result else {
            Issue.record("the run ended without an error")
            return
        }
        #expect((error as? ClipboardError)?.code == .timedOut)
        #expect("\(error)".contains("in 30.0 seconds"))
    }

    @Test("Cancelling the task that waits for a run ends it with cancelled")
    func cancellation() async throws {
        let silent = Latch<Void>()
        let server = try server(stop: { $0 == 10 }) { _ in
            silent.open()
            return .silence
        }
        defer { server.stop() }
        let connection = try await server.connect()
        defer { connection.close() }
        let run = Task { try await connection.requests(atomNames(1...100)) }
        // Cancelled once the server has the run and has stopped answering, so the cancellation is what ends it.
        #expect(try await silent.wait(until: .after(.seconds(60))) != nil, "the server never went silent")
        run.cancel()
        let error = await #expect(throws: ClipboardError.self) { _ = try await run.value }
        #expect(error?.code == .cancelled)
    }

    @Test("Atom names are asked once per distinct atom, and once per connection")
    func namesAreDeduplicatedAndCached() async throws {
        let asked = SanitizedMutex<[UInt32]>([])
        let server = try FakeXServer { socket in
            try socket.sendAll(FakeXServer.setupReply)
            try FakeXServer.serve(socket) { sequence, request in
                switch request[0] {
                case 98:  // QueryExtension: XFIXES is not there.
                    return .send(
                        [1, 0, UInt8(sequence & 0xFF), UInt8(sequence >> 8)] + [UInt8](repeating: 0, count: 28))
                case 17:
                    let atom = FakeXServer.atom(of: request)
                    asked.withLock { $0.append(atom) }
                    return .send(FakeXServer.atomNameReply(sequence: sequence, name: FakeXServer.name(of: atom)))
                default:
                    return .send([])
                }
            }
        }
        defer { server.stop() }
        let backend = try await X11Backend.connect(
            socketPath: server.path, cookie: nil, timeout: .seconds(30), clock: FakeXServer.unhurried)
        defer { backend.close() }
        let first = try await backend.names(of: [300, 301, 300, 302, 301, 300])
        #expect(first == [300: "ATOM_300", 301: "ATOM_301", 302: "ATOM_302"])
        let second = try await backend.names(of: [302, 303, 300])
        #expect(second == [300: "ATOM_300", 302: "ATOM_302", 303: "ATOM_303"])
        #expect(asked.withLock { $0 } == [300, 301, 302, 303])
    }
}
