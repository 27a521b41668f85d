import Foundation
import TransferKitPlatform

/// One end of a session's socket: a reader thread that turns frames into messages, and sends that never wait longer
/// than the time limit.
///
/// The reader runs on a thread of its own, blocked in `poll`, so that no task of the concurrency pool ever waits on
/// the peer. It hands each message, with the file descriptors that came before it, to `receive`; when the peer
/// closes, breaks the protocol or the socket fails, it calls `closed` once with the reason and stops.
final class SessionConnection<Incoming: Decodable & Sendable>: Sendable {
    /// What the reader hands over: a message, and for a `file` message the descriptor that came with it.
    typealias Receive = @Sendable (Incoming, _ descriptors: inout [Int32]) -> Void
    /// Called once when the connection ends: `nil` for an orderly close by the peer.
    typealias Closed = @Sendable (TransferSessionError?) -> Void

    let socket: UnixSocket
    let timeout: Duration
    private let sendLock = SanitizedMutex(())
    private let state = SanitizedMutex(State())

    private struct State {
        var isClosed = false
    }

    init(socket: UnixSocket, timeout: Duration) {
        self.socket = socket
        self.timeout = timeout
    }

    /// Starts the reader thread.
    func start(receive: @escaping Receive, closed: @escaping Closed) {
        let thread = Thread { [self] in
            let reason = readLoop(receive)
            state.withLock { $0.isClosed = true }
            closed(reason)
        }
        thread.name = "TransferSessions reader"
        thread.start()
    }

    /// Sends `message` as one frame, with `descriptors` attached.
    /// - Throws: ``TransferSessionError`` with `disconnected` when the peer is gone, `timedOut` when it did not read
    ///   within the time limit.
    func send(_ message: some Encodable, descriptors: [Int32] = []) throws(TransferSessionError) {
        let bytes: [UInt8]
        do {
            bytes = try SessionWire.frame(message)
        } catch {
            throw TransferSessionError(
                code: .protocolViolation, message: "A message could not be encoded.", cause: error)
        }
        let outcome = sendLock.withLock { _ in
            Result { () throws(SystemError) in try socket.sendAll(bytes, descriptors: descriptors, timeout: timeout) }
        }
        do {
            try outcome.get()
        } catch {
            if error.errorNumber == ETIMEDOUT {
                throw TransferSessionError(
                    code: .timedOut, message: "The other process did not read the session's messages in \(timeout).",
                    cause: error)
            }
            throw TransferSessionError(
                code: .disconnected, message: "The other process of the session has gone (\(error.reason)).",
                cause: error)
        }
    }

    /// Ends the connection: the peer sees the end, and the reader stops.
    func close() {
        socket.shutdown()
    }

    /// Whether the reader has stopped.
    var isClosed: Bool {
        state.withLock { $0.isClosed }
    }

    /// Reads frames until the end; returns why it stopped.
    private func readLoop(_ receive: Receive) -> TransferSessionError? {
        var frames = SessionFrameReader()
        var descriptors: [Int32] = []
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        defer {
            for descriptor in descriptors { Syscall.close(descriptor) }
        }
        while true {
            let received = buffer.withUnsafeMutableBytes { bytes in
                Result { () throws(SystemError) in try socket.receive(into: bytes, descriptors: &descriptors) }
            }
            let count: Int
            do {
                count = try received.get()
            } catch {
                return TransferSessionError(
                    code: error.errorNumber == EMSGSIZE ? .protocolViolation : .disconnected,
                    message: "The session's socket failed: \(error.reason).", cause: error)
            }
            guard count > 0 else {
                return frames.pendingByteCount == 0
                    ? nil
                    : TransferSessionError(
                        code: .protocolViolation,
                        message: "The other process closed the session in the middle of a frame.")
            }
            guard descriptors.count <= UnixSocket.maximumDescriptorsPerMessage else {
                return TransferSessionError(
                    code: .protocolViolation, message: "The other process sent file descriptors no message asked for.")
            }
            frames.append(buffer[0..<count])
            do {
                while let body = try frames.nextFrame() {
                    receive(try SessionWire.decode(Incoming.self, from: body[...]), &descriptors)
                }
            } catch {
                return error
            }
        }
    }
}
