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
        var out = TextOutput(capacity: Self.maximumOutput(forInputBytes: carry.count + chunk.count))
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
                return out.data()
            }
            rest = chunk.dropFirst(consumed - carry.count)
            carry = []
        }
        let consumed = try rest.withUnsafeBytes { raw in
            try decode(raw.assumingMemoryBound(to: UInt8.self), final: false, into: &out)
        }
        offset += consumed
        carry = Array(rest.dropFirst(consumed))
        return out.data()
    }

    mutating func finish() throws -> Data {
        var out = TextOutput(capacity: Self.maximumOutput(forInputBytes: carry.count))
        appendMarkOnce(to: &out)
        let bytes = carry
        let consumed = try bytes.withUnsafeBufferPointer { buffer in try decode(buffer, final: true, into: &out) }
        if consumed < bytes.count {
            throw TextConversionError(reason: "The text ends inside a character", offset: offset + consumed)
        }
        carry = []
        return out.data()
    }

    /// The most bytes `count` input bytes can become, with a byte-order mark: two per input byte covers every pair
    /// (an ASCII byte is two in UTF-16, a Latin-1 byte two in UTF-8, a UTF-16 unit at most three in UTF-8).
    private static func maximumOutput(forInputBytes count: Int) -> Int {
        count * 2 + 2
    }

    private mutating func appendMarkOnce(to out: inout TextOutput) {
        guard !isMarkWritten, case .utf16(let order, true) = output else { return }
        isMarkWritten = true
        if order == .littleEndian { out.append(0xFF, 0xFE) } else { out.append(0xFE, 0xFF) }
    }

    /// Eight bytes read from `bytes` at `index`, with no alignment asked.
    @inline(__always)
    private static func word(_ start: UnsafePointer<UInt8>, at index: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(start + index).loadUnaligned(as: UInt64.self))
    }

    /// The high bit of each byte of a word.
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Writes the ASCII bytes from `index` on, eight at a time (they are the same in Latin-1 and UTF-8), while eight
    /// remain before `count`; `index` ends at the first group of eight that holds another byte.
    @inline(__always)
    private func copyASCII(
        _ start: UnsafePointer<UInt8>, _ count: Int, from index: inout Int, into out: inout TextOutput
    ) {
        while index + 8 <= count {
            let word = Self.word(start, at: index)
            guard word & Self.highBits == 0 else { return }
            out.appendASCII(word, as: output)
            index += 8
        }
    }

    /// Decodes the complete characters at the start of `bytes` into `out`; returns how many bytes it used.
    private mutating func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, final: Bool, into out: inout TextOutput
    ) throws -> Int {
        // Only an empty buffer has no address, and nothing is decoded from it.
        guard let start = bytes.baseAddress else { return 0 }
        var index = 0
        let count = bytes.count
        switch input {
        case .latin1:
            isAtStart = false
            while index < count {
                copyASCII(start, count, from: &index, into: &out)
                guard index < count else { break }
                encode(UInt32(bytes[index]), into: &out)
                index += 1
            }
        case .utf8:
            isAtStart = false
            while index < count {
                copyASCII(start, count, from: &index, into: &out)
                guard index < count else { break }
                let lead = bytes[index]
                if lead < 0x80 {
                    encode(UInt32(lead), into: &out)
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
            // Four ASCII units at a time: each unit's high byte is zero and its low byte is below 0x80.
            let notASCII: UInt64 = isBig ? 0x80FF_80FF_80FF_80FF : 0xFF80_FF80_FF80_FF80
            while index + 1 < count {
                while index + 8 <= count {
                    let word = Self.word(start, at: index)
                    guard word & notASCII == 0 else { break }
                    out.appendASCIIUnits(isBig ? word >> 8 : word, as: output)
                    index += 8
                }
                guard index + 1 < count else { break }
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
    private func encode(_ scalar: UInt32, into out: inout TextOutput) {
        switch output {
        case .latin1:
            out.append(scalar <= 0xFF ? UInt8(truncatingIfNeeded: scalar) : UInt8(ascii: "?"))
        case .utf8:
            switch scalar {
            case 0..<0x80:
                out.append(UInt8(truncatingIfNeeded: scalar))
            case 0x80..<0x800:
                out.append(
                    UInt8(truncatingIfNeeded: 0xC0 | scalar >> 6), UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
            case 0x800..<0x10000:
                out.append(UInt8(truncatingIfNeeded: 0xE0 | scalar >> 12))
                out.append(
                    UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F),
                    UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
            default:
                out.append(
                    UInt8(truncatingIfNeeded: 0xF0 | scalar >> 18),
                    UInt8(truncatingIfNeeded: 0x80 | scalar >> 12 & 0x3F))
                out.append(
                    UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F),
                    UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
            }
        case .utf16(let order, _):
            if scalar < 0x10000 {
                out.appendUnit(scalar, order: order)
            } else {
                let value = scalar - 0x10000
                out.appendUnit(0xD800 + (value >> 10), order: order)
                out.appendUnit(0xDC00 + (value & 0x3FF), order: order)
            }
        }
    }
}

/// A conversion's output for one chunk: an uninitialized buffer sized for the worst case
/// (``TextTranscoding``'s `maximumOutput`), filled from the front and handed over as `Data` without a copy. The
/// bytes past what was written are never touched: a large buffer comes fresh from the system, and its unused pages
/// take no memory; the `Data` keeps the whole allocation while it lives (at most twice the input chunk).
struct TextOutput: ~Copyable {
    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        base[count] = byte
        count &+= 1
    }

    @inline(__always)
    mutating func append(_ first: UInt8, _ second: UInt8) {
        base[count] = first
        base[count &+ 1] = second
        count &+= 2
    }

    /// One UTF-16 code unit (below 0x10000) in `order`.
    @inline(__always)
    mutating func appendUnit(_ unit: UInt32, order: TextEncoding.ByteOrder) {
        let low = UInt8(truncatingIfNeeded: unit)
        let high = UInt8(truncatingIfNeeded: unit >> 8)
        if order == .littleEndian { append(low, high) } else { append(high, low) }
    }

    /// Eight ASCII characters, given as the bytes of `word` (the first in its low byte), in `encoding`.
    @inline(__always)
    mutating func appendASCII(_ word: UInt64, as encoding: TextEncoding) {
        switch encoding {
        case .utf8, .latin1:
            UnsafeMutableRawPointer(base + count).storeBytes(of: word.littleEndian, as: UInt64.self)
            count &+= 8
        case .utf16(let order, _):
            // Each byte spread to a 16-bit lane: the low half's four bytes, then the high half's.
            let shift: UInt64 = order == .littleEndian ? 0 : 8
            appendSpread(Self.spread(word & 0xFFFF_FFFF) << shift)
            appendSpread(Self.spread(word >> 32) << shift)
        }
    }

    /// Four ASCII code units, given as the low byte of each 16-bit lane of `lanes` (the first in the lowest), in
    /// `encoding`.
    @inline(__always)
    mutating func appendASCIIUnits(_ lanes: UInt64, as encoding: TextEncoding) {
        let bytes = lanes & 0x00FF_00FF_00FF_00FF
        switch encoding {
        case .utf8, .latin1:
            // Gather the lanes' low bytes into four bytes.
            let pairs = (bytes | bytes >> 8) & 0x0000_FFFF_0000_FFFF
            let packed = UInt32(truncatingIfNeeded: pairs | pairs >> 16)
            UnsafeMutableRawPointer(base + count).storeBytes(of: packed.littleEndian, as: UInt32.self)
            count &+= 4
        case .utf16(let order, _):
            appendSpread(order == .littleEndian ? bytes : bytes << 8)
        }
    }

    /// The four bytes of `value` (below 2³²) each in the low byte of a 16-bit lane.
    @inline(__always)
    private static func spread(_ value: UInt64) -> UInt64 {
        let pairs = (value | value << 16) & 0x0000_FFFF_0000_FFFF
        return (pairs | pairs << 8) & 0x00FF_00FF_00FF_00FF
    }

    @inline(__always)
    private mutating func appendSpread(_ lanes: UInt64) {
        UnsafeMutableRawPointer(base + count).storeBytes(of: lanes.littleEndian, as: UInt64.self)
        count &+= 8
    }

    /// The bytes written, as `Data` that owns the buffer from here.
    consuming func data() -> Data {
        let base = self.base
        let count = self.count
        discard self
        guard count > 0 else {
            base.deallocate()
            return Data()
        }
        return Data(bytesNoCopy: base, count: count, deallocator: .custom { pointer, _ in pointer.deallocate() })
    }
}
