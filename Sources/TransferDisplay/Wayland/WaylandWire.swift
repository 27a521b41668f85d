package import TransferKitPlatform

/// One argument of a Wayland message, as the wire carries it.
package enum WaylandArgument: Sendable, Equatable {
    /// A signed 32-bit integer.
    case int(Int32)
    /// An unsigned 32-bit integer.
    case uint(UInt32)
    /// A signed 24.8 fixed-point number, kept as its raw bits.
    case fixed(Int32)
    /// A string; `nil` is the null string (length 0).
    case string(String?)
    /// An object id; 0 is the null object.
    case object(UInt32)
    /// The id of an object the message creates.
    case newID(UInt32)
    /// A byte array.
    case array([UInt8])
    /// A file descriptor, carried out of band (`SCM_RIGHTS`).
    case fd(Int32)
}

/// The type of one argument in a message's signature.
package enum WaylandArgumentKind: Sendable, Equatable {
    /// `int`.
    case int
    /// `uint`.
    case uint
    /// `fixed`.
    case fixed
    /// `string`; `nullable` allows the null string.
    case string(nullable: Bool)
    /// `object`; `nullable` allows id 0.
    case object(nullable: Bool)
    /// `new_id` of a known interface.
    case newID
    /// `array`.
    case array
    /// `fd`.
    case fd
}

/// A Wayland message: the object it is sent to or from, its opcode and its arguments.
package struct WaylandMessage: Sendable, Equatable {
    /// The object the request goes to, or the event comes from.
    package var objectID: UInt32
    /// The request's or event's number within the object's interface.
    package var opcode: UInt16
    /// The arguments in signature order.
    package var arguments: [WaylandArgument]

    /// Creates a message.
    package init(objectID: UInt32, opcode: UInt16, arguments: [WaylandArgument] = []) {
        self.objectID = objectID
        self.opcode = opcode
        self.arguments = arguments
    }
}

/// The Wayland wire format (header, argument encoding, limits), in native byte order as the protocol specifies.
package enum WaylandWire {
    /// The size of a message header: object id, then size and opcode in one word.
    package static let headerSize = 8
    /// The largest message libwayland sends or accepts (its `WL_MAX_MESSAGE_SIZE`).
    package static let maximumMessageSize = 4096
    /// The most file descriptors one message of this client's interfaces carries.
    package static let maximumDescriptorsPerMessage = 1

    /// The bytes of `message` and the descriptors to pass beside them.
    ///
    /// - Throws: ``ClipboardError`` with `protocolViolation` when the message would exceed
    ///   ``maximumMessageSize`` (a very long MIME type, say), which no compositor would accept.
    package static func encode(_ message: WaylandMessage) throws(ClipboardError) -> (bytes: [UInt8], fds: [Int32]) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64)
        append(message.objectID, to: &bytes)
        append(0, to: &bytes)  // size and opcode, known at the end
        var fds: [Int32] = []
        for argument in message.arguments {
            switch argument {
            case .int(let value), .fixed(let value): append(UInt32(bitPattern: value), to: &bytes)
            case .uint(let value), .object(let value), .newID(let value): append(value, to: &bytes)
            case .string(let value):
                guard let value else {
                    append(0, to: &bytes)
                    continue
                }
                appendBlob(Array(value.utf8) + [0], to: &bytes)
            case .array(let value): appendBlob(value, to: &bytes)
            case .fd(let value): fds.append(value)
            }
            guard bytes.count <= maximumMessageSize else { break }
        }
        guard bytes.count <= maximumMessageSize else {
            throw ClipboardError(
                code: .protocolViolation,
                message: "A Wayland request would be \(bytes.count) bytes long, over the protocol's limit of "
                    + "\(maximumMessageSize); shorten its strings (MIME types).")
        }
        let word = UInt32(bytes.count) << 16 | UInt32(message.opcode)
        withUnsafeBytes(of: word) { raw in
            for index in 0..<4 { bytes[4 + index] = raw[index] }
        }
        return (bytes, fds)
    }

    private static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value) { bytes.append(contentsOf: $0) }
    }

    private static func appendBlob(_ blob: [UInt8], to bytes: inout [UInt8]) {
        // A blob too long for the limit is caught by the caller's size check; the cast cannot trap before it.
        append(UInt32(truncatingIfNeeded: blob.count), to: &bytes)
        bytes.append(contentsOf: blob)
        let padding = (4 - blob.count % 4) % 4
        bytes.append(contentsOf: repeatElement(0, count: padding))
    }

    /// Reads a native-endian word at `offset` of `bytes` (the caller checked the bounds).
    static func word(_ bytes: ArraySlice<UInt8>, at offset: Int) -> UInt32 {
        var value: UInt32 = 0
        withUnsafeMutableBytes(of: &value) { raw in
            for index in 0..<4 { raw[index] = bytes[offset + index] }
        }
        return value
    }

    /// Decodes the arguments of a message body against `signature`, taking descriptors from `fds` in order.
    ///
    /// - Parameters:
    ///   - body: The bytes after the header.
    ///   - signature: The argument types the interface declares for this message.
    ///   - fds: The descriptors received and not yet claimed; those this message carries are removed from the
    ///     front, only when the whole message decodes (so that a broken one leaves them for the caller to close).
    /// - Throws: ``ClipboardError`` with `protocolViolation` for a body that is truncated, has bytes left over,
    ///   a string without its terminating NUL or not UTF-8, a null where none is allowed, or a missing descriptor.
    package static func decodeArguments(
        _ body: ArraySlice<UInt8>, signature: [WaylandArgumentKind], fds: inout [Int32]
    ) throws(ClipboardError) -> [WaylandArgument] {
        var arguments: [WaylandArgument] = []
        arguments.reserveCapacity(signature.count)
        var unclaimed = fds[...]
        var offset = body.startIndex
        func nextWord() throws(ClipboardError) -> UInt32 {
            guard body.endIndex - offset >= 4 else { throw violation("ends inside an argument") }
            defer { offset += 4 }
            return word(body, at: offset)
        }
        func nextBlob() throws(ClipboardError) -> ArraySlice<UInt8>? {
            let length = Int(try nextWord())
            if length == 0 { return nil }
            let padded = (length + 3) & ~3
            guard body.endIndex - offset >= padded else {
                throw violation("declares a \(length)-byte string or array with \(body.endIndex - offset) bytes left")
            }
            defer { offset += padded }
            return body[offset..<(offset + length)]
        }
        for kind in signature {
            switch kind {
            case .int: arguments.append(.int(Int32(bitPattern: try nextWord())))
            case .uint: arguments.append(.uint(try nextWord()))
            case .fixed: arguments.append(.fixed(Int32(bitPattern: try nextWord())))
            case .object(let nullable):
                let id = try nextWord()
                guard id != 0 || nullable else { throw violation("has a null object where one is required") }
                arguments.append(.object(id))
            case .newID:
                let id = try nextWord()
                guard id != 0 else { throw violation("creates an object with id 0") }
                arguments.append(.newID(id))
            case .string(let nullable):
                guard let blob = try nextBlob() else {
                    guard nullable else { throw violation("has a null string where one is required") }
                    arguments.append(.string(nil))
                    continue
                }
                guard blob.last == 0 else { throw violation("has a string without its terminating NUL") }
                let text = blob.dropLast()
                guard !text.contains(0), let string = String(validating: text, as: UTF8.self) else {
                    throw violation("has a string that is not UTF-8 text")
                }
                arguments.append(.string(string))
            case .array:
                arguments.append(.array(Array(try nextBlob() ?? [])))
            case .fd:
                guard let fd = unclaimed.popFirst() else {
                    throw violation("carries a file descriptor that did not arrive")
                }
                arguments.append(.fd(fd))
            }
        }
        guard offset == body.endIndex else {
            throw violation("has \(body.endIndex - offset) bytes after its arguments")
        }
        fds = Array(unclaimed)
        return arguments
    }

    static func violation(_ what: String) -> ClipboardError {
        ClipboardError(
            code: .protocolViolation,
            message: "The Wayland compositor sent a message that \(what); the connection cannot continue.")
    }
}

/// One message's header and body, cut from the byte stream but not yet decoded.
package struct WaylandFrame: Sendable, Equatable {
    /// The object the event comes from.
    package var objectID: UInt32
    /// The event's number.
    package var opcode: UInt16
    /// The bytes after the header.
    package var body: ArraySlice<UInt8>
}

/// Cuts a Wayland byte stream into messages: the protocol's ``FrameDecoder`` over the wire layer's ``FrameBuffer``.
///
/// A header is two native-endian words: the object id, then the message's size (header included) in the upper 16
/// bits and its opcode in the lower 16. The size is checked before the body is waited for, so a hostile compositor
/// cannot make the buffer hold more than one message's worth of bytes beyond what it sent. Descriptors are not cut
/// here: each argument of type `fd` claims one from the connection's queue when the message is decoded
/// (``WaylandWire/decodeArguments(_:signature:fds:)``).
package struct WaylandFrames: FrameDecoder {
    /// A decoder.
    package init() {}

    /// The next whole message, or `nil` (taking nothing) when more bytes are needed.
    ///
    /// - Throws: ``WireViolation`` for a header whose size is below the header's own, not a multiple of 4, or above
    ///   the protocol's limit.
    package mutating func nextFrame(from buffer: inout FrameBuffer) throws(WireViolation) -> WaylandFrame? {
        guard buffer.count >= WaylandWire.headerSize else { return nil }
        let objectID = Self.word(buffer, at: 0)
        let sizeAndOpcode = Self.word(buffer, at: 4)
        let size = Int(sizeAndOpcode >> 16)
        guard size >= WaylandWire.headerSize, size % 4 == 0, size <= WaylandWire.maximumMessageSize else {
            throw WireViolation(WaylandWire.violation("declares a size of \(size) bytes").message)
        }
        guard buffer.count >= size else { return nil }
        buffer.skip(WaylandWire.headerSize)
        let body = buffer.take(size - WaylandWire.headerSize)
        return WaylandFrame(objectID: objectID, opcode: UInt16(truncatingIfNeeded: sizeAndOpcode), body: body[...])
    }

    /// The native-endian word at `offset` (the protocol's byte order is the host's).
    private static func word(_ buffer: FrameBuffer, at offset: Int) -> UInt32 {
        #if _endian(big)
            UInt32(truncatingIfNeeded: buffer.bigEndianInteger(at: offset, width: 4))
        #else
            UInt32(truncatingIfNeeded: buffer.littleEndianInteger(at: offset, width: 4))
        #endif
    }
}
