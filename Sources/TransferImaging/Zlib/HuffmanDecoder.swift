/// A canonical Huffman code of deflate, decoded through a 9-bit table with a bit-by-bit fallback for longer codes,
/// and for the inflater's fast loop, a table whose one or two look-ups give a symbol's whole meaning.
struct HuffmanDecoder: Sendable {
    private static let fastBits = 9

    /// Which of deflate's alphabets a code is for: what the fast loop's ``table`` entries say.
    enum Alphabet {
        /// The code-length code: no ``table``.
        case codeLengths
        /// Literals 0–255, end of block 256, lengths 257–285 (286 and 287 are reserved).
        case literalsAndLengths
        /// Distances 0–29 (30 and 31 are reserved).
        case distances
    }

    /// The fast loop's table: `1 << tableBits` entries indexed by the next bits (first bit lowest), then the
    /// second-level tables of codes longer than `tableBits`. An entry is a ``TableEntry``; 0 means "take the slow
    /// path", which decodes bit by bit and throws the same errors as before: reserved symbols, prefixes of an
    /// incomplete code.
    private(set) var table: [UInt32] = []
    /// How many bits index the first level of ``table``.
    private(set) var tableBits = 0

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
    init(
        lengths: [UInt8], complete: Bool, alphabet: Alphabet = .codeLengths, at reader: BitReader
    ) throws(ImagingError) {
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
        if alphabet != .codeLengths { buildTable(lengths: lengths, alphabet: alphabet, longest: longest) }
    }

    /// Fills ``table`` from the code lengths (already checked: not over-subscribed).
    private mutating func buildTable(lengths: [UInt8], alphabet: Alphabet, longest: Int) {
        let bits = alphabet == .literalsAndLengths ? 10 : 8
        tableBits = bits
        table = [UInt32](repeating: 0, count: 1 << bits)
        // Each symbol's canonical code (RFC 1951 3.2.2), bit-reversed: deflate sends a code's first bit lowest.
        var next = [Int](repeating: 0, count: 17)
        var code = 0
        for length in 1...15 {
            code = (code + Int(counts[length - 1])) << 1
            next[length] = code
        }
        var reversedCodes = [Int](repeating: 0, count: lengths.count)
        for (symbol, length) in lengths.enumerated() where length != 0 {
            let value = next[Int(length)]
            next[Int(length)] += 1
            var reversed = 0
            for bit in 0..<Int(length) where value & (1 << bit) != 0 { reversed |= 1 << (Int(length) - 1 - bit) }
            reversedCodes[symbol] = reversed
        }
        // Second-level tables: per first-level slot, as many more bits as its longest code needs.
        if longest > bits {
            var extraBits = [Int](repeating: 0, count: 1 << bits)
            for (symbol, length) in lengths.enumerated() where Int(length) > bits {
                let slot = reversedCodes[symbol] & (1 << bits - 1)
                extraBits[slot] = max(extraBits[slot], Int(length) - bits)
            }
            for slot in 0..<(1 << bits) where extraBits[slot] > 0 {
                table[slot] = TableEntry.link(start: table.count, bits: extraBits[slot], firstLevelBits: bits)
                table.append(contentsOf: repeatElement(0, count: 1 << extraBits[slot]))
            }
        }
        for (symbol, length) in lengths.enumerated() where length != 0 {
            let entry = TableEntry.make(symbol: symbol, length: Int(length), alphabet: alphabet)
            let reversed = reversedCodes[symbol]
            let length = Int(length)
            if length <= bits {
                var slot = reversed
                while slot < 1 << bits {
                    table[slot] = entry
                    slot += 1 << length
                }
            } else {
                let link = table[reversed & (1 << bits - 1)]
                let start = TableEntry.value(link)
                let size = 1 << TableEntry.extraBits(link)
                var slot = reversed >> bits
                while slot < size {
                    table[start + slot] = entry
                    slot += 1 << (length - bits)
                }
            }
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
        return fixed(lengths, alphabet: .literalsAndLengths)
    }()

    /// Block type 1's distance code: 30 symbols (and the two reserved ones) of 5 bits.
    static let fixedDistances: HuffmanDecoder = fixed([UInt8](repeating: 5, count: 32), alphabet: .distances)

    private static func fixed(_ lengths: [UInt8], alphabet: Alphabet) -> HuffmanDecoder {
        // The fixed codes are complete, so this cannot throw; an empty code would only refuse every symbol.
        (try? HuffmanDecoder(
            lengths: lengths, complete: true, alphabet: alphabet, at: BitReader(bytes: [], position: 0)))
            ?? HuffmanDecoder()
    }

    private init() {}
}

/// The fast loop's table entries, packed in a `UInt32` so that one look-up gives everything about a symbol.
///
/// Bits 0–3: the code's length (a link: the first level's bits); bits 4–7: how many extra bits follow (a link: the
/// second level's index bits); bits 8–9: the kind; bits 16–31: the literal byte, the length or distance base, or
/// where a link's second-level table starts. 0 is no entry: the slow path decides.
enum TableEntry {
    static let literal: UInt32 = 0
    static let base: UInt32 = 1
    static let endOfBlock: UInt32 = 2
    static let link: UInt32 = 3

    @inline(__always) static func length(_ entry: UInt32) -> Int { Int(entry & 15) }
    @inline(__always) static func extraBits(_ entry: UInt32) -> Int { Int(entry >> 4 & 15) }
    @inline(__always) static func kind(_ entry: UInt32) -> UInt32 { entry >> 8 & 3 }
    @inline(__always) static func value(_ entry: UInt32) -> Int { Int(entry >> 16) }

    /// The entry that the low bits of `bits` select in `table` (first level `mask` wide), following a link into its
    /// second-level table; 0 when no code matches.
    @inline(__always) static func lookUp(_ bits: UInt64, in table: UnsafeBufferPointer<UInt32>, mask: UInt64) -> UInt32
    {
        let entry = table[Int(truncatingIfNeeded: bits & mask)]
        guard kind(entry) == link else { return entry }
        let index = bits &>> UInt64(length(entry)) & (UInt64(1) &<< UInt64(extraBits(entry)) &- 1)
        return table[value(entry) &+ Int(truncatingIfNeeded: index)]
    }

    static func link(start: Int, bits: Int, firstLevelBits: Int) -> UInt32 {
        UInt32(start) << 16 | link << 8 | UInt32(bits) << 4 | UInt32(firstLevelBits)
    }

    /// The entry of `symbol`, or 0 for a reserved one.
    static func make(symbol: Int, length: Int, alphabet: HuffmanDecoder.Alphabet) -> UInt32 {
        let kind: UInt32
        let value: Int
        let extra: Int
        switch alphabet {
        case .literalsAndLengths:
            if symbol < 256 {
                (kind, value, extra) = (literal, symbol, 0)
            } else if symbol == 256 {
                (kind, value, extra) = (endOfBlock, 0, 0)
            } else if symbol - 257 < DeflateTables.lengthBase.count {
                (kind, value, extra) = (
                    base, DeflateTables.lengthBase[symbol - 257], DeflateTables.lengthExtra[symbol - 257]
                )
            } else {
                return 0
            }
        case .distances:
            guard symbol < DeflateTables.distanceBase.count else { return 0 }
            (kind, value, extra) = (base, DeflateTables.distanceBase[symbol], DeflateTables.distanceExtra[symbol])
        case .codeLengths:
            return 0
        }
        return UInt32(value) << 16 | kind << 8 | UInt32(extra) << 4 | UInt32(length)
    }
}
