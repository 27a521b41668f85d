import CBOR
package import Foundation

/// The messages of the cross-process session protocol (Schemas/transfer-session.md), as the CBOR coder writes them:
/// each is a map with one key, the message's name, whose value is the map of its fields.
///
/// The destination speaks first (``DestinationMessage/hello(version:application:process:)``), the source answers with
/// its ``SourceMessage/offer(version:session:application:process:allowsMove:allowsMoveToOtherApplications:items:)``;
/// after that either side may send at any time.
package enum SessionWire {
    /// The protocol version both sides must speak.
    package static let version = 1
    /// The largest frame either side accepts, header excluded: 1 MiB, enough for an offer of thousands of items.
    package static let maximumFrameLength = 1 << 20
    /// The bytes of a representation travel in chunks of at most this size.
    package static let chunkSize = 64 << 10
    /// The frame header: the length of the CBOR message that follows, as a 4-byte big-endian integer.
    package static let headerLength = 4

    /// One offered item: its identity and the types a destination may load (never `ownProcess` ones).
    package struct Item: Codable, Sendable, Equatable {
        /// The item's identity in the source.
        package var id: String
        /// The uniform type identifiers, in fidelity order.
        package var types: [String]

        /// An item.
        package init(id: String, types: [String]) {
            self.id = id
            self.types = types
        }
    }

    /// Encodes `message` as one frame: header and CBOR.
    package static func frame(_ message: some Encodable) throws -> [UInt8] {
        let body = try CBOREncoder().encodedBytes(message)
        let length = UInt32(body.count)
        return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + body
    }

    /// The decoder of frame bodies: strict, with limits well inside one frame.
    package static func decode<Message: Decodable>(
        _ type: Message.Type, from body: ArraySlice<UInt8>
    ) throws(TransferSessionError) -> Message {
        var decoder = CBORDecoder()
        decoder.limits.maxNestingDepth = 8
        do {
            return try decoder.decode(type, from: Array(body))
        } catch {
            throw TransferSessionError(
                code: .protocolViolation, message: "The peer sent a malformed \(Message.self) frame: \(error).",
                cause: error)
        }
    }
}

/// What the source sends.
package enum SourceMessage: Codable, Sendable, Equatable {
    /// The answer to the destination's hello: the session and its items.
    case offer(
        version: Int, session: String, application: String, process: Int32, allowsMove: Bool,
        allowsMoveToOtherApplications: Bool, items: [SessionWire.Item])
    /// A load starts; `length` is the number of bytes to come, if known.
    case begin(request: UInt32, length: UInt64?)
    /// The next bytes of a load.
    case chunk(request: UInt32, bytes: Data)
    /// A load's bytes are in the file descriptor that came with this frame (`length` bytes from its start).
    case file(request: UInt32, length: UInt64)
    /// A load ended; every byte was sent.
    case end(request: UInt32)
    /// A load failed: `code` is a `TransferError` code (`cancelled`, `typeUnavailable`, `loaderFailed`, …).
    case failed(request: UInt32, code: String, message: String)
    /// The answer to a drop: the resolved operation and, for a copy or move, the items the destination may take.
    case reserved(operation: String, items: [String])
    /// The session is over, with the operation that took place (`cancel` for a drag given up at the source).
    case finished(operation: String, message: String?)
}

/// What the destination sends.
package enum DestinationMessage: Codable, Sendable, Equatable {
    /// The first frame: the protocol version and where the destination is (the move rule needs it).
    case hello(version: Int, application: String, process: Int32)
    /// Asks for the bytes of item `item`'s representation of `type`.
    case load(request: UInt32, item: Int, type: String)
    /// Stops a load; the source answers with `failed(request, cancelled)` unless it had already ended.
    case cancel(request: UInt32)
    /// Proposes the drop: `operation` is `move`, `copy`, `cancel` or `forbidden`.
    case drop(operation: String)
    /// The destination has committed the reserved items (and, with a decision record, recorded it).
    case commit
    /// The destination could not take the items; the source keeps them.
    case abort(message: String)
}

/// Reassembles frames from the bytes of a stream socket, holding at most one frame.
package struct SessionFrameReader {
    private var buffer: [UInt8] = []
    private let maximumFrameLength: Int

    /// A reader that refuses frames longer than `maximumFrameLength`.
    package init(maximumFrameLength: Int = SessionWire.maximumFrameLength) {
        self.maximumFrameLength = maximumFrameLength
    }

    /// Adds received bytes.
    package mutating func append(_ bytes: some Collection<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// The number of bytes held that are not a whole frame yet.
    package var pendingByteCount: Int { buffer.count }

    /// The next whole frame's body, or `nil` until more bytes arrive.
    /// - Throws: ``TransferSessionError`` with `protocolViolation` when the header announces more than the limit
    ///   (before any of it is buffered) or an empty frame.
    package mutating func nextFrame() throws(TransferSessionError) -> [UInt8]? {
        guard buffer.count >= SessionWire.headerLength else { return nil }
        let length = buffer[0..<SessionWire.headerLength].reduce(0) { $0 << 8 | Int($1) }
        guard length > 0, length <= maximumFrameLength else {
            throw TransferSessionError(
                code: .protocolViolation,
                message: "The peer announced a frame of \(length) bytes; frames are 1 to \(maximumFrameLength) bytes.")
        }
        guard buffer.count >= SessionWire.headerLength + length else { return nil }
        let body = Array(buffer[SessionWire.headerLength..<SessionWire.headerLength + length])
        buffer.removeFirst(SessionWire.headerLength + length)
        return body
    }
}
