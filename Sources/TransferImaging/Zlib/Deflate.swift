/// zlib (RFC 1950) compression in Swift: LZ77 over hash chains, coded with deflate's fixed Huffman codes, or stored
/// blocks when that would be smaller. Not as tight as zlib's dynamic codes (PNGs come out some 10–30 % larger than
/// zlib's level 6), but every zlib reader inflates it.
package enum Deflate {
    /// `bytes` as one zlib stream.
    package static func zlib(_ bytes: [UInt8]) -> [UInt8] {
        var writer = BitWriter()
        // CMF 0x78: deflate with a 32 KiB window; FLG 0x01: default level, and (0x7801 % 31 == 0) the header check.
        writer.bytes = [0x78, 0x01]
        let headerCount = writer.bytes.count
        compressFixed(bytes, into: &writer)
        writer.flush()
        // Stored blocks hold 65 535 bytes each with 5 bytes of framing: take them when fixed codes did worse.
        let storedCount = bytes.count + 5 * max(1, (bytes.count + 65534) / 65535)
        if writer.bytes.count - headerCount > storedCount {
            writer.bytes.removeSubrange(headerCount...)
            appendStored(bytes, to: &writer.bytes)
        }
        let adler = Adler32.checksum(bytes)
        writer.bytes.append(contentsOf: [
            UInt8(adler >> 24), UInt8(adler >> 16 & 0xff), UInt8(adler >> 8 & 0xff), UInt8(adler & 0xff),
        ])
        return writer.bytes
    }

    private static func appendStored(_ bytes: [UInt8], to output: inout [UInt8]) {
        var start = 0
        repeat {
            let count = min(65535, bytes.count - start)
            let final: UInt8 = start + count == bytes.count ? 1 : 0
            output.append(final)
            output.append(contentsOf: [
                UInt8(count & 0xff), UInt8(count >> 8), UInt8(~count & 0xff), UInt8(~count >> 8 & 0xff),
            ])
            output.append(contentsOf: bytes[start..<start + count])
            start += count
        } while start < bytes.count
    }

    private static let window = 1 << 15
    private static let hashBits = 15
    private static let maximumChain = 64
    private static let minimumMatch = 3
    private static let maximumMatch = 258

    private static func compressFixed(_ bytes: [UInt8], into writer: inout BitWriter) {
        writer.write(1, bits: 1)  // final
        writer.write(1, bits: 2)  // fixed Huffman codes
        var head = [Int32](repeating: -1, count: 1 << hashBits)
        var previous = [Int32](repeating: -1, count: window)
        func hash(_ at: Int) -> Int {
            let value = UInt32(bytes[at]) << 16 | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2])
            return Int((value &* 2_654_435_761) >> UInt32(32 - hashBits))
        }
        func insert(_ at: Int) {
            guard at + minimumMatch <= bytes.count else { return }
            let h = hash(at)
            previous[at & (window - 1)] = head[h]
            head[h] = Int32(at)
        }
        var position = 0
        while position < bytes.count {
            var bestLength = 0
            var bestDistance = 0
            if position + minimumMatch <= bytes.count {
                var candidate = Int(head[hash(position)])
                var chain = maximumChain
                let limit = min(maximumMatch, bytes.count - position)
                while candidate >= 0, position - candidate <= window - 262, chain > 0 {
                    if bytes[candidate + bestLength] == bytes[position + bestLength] || bestLength == 0 {
                        var length = 0
                        while length < limit, bytes[candidate + length] == bytes[position + length] { length += 1 }
                        if length > bestLength {
                            bestLength = length
                            bestDistance = position - candidate
                            if length == limit { break }
                        }
                    }
                    let next = Int(previous[candidate & (window - 1)])
                    guard next < candidate else { break }
                    candidate = next
                    chain -= 1
                }
            }
            if bestLength >= minimumMatch {
                writeLength(bestLength, distance: bestDistance, to: &writer)
                for at in position..<position + bestLength { insert(at) }
                position += bestLength
            } else {
                writeLiteral(Int(bytes[position]), to: &writer)
                insert(position)
                position += 1
            }
        }
        writeLiteral(256, to: &writer)
    }

    /// A literal/length symbol in the fixed code (RFC 1951 3.2.6), most significant code bit first.
    private static func writeLiteral(_ symbol: Int, to writer: inout BitWriter) {
        switch symbol {
        case 0..<144: writer.writeCode(0x30 + symbol, length: 8)
        case 144..<256: writer.writeCode(0x190 + symbol - 144, length: 9)
        case 256..<280: writer.writeCode(symbol - 256, length: 7)
        default: writer.writeCode(0xc0 + symbol - 280, length: 8)
        }
    }

    private static func writeLength(_ length: Int, distance: Int, to writer: inout BitWriter) {
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
