/// One D-Bus message: its kind, serial, header fields and body (D-Bus Specification, "Message Format").
package struct DBusMessage: Sendable, Hashable {
    /// What a message is.
    package enum Kind: UInt8, Sendable {
        /// A method call, answered by a return or an error unless ``Flags/noReplyExpected`` is set.
        case methodCall = 1
        /// A method's answer.
        case methodReturn = 2
        /// A method's failure, with an error name.
        case error = 3
        /// A signal: a broadcast, or one addressed to a destination.
        case signal = 4
    }

    /// The header's flag bits.
    package struct Flags: OptionSet, Sendable, Hashable {
        /// The flag bits as the header carries them (unknown bits kept).
        package let rawValue: UInt8
        /// The flags of these bits.
        package init(rawValue: UInt8) { self.rawValue = rawValue }
        /// The caller wants no answer.
        package static let noReplyExpected = Flags(rawValue: 0x1)
        /// The bus must not start a service for the destination.
        package static let noAutoStart = Flags(rawValue: 0x2)
        /// The caller is willing to wait for the user to authorize the call.
        package static let allowInteractiveAuthorization = Flags(rawValue: 0x4)
    }

    /// What the message is.
    package var kind: Kind
    /// The header's flags.
    package var flags: Flags
    /// Chosen by the sender, never 0; an answer names it as ``replySerial``.
    package var serial: UInt32
    /// The object a call goes to or a signal comes from.
    package var path: String?
    /// The interface of the member.
    package var interface: String?
    /// The method or signal.
    package var member: String?
    /// An error's name, e.g. `org.freedesktop.DBus.Error.ServiceUnknown`.
    package var errorName: String?
    /// The serial of the call a return or error answers.
    package var replySerial: UInt32?
    /// The connection the message is for.
    package var destination: String?
    /// The connection that sent it (the bus fills it in).
    package var sender: String?
    /// How many descriptors travel beside the message (`SCM_RIGHTS`); ``DBusValue/unixFD(_:)`` indexes them.
    package var unixFDCount: UInt32
    /// The values, in order; their types make the message's signature.
    package var body: [DBusValue]

    /// A message; fields a kind requires (a call's path and member, say) are checked when it is encoded.
    package init(
        kind: Kind, flags: Flags = [], serial: UInt32 = 1, path: String? = nil, interface: String? = nil,
        member: String? = nil, errorName: String? = nil, replySerial: UInt32? = nil, destination: String? = nil,
        sender: String? = nil, unixFDCount: UInt32 = 0, body: [DBusValue] = []
    ) {
        self.kind = kind
        self.flags = flags
        self.serial = serial
        self.path = path
        self.interface = interface
        self.member = member
        self.errorName = errorName
        self.replySerial = replySerial
        self.destination = destination
        self.sender = sender
        self.unixFDCount = unixFDCount
        self.body = body
    }

    /// A method call.
    package static func call(
        destination: String?, path: String, interface: String?, member: String, body: [DBusValue] = []
    ) -> DBusMessage {
        DBusMessage(
            kind: .methodCall, path: path, interface: interface, member: member, destination: destination,
            body: body)
    }

    /// The body's signature, e.g. `sa{sv}`.
    package var signature: String { body.map(\.type.description).joined() }

    /// For an error: its first body value when that is text (the bus's and most services' message).
    package var errorMessage: String? {
        guard kind == .error, case .string(let text)? = body.first else { return nil }
        return text
    }
}

/// The D-Bus wire format: marshalling of every type (both byte orders on read, little-endian on write), the
/// message header, and the specification's limits.
package enum DBusWire {
    /// The largest message, header and body: 128 MiB.
    package static let maximumMessageSize = 1 << 27
    /// The largest array, in bytes of elements: 64 MiB.
    package static let maximumArrayLength = 1 << 26
    /// How many containers (arrays, structures, dictionary entries, variants) a value may sit in.
    package static let maximumTotalNesting = 64
    /// The fixed part of the header, up to the header fields' array length, included.
    package static let fixedHeaderSize = 16

    // MARK: Writing

    /// The message's bytes (little-endian). Descriptors go beside them; set ``DBusMessage/unixFDCount``.
    /// - Throws: ``ClipboardError`` with `protocolViolation` for a value the specification forbids (text with NUL,
    ///   a malformed object path or name, an array element of another type than the array's), or `limitExceeded`
    ///   past ``maximumMessageSize`` or ``maximumArrayLength``.
    package static func encode(_ message: DBusMessage) throws(ClipboardError) -> [UInt8] {
        try DBusNames.check(message)
        var encoder = DBusEncoder()
        encoder.bytes = [UInt8(ascii: "l"), message.kind.rawValue, message.flags.rawValue, 1, 0, 0, 0, 0]
        encoder.append(message.serial == 0 ? 1 : message.serial)
        var fields: [DBusValue] = []
        func field(_ code: UInt8, _ value: DBusValue?) {
            if let value { fields.append(.structure([.byte(code), .variant(value)])) }
        }
        field(1, message.path.map(DBusValue.objectPath))
        field(2, message.interface.map(DBusValue.string))
        field(3, message.member.map(DBusValue.string))
        field(4, message.errorName.map(DBusValue.string))
        field(5, message.replySerial.map(DBusValue.uint32))
        field(6, message.destination.map(DBusValue.string))
        field(7, message.sender.map(DBusValue.string))
        let signature = message.signature
        field(8, signature.isEmpty ? nil : .signature(signature))
        field(9, message.unixFDCount == 0 ? nil : .uint32(message.unixFDCount))
        try encoder.write(.array(element: .structure([.byte, .variant]), fields))
        encoder.pad(to: 8)
        let bodyStart = encoder.bytes.count
        for value in message.body {
            try encoder.write(value)
        }
        let bodyLength = encoder.bytes.count - bodyStart
        guard encoder.bytes.count <= maximumMessageSize else {
            throw ClipboardError(
                code: .limitExceeded,
                message: "A D-Bus message of \(encoder.bytes.count) bytes is larger than the 128 MiB the bus allows.")
        }
        withUnsafeBytes(of: UInt32(bodyLength).littleEndian) { encoder.bytes.replaceSubrange(4..<8, with: $0) }
        return encoder.bytes
    }

    // MARK: Reading

    /// The whole length of the message whose first ``fixedHeaderSize`` bytes are `header`.
    /// - Throws: ``ClipboardError`` with `protocolViolation` for an unknown byte order or protocol version, or
    ///   `limitExceeded` for a message larger than ``maximumMessageSize``.
    package static func messageLength(header: ArraySlice<UInt8>) throws(ClipboardError) -> Int {
        let bytes = Array(header.prefix(fixedHeaderSize))
        guard bytes.count == fixedHeaderSize else {
            throw violation("a message header is shorter than \(fixedHeaderSize) bytes")
        }
        guard bytes[0] == UInt8(ascii: "l") || bytes[0] == UInt8(ascii: "B") else {
            throw violation("a message has the byte-order mark 0x\(String(bytes[0], radix: 16)), not 'l' or 'B'")
        }
        guard bytes[3] == 1 else { throw violation("a message has protocol version \(bytes[3]), not 1") }
        let little = bytes[0] == UInt8(ascii: "l")
        let bodyLength = Int(word(bytes, at: 4, little: little))
        let fieldsLength = Int(word(bytes, at: 12, little: little))
        let total = (fixedHeaderSize + fieldsLength + 7) / 8 * 8 + bodyLength
        guard fieldsLength <= maximumArrayLength, total <= maximumMessageSize else {
            throw ClipboardError(
                code: .limitExceeded,
                message: "A D-Bus message announces \(total) bytes, more than the 128 MiB the specification allows.")
        }
        return total
    }

    /// Reads one whole message.
    /// - Parameters:
    ///   - bytes: Exactly the message (``messageLength(header:)`` bytes).
    ///   - descriptorCount: How many descriptors came with it.
    /// - Returns: The message, or `nil` for a message of a kind this version of the protocol does not define (which
    ///   the specification says to ignore).
    /// - Throws: ``ClipboardError`` with `protocolViolation` for anything the specification forbids: bad padding,
    ///   a Boolean other than 0 or 1, text that is not UTF-8 or holds NUL, a malformed name, path or signature, an
    ///   array that does not end where its length says, a descriptor index past those that came, a missing required
    ///   header field, containers nested more than 64 deep, or a body that does not fill its length.
    package static func decode(_ bytes: [UInt8], descriptorCount: Int) throws(ClipboardError) -> DBusMessage? {
        let total = try messageLength(header: bytes[...])
        guard total == bytes.count else {
            throw violation("a message of \(bytes.count) bytes announces \(total)")
        }
        let little = bytes[0] == UInt8(ascii: "l")
        guard let kind = DBusMessage.Kind(rawValue: bytes[1]) else { return nil }
        var message = DBusMessage(kind: kind)
        message.flags = DBusMessage.Flags(rawValue: bytes[2])
        message.serial = word(bytes, at: 8, little: little)
        guard message.serial != 0 else { throw violation("a message has the serial 0") }
        var decoder = DBusDecoder(bytes: bytes, position: 12, end: bytes.count, littleEndian: little)
        let fields = try decoder.read(.array(.structure([.byte, .variant])), depth: 0)
        var signature = ""
        guard case .array(_, let entries) = fields else { throw violation("the header fields are not an array") }
        for entry in entries {
            guard case .structure(let pair) = entry, pair.count == 2, case .byte(let code) = pair[0],
                case .variant(let value) = pair[1]
            else { continue }
            switch (code, value) {
            case (1, .objectPath(let path)): message.path = path
            case (2, .string(let text)): message.interface = text
            case (3, .string(let text)): message.member = text
            case (4, .string(let text)): message.errorName = text
            case (5, .uint32(let serial)): message.replySerial = serial
            case (6, .string(let text)): message.destination = text
            case (7, .string(let text)): message.sender = text
            case (8, .signature(let text)): signature = text
            case (9, .uint32(let count)): message.unixFDCount = count
            case (1...9, _): throw violation("header field \(code) holds a \(value.type), not its own type")
            default: break  // Unknown fields are ignored (the specification).
            }
        }
        try DBusNames.check(message)
        guard Int(message.unixFDCount) <= descriptorCount else {
            throw violation("a message announces \(message.unixFDCount) descriptors and \(descriptorCount) came")
        }
        try decoder.align(8)
        decoder.descriptorCount = Int(message.unixFDCount)
        for type in try DBusType.types(of: signature) {
            message.body.append(try decoder.read(type, depth: 0))
        }
        guard decoder.position == bytes.count else {
            throw violation("a message body of signature \(String(reflecting: signature)) does not fill its length")
        }
        return message
    }

    static func word(_ bytes: [UInt8], at offset: Int, little: Bool) -> UInt32 {
        let value = (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
        return little ? value : value.byteSwapped
    }

    static func violation(_ what: String) -> ClipboardError {
        ClipboardError(code: .protocolViolation, message: "The D-Bus peer broke the protocol: \(what).")
    }
}

/// Writes values little-endian, aligned from the start of the message.
struct DBusEncoder {
    var bytes: [UInt8] = []

    mutating func pad(to alignment: Int) {
        while bytes.count % alignment != 0 { bytes.append(0) }
    }

    mutating func append<T: FixedWidthInteger>(_ value: T) {
        pad(to: MemoryLayout<T>.size)
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func write(_ value: DBusValue) throws(ClipboardError) {
        switch value {
        case .byte(let byte): bytes.append(byte)
        case .boolean(let flag): append(UInt32(flag ? 1 : 0))
        case .int16(let number): append(number)
        case .uint16(let number): append(number)
        case .int32(let number): append(number)
        case .uint32(let number): append(number)
        case .int64(let number): append(number)
        case .uint64(let number): append(number)
        case .double(let number): append(number.bitPattern)
        case .unixFD(let index): append(index)
        case .string(let text):
            try DBusNames.checkText(text)
            appendText(text)
        case .objectPath(let path):
            try DBusNames.checkObjectPath(path)
            appendText(path)
        case .signature(let signature):
            _ = try DBusType.types(of: signature)
            bytes.append(UInt8(signature.utf8.count))
            bytes.append(contentsOf: signature.utf8)
            bytes.append(0)
        case .array(let element, let values):
            append(UInt32(0))
            let lengthAt = bytes.count - 4
            pad(to: element.alignment)
            let start = bytes.count
            for value in values {
                guard value.type == element else {
                    throw DBusWire.violation("an array of \(element) was given a \(value.type)")
                }
                try write(value)
            }
            let length = bytes.count - start
            guard length <= DBusWire.maximumArrayLength else {
                throw ClipboardError(
                    code: .limitExceeded, message: "A D-Bus array of \(length) bytes is larger than 64 MiB.")
            }
            withUnsafeBytes(of: UInt32(length).littleEndian) {
                bytes.replaceSubrange(lengthAt..<lengthAt + 4, with: $0)
            }
        case .dictEntry(let key, let entryValue):
            pad(to: 8)
            try write(key)
            try write(entryValue)
        case .structure(let fields):
            pad(to: 8)
            for field in fields { try write(field) }
        case .variant(let inner):
            try write(.signature(inner.type.description))
            try write(inner)
        }
    }

    private mutating func appendText(_ text: String) {
        append(UInt32(text.utf8.count))
        bytes.append(contentsOf: text.utf8)
        bytes.append(0)
    }
}

/// Reads values of a message in either byte order, checking every rule of the marshalling format.
struct DBusDecoder {
    let bytes: [UInt8]
    var position: Int
    let end: Int
    let littleEndian: Bool
    /// How many descriptors the message carries (``DBusValue/unixFD(_:)`` indexes them).
    var descriptorCount = 0

    init(bytes: [UInt8], position: Int, end: Int, littleEndian: Bool) {
        self.bytes = bytes
        self.position = position
        self.end = end
        self.littleEndian = littleEndian
    }

    mutating func align(_ alignment: Int) throws(ClipboardError) {
        let target = (position + alignment - 1) / alignment * alignment
        guard target <= end else { throw DBusWire.violation("a value's padding runs past the message") }
        for index in position..<target where bytes[index] != 0 {
            throw DBusWire.violation("padding at byte \(index) is not zero")
        }
        position = target
    }

    mutating func integer<T: FixedWidthInteger>(_: T.Type) throws(ClipboardError) -> T {
        let size = MemoryLayout<T>.size
        try align(size)
        guard position + size <= end else { throw DBusWire.violation("a value runs past the message") }
        var value: T = 0
        for index in 0..<size {
            let byte = T(truncatingIfNeeded: bytes[position + index])
            value |= byte << (8 * (littleEndian ? index : size - 1 - index))
        }
        position += size
        return value
    }

    mutating func read(_ type: DBusType, depth: Int) throws(ClipboardError) -> DBusValue {
        switch type {
        case .byte:
            guard position < end else { throw DBusWire.violation("a byte runs past the message") }
            position += 1
            return .byte(bytes[position - 1])
        case .boolean:
            let word = try integer(UInt32.self)
            guard word <= 1 else { throw DBusWire.violation("a Boolean is \(word), not 0 or 1") }
            return .boolean(word == 1)
        case .int16: return .int16(try integer(Int16.self))
        case .uint16: return .uint16(try integer(UInt16.self))
        case .int32: return .int32(try integer(Int32.self))
        case .uint32: return .uint32(try integer(UInt32.self))
        case .int64: return .int64(try integer(Int64.self))
        case .uint64: return .uint64(try integer(UInt64.self))
        case .double: return .double(Double(bitPattern: try integer(UInt64.self)))
        case .unixFD:
            let index = try integer(UInt32.self)
            guard Int(index) < descriptorCount else {
                throw DBusWire.violation("descriptor index \(index) is past the \(descriptorCount) that came")
            }
            return .unixFD(index)
        case .string:
            let text = try readText(length: Int(try integer(UInt32.self)))
            try DBusNames.checkText(text)
            return .string(text)
        case .objectPath:
            let path = try readText(length: Int(try integer(UInt32.self)))
            try DBusNames.checkObjectPath(path)
            return .objectPath(path)
        case .signature:
            guard position < end else { throw DBusWire.violation("a signature runs past the message") }
            let length = Int(bytes[position])
            position += 1
            let signature = try readText(length: length)
            _ = try DBusType.types(of: signature)
            return .signature(signature)
        case .array(let element):
            try checkDepth(depth)
            let length = Int(try integer(UInt32.self))
            guard length <= DBusWire.maximumArrayLength else {
                throw ClipboardError(
                    code: .limitExceeded, message: "A D-Bus array announces \(length) bytes, more than 64 MiB.")
            }
            try align(element.alignment)
            let arrayEnd = position + length
            guard arrayEnd <= end else { throw DBusWire.violation("an array runs past the message") }
            var values: [DBusValue] = []
            while position < arrayEnd {
                values.append(try read(element, depth: depth + 1))
            }
            guard position == arrayEnd else { throw DBusWire.violation("an array's last element runs past its length") }
            return .array(element: element, values)
        case .dictEntry(let key, let value):
            try checkDepth(depth)
            try align(8)
            return .dictEntry(try read(key, depth: depth + 1), try read(value, depth: depth + 1))
        case .structure(let fields):
            try checkDepth(depth)
            try align(8)
            var values: [DBusValue] = []
            for field in fields { values.append(try read(field, depth: depth + 1)) }
            return .structure(values)
        case .variant:
            try checkDepth(depth)
            guard case .signature(let signature) = try read(.signature, depth: depth) else {
                throw DBusWire.violation("a variant has no signature")
            }
            return .variant(try read(try DBusType.single(signature), depth: depth + 1))
        }
    }

    private func checkDepth(_ depth: Int) throws(ClipboardError) {
        guard depth < DBusWire.maximumTotalNesting else {
            throw DBusWire.violation("values nest in more than \(DBusWire.maximumTotalNesting) containers")
        }
    }

    /// `length` bytes of UTF-8 and the NUL after them.
    private mutating func readText(length: Int) throws(ClipboardError) -> String {
        guard length >= 0, position + length < end else { throw DBusWire.violation("text runs past the message") }
        let slice = bytes[position..<position + length]
        guard bytes[position + length] == 0 else { throw DBusWire.violation("text is not followed by NUL") }
        guard let text = String(validating: slice, as: UTF8.self) else {
            throw DBusWire.violation("text is not UTF-8")
        }
        position += length + 1
        return text
    }
}
