/// zlib (RFC 1950) compression in Swift: LZ77 over hash chains, coded with deflate's fixed Huffman codes, or stored
/// blocks where that is smaller. Not as tight as zlib's dynamic codes (PNGs come out some 10–30 % larger than
/// zlib's level 6), but every zlib reader inflates it.
package enum Deflate {
    /// `bytes` as one zlib stream.
    package static func zlib(_ bytes: [UInt8]) -> [UInt8] {
        var writer = ZlibWriter()
        writer.append(bytes[...])
        return writer.finish()
    }

    fileprivate static let window = 1 << 15
    fileprivate static let hashBits = 15
    fileprivate static let maximumChain = 64
    fileprivate static let minimumMatch = 3
    fileprivate static let maximumMatch = 258

    /// A literal/length symbol in the fixed code (RFC 1951 3.2.6), most significant code bit first.
    fileprivate static func writeLiteral(_ symbol: Int, to writer: inout BitWriter) {
        switch symbol {
        case 0..<144: writer.writeCode(0x30 + symbol, length: 8)
        case 144..<256: writer.writeCode(0x190 + symbol - 144, length: 9)
        case 256..<280: writer.writeCode(symbol - 256, length: 7)
        default: writer.writeCode(0xc0 + symbol - 280, length: 8)
        }
    }

    fileprivate static func writeLength(_ length: Int, distance: Int, to writer: inout BitWriter) {
        var symbol = 0
        while symbol + 1 < DeflateTables.lengthBase.count, DeflateTables.lengthBase[symbol + 1] <= length {
            symbol += 1
        }
        writeLiteral(257 + symbol, to: &writer)
        writer.write(UInt32(length - DeflateTables.lengthBase[symbol]), bits: DeflateTables.lengthExtra[symbol])
        var distanceSymbol = 0
        while distanceSymbol + 1 < DeflateTables.distanceBase.count,
            DeflateTables.distanceBase[distanceSymbol + 1] <= distance
        {
            distanceSymbol += 1
        }
        writer.writeCode(distanceSymbol, length: 5)
        writer.write(
            UInt32(distance - DeflateTables.distanceBase[distanceSymbol]),
            bits: DeflateTables.distanceExtra[distanceSymbol])
    }

}

/// A zlib stream written as its input arrives (a PNG's filtered rows): each block of about 64 KB of input is coded
/// with the fixed codes, or stored when that is smaller, and only deflate's 32 KiB window (plus the blocks not coded
/// yet) of the input is kept, so the encoder never holds all of its input.
package struct ZlibWriter {
    private var writer = BitWriter()
    /// The input kept, from absolute position `base`.
    private var buffer: [UInt8] = []
    private var base = 0
    /// The absolute position of the first byte not coded yet.
    private var position = 0
    private var head = [Int32](repeating: -1, count: 1 << Deflate.hashBits)
    private var previous = [Int32](repeating: -1, count: Deflate.window)
    private var adler = Adler32.Running()
    /// The symbols of the block being coded: a literal byte, or `1 << 31 | length << 16 | distance`.
    private var symbols: [UInt32] = []

    /// The input of one block: a match may run 257 bytes past it, and a stored block holds at most 65 535.
    private static let blockSize = 65_000

    /// A stream with its zlib header written.
    package init() {
        // CMF 0x78: deflate with a 32 KiB window; FLG 0x01: default level, and (0x7801 % 31 == 0) the header check.
        writer.bytes = [0x78, 0x01]
    }

    /// Adds input; whole blocks are coded as soon as a match's longest reach past them has arrived.
    package mutating func append(_ bytes: ArraySlice<UInt8>) {
        adler.update(bytes)
        buffer.append(contentsOf: bytes)
        while base + buffer.count - position >= Self.blockSize + Deflate.maximumMatch {
            codeBlock(upTo: position + Self.blockSize, final: false)
        }
    }

    /// Codes the rest and returns the whole stream, its Adler-32 last.
    package mutating func finish() -> [UInt8] {
        var end: Int
        repeat {
            end = min(position + Self.blockSize, base + buffer.count)
            codeBlock(upTo: end, final: end == base + buffer.count)
        } while end < base + buffer.count
        writer.flush()
        let value = adler.value
        writer.bytes.append(contentsOf: [
            UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff),
        ])
        return writer.bytes
    }

    private func byte(_ at: Int) -> UInt8 { buffer[at - base] }

    private func hash(_ at: Int) -> Int {
        let value = UInt32(byte(at)) << 16 | UInt32(byte(at + 1)) << 8 | UInt32(byte(at + 2))
        return Int((value &* 2_654_435_761) >> UInt32(32 - Deflate.hashBits))
    }

    private mutating func insert(_ at: Int) {
        guard at + Deflate.minimumMatch <= base + buffer.count else { return }
        let h = hash(at)
        previous[at & (Deflate.window - 1)] = head[h]
        head[h] = Int32(truncatingIfNeeded: at)
    }

    /// Codes the input from `position` until `end` (a match may run past it) as one block, with the fixed codes or
    /// stored, whichever is smaller; then drops the input the window no longer reaches.
    private mutating func codeBlock(upTo end: Int, final: Bool) {
        let start = position
        let total = base + buffer.count
        symbols.removeAll(keepingCapacity: true)
        var bits = 7  // the end-of-block code
        while position < end {
            var bestLength = 0
            var bestDistance = 0
            if position + Deflate.minimumMatch <= total {
                var candidate = Int(head[hash(position)])
                var chain = Deflate.maximumChain
                let limit = min(Deflate.maximumMatch, total - position)
                while candidate >= 0, position - candidate <= Deflate.window - 262, chain > 0 {
                    if byte(candidate + bestLength) == byte(position + bestLength) || bestLength == 0 {
                        var length = 0
                        while length < limit, byte(candidate + length) == byte(position + length) { length += 1 }
                        if length > bestLength {
                            bestLength = length
                            bestDistance = position - candidate
                            if length == limit { break }
                        }
                    }
                    let next = Int(previous[candidate & (Deflate.window - 1)])
                    guard next < candidate else { break }
                    candidate = next
                    chain -= 1
                }
            }
            if bestLength >= Deflate.minimumMatch {
                symbols.append(1 << 31 | UInt32(bestLength) << 16 | UInt32(bestDistance))
                bits += Self.matchBits(length: bestLength, distance: bestDistance)
                for at in position..<position + bestLength { insert(at) }
                position += bestLength
            } else {
                let literal = byte(position)
                symbols.append(UInt32(literal))
                bits += literal < 144 ? 8 : 9
                insert(position)
                position += 1
            }
        }
        let count = position - start
        // A stored block: 3 header bits, padding to a byte, then LEN, NLEN and the bytes.
        if count > 0, bits > (count + 5) * 8 {
            writer.write(final ? 1 : 0, bits: 1)
            writer.write(0, bits: 2)
            writer.flush()
            writer.bytes.append(contentsOf: [
                UInt8(count & 0xff), UInt8(count >> 8), UInt8(~count & 0xff), UInt8(~count >> 8 & 0xff),
            ])
            writer.bytes.append(contentsOf: buffer[(start - base)..<(position - base)])
        } else if count > 0 || final {
            writer.write(final ? 1 : 0, bits: 1)
            writer.write(1, bits: 2)  // fixed Huffman codes
            for symbol in symbols {
                if symbol & 1 << 31 == 0 {
                    Deflate.writeLiteral(Int(symbol), to: &writer)
                } else {
                    Deflate.writeLength(Int(symbol >> 16 & 0x1ff), distance: Int(symbol & 0xffff), to: &writer)
                }
            }
            Deflate.writeLiteral(256, to: &writer)
        }
        // Keep the window behind the next position, which back-references and chains may reach.
        let drop = position - Deflate.window - base
        if drop >= Self.blockSize {
            buffer.removeSubrange(0..<drop)
            base += drop
        }
    }

    /// The bits of a length and distance pair in the fixed code.
    private static func matchBits(length: Int, distance: Int) -> Int {
        var symbol = 0
        while symbol + 1 < DeflateTables.lengthBase.count, DeflateTables.lengthBase[symbol + 1] <= length {
            symbol += 1
        }
        var distanceSymbol = 0
        while distanceSymbol + 1 < DeflateTables.distanceBase.count,
            DeflateTables.distanceBase[distanceSymbol + 1] <= distance
        {
            distanceSymbol += 1
        }
        return (257 + symbol < 280 ? 7 : 8) + DeflateTables.lengthExtra[symbol] + 5
            + DeflateTables.distanceExtra[distanceSymbol]
    }
}

/// Writes bits least significant first into bytes.
struct BitWriter {
    var bytes: [UInt8] = []
    private var buffer: UInt64 = 0
    private var count = 0

    mutating func write(_ value: UInt32, bits: Int) {
        buffer |= UInt64(value) << UInt64(count)
        count += bits
        while count >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: buffer))
            buffer >>= 8
            count -= 8
        }
    }

    /// A Huffman code, which deflate packs most significant bit first.
    mutating func writeCode(_ code: Int, length: Int) {
        var reversed: UInt32 = 0
        for bit in 0..<length where code & (1 << bit) != 0 { reversed |= 1 << UInt32(length - 1 - bit) }
        write(reversed, bits: length)
    }

    /// Pads the last byte with zero bits.
    mutating func flush() {
        if count > 0 {
            bytes.append(UInt8(truncatingIfNeeded: buffer))
            buffer = 0
            count = 0
        }
    }
}
