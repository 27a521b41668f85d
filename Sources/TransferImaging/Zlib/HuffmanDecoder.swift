/// A canonical Huffman code of deflate, decoded through a 9-bit table with a bit-by-bit fallback for longer codes.
struct HuffmanDecoder: Sendable {
    private static let fastBits = 9

    /// How many codes there are of each length 0–15.
    private var counts = [UInt16](repeating: 0, count: 16)
    /// The symbols in code order.
    private var symbols: [UInt16] = []
    /// For each 9-bit (bit-reversed) prefix: the symbol << 4 | its code's length, or 0 when the code is longer.
    private var fast = [UInt16](repeating: 0, count: 1 << fastBits)

    /// The code with these lengths (index = symbol; 0 = no code).
    ///
    /// An over-subscribed set is always invalid. An incomplete set is invalid when `complete` is asked (the
    /// code-length code), else allowed only as zlib allows it: no code at all, or one code of length 1.
    init(lengths: [UInt8], complete: Bool, at reader: BitReader) throws(ImagingError) {
        for length in lengths { counts[Int(length)] += 1 }
        counts[0] = 0
        var left = 1
        var longest = 0
        for length in 1...15 {
            left <<= 1
            left -= Int(counts[length])
            if counts[length] > 0 { longest = length }
            guard left >= 0 else {
                throw ImagingError(
                    code: .invalidHuffmanCode, message: "a Huffman code's lengths are over-subscribed",
                    offset: reader.bytePosition)
            }
        }
        if left > 0 && (complete || longest > 1) {
            throw ImagingError(
                code: .invalidHuffmanCode, message: "a Huffman code's lengths leave codes unused (incomplete)",
                offset: reader.bytePosition)
        }
        var offsets = [Int](repeating: 0, count: 16)
        for length in 1..<15 { offsets[length + 1] = offsets[length] + Int(counts[length]) }
        symbols = [UInt16](repeating: 0, count: lengths.count)
        for (symbol, length) in lengths.enumerated() where length != 0 {
            symbols[offsets[Int(length)]] = UInt16(symbol)
            offsets[Int(length)] += 1
        }
        // The fast table: walk the codes in canonical order.
        var code = 0
        var index = 0
        for length in 1...Self.fastBits {
            for _ in 0..<Int(counts[length]) {
                var reversed = 0
                for bit in 0..<length where code & (1 << bit) != 0 { reversed |= 1 << (length - 1 - bit) }
                let entry = symbols[index] << 4 | UInt16(length)
                var slot = reversed
                while slot < 1 << Self.fastBits {
                    fast[slot] = entry
                    slot += 1 << length
                }
                code += 1
                index += 1
            }
            code <<= 1
        }
    }

    /// The next symbol.
    func decode(_ reader: inout BitReader) throws(ImagingError) -> UInt16 {
        let (peeked, available) = reader.peek(Self.fastBits)
        let entry = fast[Int(peeked)]
        if entry != 0, Int(entry & 15) <= available {
            reader.consume(Int(entry & 15))
            return entry >> 4
        }
        // Longer than the table, or too few bits left for it: one bit at a time (RFC 1951's canonical order).
        var code = 0
        var first = 0
        var index = 0
        for length in 1...15 {
            code |= Int(try reader.bits(1))
            let count = Int(counts[length])
            if code - first < count { return symbols[index + code - first] }
            index += count
            first += count
            first <<= 1
            code <<= 1
        }
        throw ImagingError(
            code: .invalidSymbol, message: "a Huffman code names no symbol (the code is incomplete)",
            offset: reader.bytePosition)
    }

    /// Block type 1's literal/length code (RFC 1951 3.2.6).
    static let fixedLiterals: HuffmanDecoder = {
        var lengths = [UInt8](repeating: 8, count: 288)
        for symbol in 144..<256 { lengths[symbol] = 9 }
        for symbol in 256..<280 { lengths[symbol] = 7 }
        return fixed(lengths)
    }()

    /// Block type 1's distance code: 30 symbols (and the two reserved ones) of 5 bits.
    static let fixedDistances: HuffmanDecoder = fixed([UInt8](repeating: 5, count: 32))

    private static func fixed(_ lengths: [UInt8]) -> HuffmanDecoder {
        // The fixed codes are complete, so this cannot throw; an empty code would only refuse every symbol.
        (try? HuffmanDecoder(lengths: lengths, complete: true, at: BitReader(bytes: [], position: 0)))
            ?? HuffmanDecoder()
    }

    private init() {}
}
