import CBOR
package import TransferKit
package import TransferKitPlatform

#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// The messages of the cross-process session protocol (Schemas/transfer-session.md), as the CBOR coder writes them:
/// each is a map with one key, the message's name, whose value is the map of its fields.
///
/// The destination speaks first (``DestinationMessage/hello(version:application:process:)``), the source answers with
/// its ``SourceMessage/offer(version:session:application:process:allowsMove:allowsMoveToOtherApplications:items:)``;
/// after that either side may send at any time.
package enum SessionWire {
    /// The protocol version this library writes: 2 (typed codes on `failed` and `finished`).
    package static let version = 2
    /// The versions this library reads and answers: 1 (codes as free text, no code on `finished`) and 2.
    package static let supportedVersions: ClosedRange<Int> = 1...2
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
        /// The name the source suggests for the item (its provider's `suggestedName`), absent when it has none.
        package var name: String?

        /// An item.
        package init(id: String, types: [String], name: String? = nil) {
            self.id = id
            self.types = types
            self.name = name
        }
    }

    /// Encodes `message` as one frame: header and CBOR.
    package static func frame(_ message: some Encodable) throws -> [UInt8] {
        LengthPrefixedFrames.frame(try CBOREncoder().encodedBytes(message))
    }

    /// The frame of `SourceMessage.chunk(request:bytes:)`, byte for byte what ``frame(_:)`` makes of it (the
    /// deterministic CBOR `{"chunk": {"bytes": h'…', "request": n}}`), written in one pass: the general encoder
    /// copies the bytes several times (into the item, sorting the map's entries, the body, the frame), and a load's
    /// bytes are nearly all chunks.
    package static func chunkFrame(request: UInt32, bytes: Data) -> [UInt8] {
        var frames: [UInt8] = []
        appendChunkFrame(request: request, bytes: bytes, to: &frames)
        return frames
    }

    /// The chunk frames of `bytes`, one per ``chunkSize`` of them (the last may be shorter, and empty bytes make one
    /// empty chunk), one after another in one buffer: sent at once, they cost one write and one wake-up of the reader
    /// instead of one per frame.
    package static func chunkFrames(request: UInt32, bytes: Data) -> [UInt8] {
        var frames: [UInt8] = []
        // Each frame adds at most 36 bytes: the length, the keys and the two heads.
        frames.reserveCapacity(bytes.count + (bytes.count / chunkSize + 1) * 40)
        var offset = bytes.startIndex
        repeat {
            let end = bytes.index(offset, offsetBy: chunkSize, limitedBy: bytes.endIndex) ?? bytes.endIndex
            appendChunkFrame(request: request, bytes: bytes[offset..<end], to: &frames)
            offset = end
        } while offset < bytes.endIndex
        return frames
    }

    /// Appends ``chunkFrame(request:bytes:)``'s frame to `frames`.
    private static func appendChunkFrame(request: UInt32, bytes: Data, to frames: inout [UInt8]) {
        let start = frames.count
        frames += [0, 0, 0, 0]  // the body's length, known at the end
        frames += chunkPrefix
        appendHead(major: 2, UInt64(bytes.count), to: &frames)
        frames.append(contentsOf: bytes)
        frames += requestKey
        appendHead(major: 0, UInt64(request), to: &frames)
        let length = UInt32(truncatingIfNeeded: frames.count - start - 4)
        for index in 0..<4 { frames[start + index] = UInt8(truncatingIfNeeded: length >> (24 - 8 * index)) }
    }

    /// `{"chunk": {"bytes": ` in CBOR: a map of one entry, the key, a map of two entries, the first key.
    private static let chunkPrefix: [UInt8] = [0xA1, 0x65] + Array("chunk".utf8) + [0xA2, 0x65] + Array("bytes".utf8)
    /// The second key of a chunk's map, `"request"`.
    private static let requestKey: [UInt8] = [0x67] + Array("request".utf8)

    /// Appends the shortest head of a CBOR item of major type `major` with argument `value` (RFC 8949 §4.2.1).
    private static func appendHead(major: UInt8, _ value: UInt64, to body: inout [UInt8]) {
        let type = major << 5
        switch value {
        case 0..<24: body.append(type | UInt8(value))
        case 24..<0x100: body += [type | 24, UInt8(value)]
        case 0x100..<0x1_0000: body += [type | 25, UInt8(value >> 8), UInt8(value & 0xFF)]
        case 0x1_0000..<0x1_0000_0000:
            body += [type | 26] + (0..<4).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        default: body += [type | 27] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        }
    }

    /// The chunk in `body` when it is exactly ``chunkFrame(request:bytes:)``'s form (the one a TransferKit source
    /// sends), read in one pass; `nil` for any other body, which the general decoder then reads.
    package static func decodeChunk(_ body: ArraySlice<UInt8>) -> SourceMessage? {
        guard body.starts(with: chunkPrefix) else { return nil }
        var index = body.startIndex + chunkPrefix.count
        guard let count = readHead(major: 2, body, &index), count <= UInt64(body.endIndex - index) else { return nil }
        let bytesStart = index
        index += Int(count)
        guard body[index...].starts(with: requestKey) else { return nil }
        index += requestKey.count
        guard let request = readHead(major: 0, body, &index), request <= UInt64(UInt32.max), index == body.endIndex
        else { return nil }
        return .chunk(request: UInt32(request), bytes: Data(body[bytesStart..<(bytesStart + Int(count))]))
    }

    /// The argument of the CBOR head of major type `major` at `index`, in its shortest form only (as deterministic
    /// encoding writes it); moves `index` past it. `nil` for another type, a longer form or too few bytes.
    private static func readHead(major: UInt8, _ body: ArraySlice<UInt8>, _ index: inout Int) -> UInt64? {
        guard index < body.endIndex, body[index] >> 5 == major else { return nil }
        let additional = body[index] & 0x1F
        index += 1
        let width: Int
        switch additional {
        case 0..<24: return UInt64(additional)
        case 24: width = 1
        case 25: width = 2
        case 26: width = 4
        case 27: width = 8
        default: return nil
        }
        guard body.endIndex - index >= width else { return nil }
        let value = body[index..<(index + width)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        index += width
        // The shortest form: a value that fits a narrower head is no deterministic encoding.
        let smallest: UInt64 = width == 1 ? 24 : 1 << (UInt64(width) * 4)
        return value >= smallest ? value : nil
    }

    /// Frames `message` and sends it whole on `connection`, with `descriptors` attached.
    /// - Parameter peer: Who reads it (`source` or `destination`), for the error's message.
    /// - Throws: ``TransferSessionError``: `timedOut` when the peer did not read within the connection's limit,
    ///   `disconnected` when it is gone, `protocolViolation` when the message cannot be encoded.
    package static func send(
        _ message: some Encodable, descriptors: [Int32] = [], on connection: FramedConnection<LengthPrefixedFrames>,
        to peer: String
    ) throws(TransferSessionError) {
        let bytes: [UInt8]
        do {
            bytes = try frame(message)
        } catch {
            throw TransferSessionError(
                code: .protocolViolation, message: "A message could not be encoded.", cause: error)
        }
        try send(frame: bytes, descriptors: descriptors, on: connection, to: peer)
    }

    /// Sends the frame `bytes` whole on `connection`, with `descriptors` attached; see
    /// ``send(_:descriptors:on:to:)``.
    package static func send(
        frame bytes: [UInt8], descriptors: [Int32] = [], on connection: FramedConnection<LengthPrefixedFrames>,
        to peer: String
    ) throws(TransferSessionError) {
        do {
            try connection.send(bytes, descriptors: descriptors)
        } catch {
            let timedOut = error.errorNumber == ErrorNumber.timedOut
            throw TransferSessionError(
                code: timedOut ? .timedOut : .disconnected,
                message: timedOut
                    ? "The \(peer) did not read the session's messages within \(connection.sendTimeout)."
                    : "The \(peer) process of the session has gone (\(error.reason)).", cause: error)
        }
    }

    /// The frame decoder both sides read with.
    package static var frames: LengthPrefixedFrames { LengthPrefixedFrames(maximumLength: maximumFrameLength) }

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

/// A code on the session wire (Schemas/transfer-session.md §3.3): a closed list, each the name of a `TransferError`
/// code (a load's `failed`) or a ``TransferSessionError`` code (a session's `finished`), so that each side turns the
/// other's code into its own error by value, never by reading a message.
package enum SessionWireCode: String, Sendable, CaseIterable, Codable {
    /// `failed`: the item does not exist or does not offer the type to other processes (`TransferError`).
    case unavailableRepresentation
    /// `failed`: the load was cancelled (every domain's `cancelled`).
    case cancelled
    /// `failed`: the source's loader threw (`TransferError`).
    case loaderFailed
    /// `finished`: a move found none of its items in the source.
    case itemsUnavailable
    /// `finished`: the destination gave the drop up, or the record says the move was aborted.
    case commitFailed
    /// `finished`: the peer broke the protocol.
    case protocolViolation
    /// `finished`: the peer was silent past the time limit.
    case timedOut
    /// `finished`: the peer may not join the session (it runs as another user).
    case notPermitted
    /// `finished`: the session was already dropped or ended.
    case sessionEnded

    /// The code a version-1 peer wrote for ``unavailableRepresentation``.
    static let versionOneUnavailable = "typeUnavailable"

    /// The code of a `failed` message as the peer wrote it: unknown codes (from a later version) are
    /// ``loaderFailed``, as the spec says.
    package static func loadFailure(_ text: String) -> SessionWireCode {
        if text == versionOneUnavailable { return .unavailableRepresentation }
        switch SessionWireCode(rawValue: text) {
        case .unavailableRepresentation?: return .unavailableRepresentation
        case .cancelled?: return .cancelled
        default: return .loaderFailed
        }
    }

    /// The code of a `finished` message: `nil` when there is none (an ordinary end, or a version-1 peer); unknown
    /// codes are ``sessionEnded``.
    package static func sessionEnd(_ text: String?) -> SessionWireCode? {
        guard let text else { return nil }
        return SessionWireCode(rawValue: text) ?? .sessionEnded
    }

    /// The `TransferError` a load failure becomes in the destination.
    package func loadError(message: String) -> TransferError {
        switch self {
        case .cancelled: TransferError(code: .cancelled, message: message)
        case .unavailableRepresentation:
            TransferError(code: .unavailableRepresentation, message: "The source does not offer it: \(message)")
        default: TransferError(code: .loaderFailed, message: "The source could not load it: \(message)")
        }
    }

    /// The codes a `finished` may carry: each is the name of a ``TransferSessionError`` code.
    private static let sessionCodes: Set<SessionWireCode> = [
        .cancelled, .itemsUnavailable, .commitFailed, .protocolViolation, .timedOut, .notPermitted, .sessionEnded,
    ]

    /// The ``TransferSessionError`` code a session end becomes: the code of the same name.
    package var sessionErrorCode: TransferSessionError.Code {
        Self.sessionCodes.contains(self) ? TransferSessionError.Code(rawValue) : .sessionEnded
    }

    /// The wire code of a session error, for `finished`: the code of the same name, or ``sessionEnded`` for a code
    /// the wire does not carry.
    package init(_ code: TransferSessionError.Code) {
        self =
            SessionWireCode(rawValue: code.name).flatMap { Self.sessionCodes.contains($0) ? $0 : nil } ?? .sessionEnded
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
    /// The next bytes of a load, at most ``SessionWire/chunkSize`` of them.
    case chunk(request: UInt32, bytes: Data)
    /// A load's bytes are in the file descriptor that came with this frame (`length` bytes from its start).
    case file(request: UInt32, length: UInt64)
    /// A load ended; every byte was sent.
    case end(request: UInt32)
    /// A load failed: `code` is a ``SessionWireCode`` (see ``SessionWireCode/loadFailure(_:)``).
    case failed(request: UInt32, code: String, message: String)
    /// The answer to a drop: the resolved operation and the items the destination may take.
    case reserved(operation: DropOperation, items: [String])
    /// The session is over, with the operation that took place; `code` (version 2) says why no drop happened.
    case finished(operation: DropOperation, code: String?, message: String?)
}

/// What the destination sends.
package enum DestinationMessage: Codable, Sendable, Equatable {
    /// The first frame: the protocol version and where the destination is (the move rule needs it).
    case hello(version: Int, application: String, process: Int32)
    /// Asks for the bytes of item `item`'s representation of `type`.
    case load(request: UInt32, item: Int, type: String)
    /// Stops a load; the source answers with `failed(request, cancelled)` unless it had already ended.
    case cancel(request: UInt32)
    /// Proposes the drop.
    case drop(operation: DropOperation)
    /// The destination has committed the reserved items (and, with a decision record, recorded it).
    case commit
    /// The destination could not take the items; the source keeps them.
    case abort(message: String)
}

extension DropOperation: Codable {}
