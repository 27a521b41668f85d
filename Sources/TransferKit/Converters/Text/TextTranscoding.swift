#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A text encoding a ``TextTranscoding`` reads or writes.
enum TextEncoding: Sendable, Equatable {
    /// UTF-8, strictly validated when read.
    case utf8
    /// UTF-16. Reading honours a leading byte-order mark (and drops it), else uses `order`; writing uses `order` and
    /// starts with a mark when `mark` is set.
    case utf16(order: ByteOrder, mark: Bool)
    /// ISO 8859-1; writing replaces a character beyond U+00FF with `?`.
    case latin1

    enum ByteOrder: Sendable, Equatable {
        case littleEndian, bigEndian
    }
}

/// Why text could not be converted, and the byte offset in the input where it went wrong.
struct TextConversionError: Error, CustomStringConvertible {
    let reason: String
    let offset: Int

    var description: String { "\(reason) at byte \(offset)" }
}

/// A streaming conversion between text encodings: chunks may split a character anywhere; the incomplete end of one
/// chunk is kept for the next, and an input that ends inside a character fails in ``finish()``.
struct TextTranscoding: TransferChunkConversion {
    let input: TextEncoding
    let output: TextEncoding
    /// Bytes of an incomplete character from the previous chunk.
    var carry: [UInt8] = []
    /// The input's byte offset of `carry`'s first byte.
    var offset = 0
    var isAtStart = true
    /// Whether the output's byte-order mark is written.
    var isMarkWritten = false
    /// The UTF-16 byte order found in the input's byte-order mark, if any.
    var inputOrder: TextEncoding.ByteOrder?

    init(from input: TextEncoding, to output: TextEncoding) {
        self.input = input
        self.output = output
    }

    mutating func convert(_ chunk: Data) throws -> Data {
        var out: [UInt8] = []
        out.reserveCapacity(outputCapacity(forInputBytes: carry.count + chunk.count))
        appendMarkOnce(to: &out)
        var rest = chunk[...]
        if !carry.isEmpty {
            // The carried character completes within the chunk's first four bytes (no character is longer): decode
            // those together, so the chunk itself is read in place rather than copied behind the carry.
            let head = carry + chunk.prefix(4)
            let consumed = try head.withUnsafeBufferPointer { buffer in try decode(buffer, final: false, into: &out) }
            offset += consumed
            guard consumed >= carry.count else {
                // The chunk was too short to complete it: what is left of the carry and all of the chunk wait for the
                // next one (the bytes past the four as well, so none is lost whatever the decoder left).
                carry = Array(head[consumed...]) + chunk.dropFirst(4)
                return Data(out)
            }
            rest = chunk.dropFirst(consumed - carry.count)
            carry = []
        }
        let consumed = try rest.withUnsafeBytes { raw in
            try decode(raw.assumingMemoryBound(to: UInt8.self), final: false, into: &out)
        }
        offset += consumed
        carry = Array(rest.dropFirst(consumed))
        return Data(out)
    }

    mutating func finish() throws -> Data {
        var out: [UInt8] = []
        appendMarkOnce(to: &out)
        let bytes = carry
        let consumed = try bytes.withUnsafeBufferPointer { buffer in try decode(buffer, final: true, into: &out) }
        if consumed < bytes.count {
            throw TextConversionError(reason: "The text ends inside a character", offset: offset + consumed)
        }
        carry = []
        return Data(out)
    }

    private func outputCapacity(forInputBytes count: Int) -> Int {
        switch (input, output) {
        case (.utf8, .utf16), (.latin1, .utf16): count * 2 + 2
        case (.latin1, .utf8): count * 2
        default: count + 2
        }
    }

    private mutating func appendMarkOnce(to out: inout [UInt8]) {
        guard !isMarkWritten, case .utf16(let order, true) = output else { return }
        isMarkWritten = true
        out.append(contentsOf: order == .littleEndian ? [0xFF, 0xFE] : [0xFE, 0xFF])
    }

    /// Decodes the complete characters at the start of `bytes` into `out`; returns how many bytes it used.
    private mutating func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, final: Bool, into out: inout [UInt8]
    ) throws -> Int {
        var index = 0
        let count = bytes.count
        switch input {
        case .latin1:
            isAtStart = false
            while index < count {
                encode(UInt32(bytes[index]), into: &out)
                index += 1
            }
        case .utf8:
            isAtStart = false
            while index < count {
                let lead = bytes[index]
                if lead < 0x80 {
                    encodeASCII(lead, into: &out)
                    index += 1
                    continue
                }
                let length: Int
                var scalar: UInt32
                var low: UInt8 = 0x80
                var high: UInt8 = 0xBF
                switch lead {
                case 0xC2...0xDF: (length, scalar) = (2, UInt32(lead & 0x1F))
                case 0xE0: (length, scalar, low) = (3, UInt32(lead & 0x0F), 0xA0)
                case 0xED: (length, scalar, high) = (3, UInt32(lead & 0x0F), 0x9F)
                case 0xE1...0xEF: (length, scalar) = (3, UInt32(lead & 0x0F))
                case 0xF0: (length, scalar, low) = (4, UInt32(lead & 0x07), 0x90)
                case 0xF4: (length, scalar, high) = (4, UInt32(lead & 0x07), 0x8F)
                case 0xF1...0xF3: (length, scalar) = (4, UInt32(lead & 0x07))
                default: throw invalid("A byte that cannot start a UTF-8 character", index)
                }
                var position = index + 1
                while position < index + length {
                    guard position < count else {
                        // Incomplete: wait for the next chunk (or fail in finish).
                        if final { throw invalid("The UTF-8 text ends inside a character", index) }
                        return index
                    }
                    let byte = bytes[position]
                    let (minimum, maximum) = position == index + 1 ? (low, high) : (UInt8(0x80), UInt8(0xBF))
                    guard byte >= minimum, byte <= maximum else {
                        throw invalid("An invalid UTF-8 sequence", index)
                    }
                    scalar = scalar << 6 | UInt32(byte & 0x3F)
                    position += 1
                }
                encode(scalar, into: &out)
                index += length
            }
        case .utf16(let defaultOrder, _):
            if isAtStart {
                guard count >= 2 else {
                    if final, count == 1 { throw invalid("The UTF-16 text has an odd number of bytes", 0) }
                    return 0
                }
                isAtStart = false
                if bytes[0] == 0xFE, bytes[1] == 0xFF {
                    inputOrder = .bigEndian
                    index = 2
                } else if bytes[0] == 0xFF, bytes[1] == 0xFE {
                    inputOrder = .littleEndian
                    index = 2
                } else {
                    inputOrder = defaultOrder
                }
            }
            let isBig = (inputOrder ?? defaultOrder) == .bigEndian
            func unit(_ at: Int) -> UInt32 {
                isBig
                    ? UInt32(bytes[at]) << 8 | UInt32(bytes[at + 1]) : UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at])
            }
            while index + 1 < count {
                let first = unit(index)
                if first < 0xD800 || first > 0xDFFF {
                    encode(first, into: &out)
                    index += 2
                    continue
                }
                guard first <= 0xDBFF else { throw invalid("A UTF-16 low surrogate without a high one", index) }
                guard index + 3 < count else {
                    if final { throw invalid("The UTF-16 text ends inside a surrogate pair", index) }
                    return index
                }
                let second = unit(index + 2)
                guard (0xDC00...0xDFFF).contains(second) else {
                    throw invalid("A UTF-16 high surrogate without a low one", index)
                }
                encode(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00), into: &out)
                index += 4
            }
            if final, index < count { throw invalid("The UTF-16 text has an odd number of bytes", index) }
        }
        return index
    }

    private func invalid(_ reason: String, _ index: Int) -> TextConversionError {
        TextConversionError(reason: reason, offset: offset + index)
    }

    @inline(__always)
    private func encodeASCII(_ byte: UInt8, into out: inout [UInt8]) {
        switch output {
        case .utf8, .latin1: out.append(byte)
        case .utf16(let order, _):
            if order == .littleEndian {
                out.append(byte)
                out.append(0)
            } else {
                out.append(0)
                out.append(byte)
            }
        }
    }

    @inline(__always)
    private func encode(_ scalar: UInt32, into out: inout [UInt8]) {
        switch output {
        case .latin1:
            out.append(scalar <= 0xFF ? UInt8(scalar) : UInt8(ascii: "?"))
        case .utf8:
            switch scalar {
            case 0..<0x80:
                out.append(UInt8(scalar))
            case 0x80..<0x800:
                out.append(UInt8(0xC0 | scalar >> 6))
                out.append(UInt8(0x80 | scalar & 0x3F))
            case 0x800..<0x10000:
                out.append(UInt8(0xE0 | scalar >> 12))
                out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
                out.append(UInt8(0x80 | scalar & 0x3F))
            default:
                out.append(UInt8(0xF0 | scalar >> 18))
                out.append(UInt8(0x80 | scalar >> 12 & 0x3F))
                out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
                out.append(UInt8(0x80 | scalar & 0x3F))
            }
        case .utf16(let order, _):
            func unit(_ value: UInt32) {
                if order == .littleEndian {
                    out.append(UInt8(value & 0xFF))
                    out.append(UInt8(value >> 8))
                } else {
                    out.append(UInt8(value >> 8))
                    out.append(UInt8(value & 0xFF))
                }
            }
            if scalar < 0x10000 {
                unit(scalar)
            } else {
                let value = scalar - 0x10000
                unit(0xD800 + (value >> 10))
                unit(0xDC00 + (value & 0x3FF))
            }
        }
    }
}
