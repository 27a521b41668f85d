import Foundation
import Testing
import TransferImaging
import TransferKitPlatform
import TransferKitTestSupport

/// The zlib fixtures' streams (`Resources/zlib/*.z`), from Python's zlib at several levels and strategies.
func zlibFixtureNames() -> [String] {
    guard let folder = try? imagingResource("zlib"),
        let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
    else { return [] }
    return names.filter { $0.hasSuffix(".z") }.map { String($0.dropLast(2)) }.sorted()
}

@Suite(
    "zlib: Python's streams inflate, the deflater's streams inflate back, every malformed stream",
    .timeLimit(.minutes(5)))
struct ZlibTests {
    @Test("every level and strategy of Python's zlib inflates to the original bytes", arguments: zlibFixtureNames())
    func golden(name: String) throws {
        let stream = try [UInt8](Data(contentsOf: imagingResource("zlib/\(name).z")))
        let original = String(name.split(separator: "-")[0])
        let expected = try [UInt8](Data(contentsOf: imagingResource("zlib/\(original).raw")))
        #expect(try Inflate.zlib(stream, maximumOutputCount: 1 << 24) == expected)
    }

    @Test("the fixtures are there")
    func fixturesExist() { #expect(zlibFixtureNames().count >= 40) }

    @Test("the deflater's streams inflate back (stored blocks for noise, fixed codes otherwise)")
    func roundTrip() throws {
        for sample in deflaterSamples() {
            let stream = Deflate.zlib(sample)
            #expect(try Inflate.zlib(stream, maximumOutputCount: sample.count) == sample)
            #expect(stream.count <= sample.count + 5 * (sample.count / 65535 + 1) + 6)
        }
        #expect(Deflate.zlib([UInt8](repeating: 9, count: 200_000)).count < 2000)
    }

    static func inflate(_ stream: [UInt8], limit: Int = 1 << 20) -> ImagingError? {
        imagingError { _ = try Inflate.zlib(stream, maximumOutputCount: limit) }
    }

    @Test("headers: not deflate, a window over 32 KiB, a failed check, a preset dictionary: invalidZlibHeader")
    func headers() {
        for header: [UInt8] in [[0x77, 0x01 + 0x1d], [0x88, 0x1c], [0x78, 0x02], [0x78, 0xbb]] {
            #expect(Self.inflate(header + [3, 0, 0, 0, 0, 1])?.code == .invalidZlibHeader, "\(header)")
        }
    }

    @Test("cut anywhere: truncated")
    func truncated() {
        let stream = Deflate.zlib(Array("hello hello hello".utf8))
        for length in 0..<stream.count {
            #expect(Self.inflate(Array(stream.prefix(length)))?.code == .truncated, "\(length) bytes")
        }
        // A stored block that claims more than there is.
        #expect(Self.inflate([0x78, 0x01, 0x01, 0x10, 0x00, 0xef, 0xff, 1, 2])?.code == .truncated)
    }

    @Test("block type 3: invalidBlockType")
    func blockType() {
        var bits = TestBitWriter()
        bits.write(1, bits: 1)
        bits.write(3, bits: 2)
        #expect(Self.inflate(bits.zlib())?.code == .invalidBlockType)
    }

    @Test("a stored block whose length and complement disagree: storedLengthMismatch")
    func stored() {
        #expect(
            Self.inflate([0x78, 0x01, 0x01, 0x01, 0x00, 0x00, 0x00, 0x41, 0, 0x42, 0, 0x42])?.code
                == .storedLengthMismatch)
    }

    /// A dynamic block's header: HLIT, HDIST, HCLEN and the code-length code's lengths in RFC order.
    static func dynamicHeader(literals: Int, distances: Int, codeLengths: [Int]) -> TestBitWriter {
        var bits = TestBitWriter()
        bits.write(1, bits: 1)
        bits.write(2, bits: 2)
        bits.write(literals - 257, bits: 5)
        bits.write(distances - 1, bits: 5)
        bits.write(codeLengths.count - 4, bits: 4)
        for length in codeLengths { bits.write(length, bits: 3) }
        return bits
    }

    @Test("dynamic code lengths that make no code: invalidHuffmanCode")
    func huffman() {
        // The code-length code over-subscribed: four codes of length 1.
        let over = Self.dynamicHeader(literals: 257, distances: 1, codeLengths: [1, 1, 1, 1])
        #expect(Self.inflate(over.zlib())?.code == .invalidHuffmanCode)
        // Incomplete: one code of length 2.
        let incomplete = Self.dynamicHeader(literals: 257, distances: 1, codeLengths: [2, 0, 0, 0])
        #expect(Self.inflate(incomplete.zlib())?.code == .invalidHuffmanCode)
        // Symbols 16 and 0 with one-bit codes (order 16, 17, 18, 0): a repeat (16) before any length.
        var repeatFirst = Self.dynamicHeader(literals: 257, distances: 1, codeLengths: [1, 0, 0, 1])
        repeatFirst.code(1, length: 1)  // symbol 16 (codes: 0 → symbol 0, 1 → symbol 16)
        repeatFirst.write(0, bits: 2)
        #expect(Self.inflate(repeatFirst.zlib())?.code == .invalidHuffmanCode)
        // Symbol 18 (zeros, 11–138) past the 258 lengths declared.
        var tooMany = Self.dynamicHeader(literals: 257, distances: 1, codeLengths: [0, 0, 1, 1])
        tooMany.code(1, length: 1)  // symbol 18 (codes: 0 → symbol 0, 1 → symbol 18)
        tooMany.write(127, bits: 7)  // 138 zeros
        tooMany.code(1, length: 1)
        tooMany.write(127, bits: 7)  // 276 > 258
        #expect(Self.inflate(tooMany.zlib())?.code == .invalidHuffmanCode)
        // All 258 lengths zero: no end-of-block code.
        var noEnd = Self.dynamicHeader(literals: 257, distances: 1, codeLengths: [0, 0, 1, 1])
        noEnd.code(1, length: 1)
        noEnd.write(127, bits: 7)  // 138 zeros
        noEnd.code(1, length: 1)
        noEnd.write(109, bits: 7)  // 120 more: 258
        #expect(Self.inflate(noEnd.zlib())?.code == .invalidHuffmanCode)
    }

    /// Canonical Huffman codes (RFC 1951 3.2.2) for `lengths`, most significant bit first as `TestBitWriter.code`
    /// writes them.
    static func canonicalCodes(_ lengths: [Int]) -> [Int] {
        var counts = [Int](repeating: 0, count: 16)
        for length in lengths where length > 0 { counts[length] += 1 }
        var next = [Int](repeating: 0, count: 16)
        var code = 0
        for length in 1..<16 {
            code = (code + counts[length - 1]) << 1
            next[length] = code
        }
        return lengths.map { length in
            guard length > 0 else { return 0 }
            defer { next[length] += 1 }
            return next[length]
        }
    }

    @Test("a dynamic code with every length from 1 to 15 bits inflates, whole and cut short (second-level tables)")
    func longCodes() throws {
        // Literals 65…79 get codes of 1…15 bits, end-of-block the other 15-bit code; one distance code of 1 bit.
        var literalLengths = [Int](repeating: 0, count: 257)
        for length in 1...15 { literalLengths[64 + length] = length }
        literalLengths[256] = 15
        let literalCodes = Self.canonicalCodes(literalLengths)
        // The code-length code: symbols 0–15 with 4-bit codes (code = symbol), 16–18 unused.
        var bits = Self.dynamicHeader(
            literals: 257, distances: 1, codeLengths: [0, 0, 0] + [Int](repeating: 4, count: 16))
        for length in literalLengths + [1] { bits.code(length, length: 4) }
        var expected: [UInt8] = []
        var state: UInt32 = 1
        for _ in 0..<3000 {
            state = state &* 1_103_515_245 &+ 12345
            // Mostly the long codes, so that the fast loop meets them many times.
            let pick = Int(state >> 16)
            let length = pick % 4 == 0 ? pick / 4 % 15 + 1 : 11 + pick / 4 % 5
            expected.append(UInt8(64 + length))
            bits.code(literalCodes[64 + length], length: length)
        }
        bits.code(literalCodes[256], length: 15)
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in expected {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        let adler = b << 16 | a
        let stream = bits.zlib(adler: [24, 16, 8, 0].map { UInt8(adler >> UInt32($0) & 0xff) })
        #expect(try Inflate.zlib(stream, maximumOutputCount: expected.count) == expected)
        // Cut in the last 40 bytes, where the fast loop hands over to the bit-by-bit one.
        for length in (stream.count - 40)..<stream.count {
            #expect(Self.inflate(Array(stream.prefix(length)))?.code == .truncated, "\(length) bytes")
        }
        #expect(Self.inflate(stream, limit: expected.count - 1)?.code == .limitExceeded)
    }

    @Test("reserved literal/length and distance symbols: invalidSymbol")
    func symbols() {
        var length286 = TestBitWriter()
        length286.write(1, bits: 1)
        length286.write(1, bits: 2)
        length286.code(0xc0 + 6, length: 8)  // fixed code of 286
        #expect(Self.inflate(length286.zlib())?.code == .invalidSymbol)
        var distance30 = TestBitWriter()
        distance30.write(1, bits: 1)
        distance30.write(1, bits: 2)
        distance30.code(0x30 + 65, length: 8)  // literal 'A'
        distance30.code(1, length: 7)  // length 3
        distance30.code(30, length: 5)
        #expect(Self.inflate(distance30.zlib())?.code == .invalidSymbol)
    }

    @Test("a back-reference before the start: invalidDistance")
    func distance() {
        var bits = TestBitWriter()
        bits.write(1, bits: 1)
        bits.write(1, bits: 2)
        bits.code(0x30 + 65, length: 8)  // literal 'A'
        bits.code(1, length: 7)  // length 3
        bits.code(1, length: 5)  // distance 2, one byte written so far
        #expect(Self.inflate(bits.zlib())?.code == .invalidDistance)
    }

    @Test("a wrong Adler-32: adler32Mismatch; bytes after the stream: trailingData")
    func trailer() {
        var stream = Deflate.zlib(Array("payload".utf8))
        #expect(Self.inflate(stream + [0])?.code == .trailingData)
        stream[stream.count - 2] ^= 0x10
        #expect(Self.inflate(stream)?.code == .adler32Mismatch)
    }

    @Test("a decompression bomb stops at the limit: limitExceeded")
    func bomb() {
        let bomb = Deflate.zlib([UInt8](repeating: 0, count: 1 << 22))
        #expect(Self.inflate(bomb, limit: 1 << 16)?.code == .limitExceeded)
        let stored = Deflate.zlib(Array(deflaterSamples()[2].prefix(1000)))
        #expect(Self.inflate(stored, limit: 999)?.code == .limitExceeded)
        #expect(Self.inflate(Deflate.zlib([1]), limit: 0)?.code == .limitExceeded)
    }
}
