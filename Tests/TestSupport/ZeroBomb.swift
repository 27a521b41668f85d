/// A zlib stream (one block with deflate's fixed codes) that inflates to `count` zero bytes (at least 1) from about
/// 13 bits per 258 bytes: a literal 0, then back-references of length 258 at distance 1. Its Adler-32 is right, so
/// the stream is valid and only a reader's limits stop it: a decompression bomb for the image tests.
package func zeroBomb(count: Int) -> [UInt8] {
    var bytes: [UInt8] = [0x78, 0x01]
    var buffer = 0
    var used = 0
    func write(_ value: Int, bits: Int) {
        buffer |= value << used
        used += bits
        while used >= 8 {
            bytes.append(UInt8(buffer & 0xff))
            buffer >>= 8
            used -= 8
        }
    }
    // Huffman codes go most significant bit first.
    func code(_ value: Int, length: Int) {
        for bit in (0..<length).reversed() { write(value >> bit & 1, bits: 1) }
    }
    write(1, bits: 1)  // final
    write(1, bits: 2)  // fixed Huffman codes
    code(0x30, length: 8)  // literal 0
    var left = count - 1
    while left >= 258 {
        code(0xc5, length: 8)  // length symbol 285: 258
        code(0, length: 5)  // distance symbol 0: 1
        left -= 258
    }
    for _ in 0..<left { code(0x30, length: 8) }
    code(0, length: 7)  // end of block
    if used > 0 { write(0, bits: 8 - used) }
    // Adler-32 of zeros: a stays 1, b adds 1 per byte.
    let adler = UInt32(count % 65521) << 16 | 1
    return bytes + [24, 16, 8, 0].map { UInt8(adler >> UInt32($0) & 0xff) }
}
