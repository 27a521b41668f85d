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
