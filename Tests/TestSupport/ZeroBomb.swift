/// A zlib stream (one block with deflate's fixed codes) that inflates to `count` zero bytes (at least 1) from about
/// 13 bits per 258 bytes: a literal 0, then back-references of length 258 at distance 1. Its Adler-32 is right, so
/// the stream is valid and only a reader's limits stop it: a decompression bomb for the image tests.
package func zeroBomb(count: Int) -> [UInt8] {
    var bits = TestBitWriter()
    bits.write(1, bits: 1)  // final
    bits.write(1, bits: 2)  // fixed Huffman codes
    bits.code(0x30, length: 8)  // literal 0
    var left = count - 1
    while left >= 258 {
        bits.code(0xc5, length: 8)  // length symbol 285: 258
        bits.code(0, length: 5)  // distance symbol 0: 1
        left -= 258
    }
    for _ in 0..<left { bits.code(0x30, length: 8) }
    bits.code(0, length: 7)  // end of block
    // Adler-32 of zeros: a stays 1, b adds 1 per byte.
    let adler = UInt32(count % 65521) << 16 | 1
    return bits.zlib(adler: [24, 16, 8, 0].map { UInt8(adler >> UInt32($0) & 0xff) })
}

/// Writes deflate bits least significant first, for hand-made streams.
package struct TestBitWriter {
    /// The whole bytes written so far.
    package var bytes: [UInt8] = []
    private var buffer = 0
    private var count = 0

    /// An empty writer.
    package init() {}

    /// Writes the low `bits` bits of `value`, least significant first.
    package mutating func write(_ value: Int, bits: Int) {
        buffer |= value << count
        count += bits
        while count >= 8 {
            bytes.append(UInt8(buffer & 0xff))
            buffer >>= 8
            count -= 8
        }
    }

    /// A Huffman code, most significant bit first.
    package mutating func code(_ value: Int, length: Int) {
        for bit in (0..<length).reversed() { write(value >> bit & 1, bits: 1) }
    }

    /// A zlib stream of these bits (header, the bits padded, then `adler`).
    package func zlib(adler: [UInt8] = [0, 0, 0, 1]) -> [UInt8] {
        var done = self
        if done.count > 0 { done.write(0, bits: 8 - done.count) }
        return [0x78, 0x01] + done.bytes + adler
    }
}
