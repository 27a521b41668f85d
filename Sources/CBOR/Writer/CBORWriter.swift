/// Writes CBOR into a growing byte buffer, in the deterministic encoding of RFC 8949 §4.2.1.
///
/// Every head uses the shortest argument encoding and every length is definite.
/// ``write(_:)`` also sorts map keys and shortens floats; the low-level `write…Head` methods
/// let a caller stream a payload of known length in chunks, flushing the buffer between them:
///
/// ```swift
/// var writer = CBORWriter()
/// writer.writeByteStringHead(length: fileSize)
/// try writer.flush { try handle.write(contentsOf: $0) }   // the head
/// while let chunk = try input.read(upToCount: 1 << 20) {
///     try handle.write(contentsOf: chunk)                   // the payload, straight through
/// }
/// ```
///
/// When writing maps by hand with ``writeMapHead(count:)``, the caller keeps the keys unique
/// and, for deterministic output, sorted by the bytes of their encodings.
public struct CBORWriter: Sendable {
    /// The bytes written since the writer was made or last flushed.
    public private(set) var bytes: [UInt8]

    /// Creates an empty writer.
    /// - Parameter capacity: Bytes to reserve up front, for writers reused across many items.
    public init(reservingCapacity capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(max(0, capacity))
    }

    /// Returns the bytes written so far and leaves the writer empty.
    public mutating func takeBytes() -> [UInt8] {
        let taken = bytes
        bytes = []
        return taken
    }

    /// Hands the bytes written so far to `body`, then empties the buffer while keeping its
    /// capacity, so a streaming writer reuses one buffer for every chunk.
    ///
    /// If `body` throws, the bytes stay in the buffer.
    /// - Parameter body: Receives the bytes, e.g. to write them to a file.
    public mutating func flush(_ body: ([UInt8]) throws -> Void) rethrows {
        try body(bytes)
        bytes.removeAll(keepingCapacity: true)
    }

    /// Appends bytes as they are, e.g. the payload after ``writeByteStringHead(length:)`` or an
    /// item already encoded elsewhere.
    public mutating func writeRawBytes(_ raw: some Sequence<UInt8>) {
        bytes.append(contentsOf: raw)
    }

    /// Appends a head with the shortest encoding of `argument` (RFC 8949 §4.2.1).
    ///
    /// For major type 7, `argument` is a simple value; use ``writeFloat(_:)`` for floats.
    /// - Parameters:
    ///   - majorType: The major type.
    ///   - argument: The integer value, length, count or tag number.
    public mutating func writeHead(majorType: CBORMajorType, argument: UInt64) {
        let initial = majorType.rawValue << 5
        switch argument {
        case 0..<24:
            bytes.append(initial | UInt8(argument))
        case 24...0xff:
            bytes.append(initial | 24)
            bytes.append(UInt8(argument))
        case 0x100...0xffff:
            bytes.append(initial | 25)
            appendBigEndian(UInt16(argument))
        case 0x1_0000...0xffff_ffff:
            bytes.append(initial | 26)
            appendBigEndian(UInt32(argument))
        default:
            bytes.append(initial | 27)
            appendBigEndian(argument)
        }
    }

    /// Appends an unsigned integer.
    public mutating func writeUnsignedInteger(_ value: UInt64) {
        writeHead(majorType: .unsignedInteger, argument: value)
    }

    /// Appends a signed integer as major type 0 or 1.
    public mutating func writeInteger(_ value: Int64) {
        if value >= 0 {
            writeHead(majorType: .unsignedInteger, argument: UInt64(value))
        } else {
            writeHead(majorType: .negativeInteger, argument: UInt64(~value))
        }
    }

    /// Appends the head of a definite-length byte string; the caller then writes exactly
    /// `length` payload bytes (here with ``writeRawBytes(_:)``, or straight to the output).
    public mutating func writeByteStringHead(length: UInt64) {
        writeHead(majorType: .byteString, argument: length)
    }

    /// Appends the head of a definite-length text string of `length` UTF-8 bytes; the caller
    /// then writes exactly that many bytes of valid UTF-8.
    public mutating func writeTextStringHead(length: UInt64) {
        writeHead(majorType: .textString, argument: length)
    }

    /// Appends the head of an array; the caller then writes `count` items.
    public mutating func writeArrayHead(count: UInt64) {
        writeHead(majorType: .array, argument: count)
    }

    /// Appends the head of a map; the caller then writes `count` key/value pairs, keys unique
    /// and (for deterministic output) sorted by their encoded bytes.
    public mutating func writeMapHead(count: UInt64) {
        writeHead(majorType: .map, argument: count)
    }

    /// Appends a tag number; the caller then writes the tagged item.
    public mutating func writeTag(_ tag: UInt64) {
        writeHead(majorType: .tag, argument: tag)
    }

    /// Appends tag 55799 (0xd9d9f7), which marks the bytes that follow as CBOR (RFC 8949
    /// §3.4.6), as a file's magic number; the caller then writes the item.
    public mutating func writeSelfDescribedTag() {
        writeTag(CBORValue.selfDescribedTag)
    }

    /// Appends a complete byte string.
    public mutating func writeByteString(_ payload: some Collection<UInt8>) {
        writeByteStringHead(length: UInt64(payload.count))
        bytes.append(contentsOf: payload)
    }

    /// Appends a complete text string.
    public mutating func writeTextString(_ text: String) {
        let utf8 = text.utf8
        writeTextStringHead(length: UInt64(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    /// Appends false or true.
    public mutating func writeBool(_ value: Bool) {
        bytes.append(value ? 0xf5 : 0xf4)
    }

    /// Appends null.
    public mutating func writeNull() {
        bytes.append(0xf6)
    }

    /// Appends undefined.
    public mutating func writeUndefined() {
        bytes.append(0xf7)
    }

    /// Appends a float in the shortest of half, single and double precision that holds it
    /// exactly; every NaN becomes 0xf97e00 (RFC 8949 §4.2.1, §4.2.2).
    public mutating func writeFloat(_ value: Double) {
        if value.isNaN {
            bytes.append(contentsOf: [0xf9, 0x7e, 0x00])
        } else if let single = FloatBits.float(exactly: value) {
            if let half = FloatBits.half(exactly: single) {
                bytes.append(0xf9)
                appendBigEndian(half)
            } else {
                bytes.append(0xfa)
                appendBigEndian(single.bitPattern)
            }
        } else {
            bytes.append(0xfb)
            appendBigEndian(value.bitPattern)
        }
    }

    /// Appends a simple value.
    /// - Throws: `CBORError.Code.invalidSimpleValue` for 20...31: 20–23 are false, true,
    ///   null and undefined (write those with their own methods), 24–31 are reserved.
    public mutating func writeSimple(_ value: UInt8) throws(CBORError) {
        guard !(20...31).contains(value) else {
            throw CBORError(
                code: .invalidSimpleValue,
                message:
                    "simple value \(value) cannot be written as such: use .bool/.null/.undefined for 20...23; 24...31 are reserved"
            )
        }
        writeHead(majorType: .simpleOrFloat, argument: UInt64(value))
    }

    private mutating func appendBigEndian<T: FixedWidthInteger>(_ value: T) {
        var bigEndian = value.bigEndian
        withUnsafeBytes(of: &bigEndian) { bytes.append(contentsOf: $0) }
    }
}
