import Foundation
import Testing
import TransferKitTestSupport

@testable import TransferImaging

/// Records how the streaming inflater hands its bytes on.
struct RecordingSink: InflateSink {
    var pieces = 0
    var largestPiece = 0
    var total = 0
    var nonZero = 0

    mutating func consume(_ bytes: ArraySlice<UInt8>) throws(ImagingError) {
        pieces += 1
        largestPiece = max(largestPiece, bytes.count)
        total += bytes.count
        nonZero += bytes.count { $0 != 0 }
    }
}

@Suite("Decompression bombs and hostile headers (issue 35)", .timeLimit(.minutes(5)))
struct ImageBombTests {
    @Test("an IHDR claiming 2³¹−1 × 2³¹−1 pixels over a 420 KB bomb is limitExceeded before any inflating")
    func hugeHeader() throws {
        // The IDAT is a real bomb too: it would inflate to 64 MiB.
        let file = png([
            pngChunk("IHDR", pngHeader(width: 0x7fff_ffff, height: 0x7fff_ffff, depth: 16, colourType: 6)),
            pngChunk("IDAT", zeroBomb(count: 64 << 20)),
        ])
        #expect(file.count < 500_000)
        let error = imagingError { _ = try RGBAImage(decoding: file, as: .png) }
        #expect(error?.code == .limitExceeded)
        #expect(error?.message.contains("ImageLimits.maximumPixelCount") == true)
    }

    @Test("a 64 × 64 grey PNG whose 1.7 MB IDAT inflates to 256 MiB stops at the header's 4 160 bytes: imageDataLength")
    func bombStopsAtHeaderSize() throws {
        let file = png([
            pngChunk("IHDR", pngHeader(width: 64, height: 64, depth: 8, colourType: 0)),
            pngChunk("IDAT", zeroBomb(count: 256 << 20)),
        ])
        let error = imagingError { _ = try RGBAImage(decoding: file, as: .png) }
        #expect(error?.code == .imageDataLength)
    }

    @Test("a stream that inflates to exactly the header's size decodes, read in pieces of at most 128 KiB")
    func exactBombDecodes() throws {
        // 16-bit RGBA: 8 bytes a pixel inflated, 4 decoded; 512 × 512 is 2 MiB of image data.
        let width = 512
        let expected = (width * 8 + 1) * width
        let stream = zeroBomb(count: expected)
        let image = try RGBAImage(
            decoding: png([
                pngChunk("IHDR", pngHeader(width: UInt32(width), height: UInt32(width), depth: 16, colourType: 6)),
                pngChunk("IDAT", stream),
            ]), as: .png)
        #expect(image.width == width)
        #expect(image.pixels.allSatisfy { $0 == 0 })
        // The inflater holds its 32 KiB window and hands the rest on, never the whole 2 MiB.
        let sink = try Inflate.zlib(stream, maximumOutputCount: expected, into: RecordingSink())
        #expect(sink.total == expected)
        #expect(sink.largestPiece <= 128 << 10)
        #expect(sink.pieces >= expected / (128 << 10))
        // One byte less allowed: the same stream is limitExceeded, and the sink saw no more than the limit.
        let error = imagingError {
            _ = try Inflate.zlib(stream, maximumOutputCount: expected - 1, into: RecordingSink())
        }
        #expect(error?.code == .limitExceeded)
    }

    @Test("a valid stream of random bytes inflates the same streamed as collected (window and back-references)")
    func streamedEqualsCollected() throws {
        var generator = SystemRandomNumberGenerator()
        // Repetitive enough for back-references across the 128 KiB hand-on boundary.
        let words = (0..<64).map { _ in
            (0..<Int.random(in: 3...40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        }
        var sample: [UInt8] = []
        while sample.count < 600_000 { sample += words[Int.random(in: 0..<words.count, using: &generator)] }
        let stream = Deflate.zlib(sample)
        #expect(try Inflate.zlib(stream, maximumOutputCount: sample.count) == sample)
        let sink = try Inflate.zlib(stream, maximumOutputCount: sample.count, into: RecordingSink())
        #expect(sink.total == sample.count)
        #expect(sink.nonZero == sample.count { $0 != 0 })
    }

    @Test("a PAM header line of 1 MB is invalidHeader with a message of at most a few hundred characters")
    func pamMessageIsCapped() throws {
        let line = String(repeating: "X", count: 1 << 20)
        let file = Data("P7\nWIDTH 1\n\(line)\nENDHDR\n".utf8)
        let error = imagingError { _ = try RGBAImage(decoding: file, as: .pam) }
        #expect(error?.code == .invalidHeader)
        #expect((error?.message.count ?? .max) < 300)
        #expect(error?.message.contains("1048576 bytes") == true)
        // The tuple type too, and a control character is escaped, not echoed raw.
        let tuple = "TUPLTYPE \u{0}" + String(repeating: "Y", count: 1 << 20)
        let typed = Data("P7\nWIDTH 1\nHEIGHT 1\nDEPTH 1\nMAXVAL 255\n\(tuple)\nENDHDR\n\u{0}".utf8)
        let unsupported = imagingError { _ = try RGBAImage(decoding: typed, as: .pam) }
        #expect(unsupported?.code == .unsupportedFeature)
        #expect((unsupported?.message.count ?? .max) < 300)
        #expect(unsupported?.message.contains("\u{0}") == false)
    }

    @Test("the decoded-size bound read from a header: PNG and BMP from their dimensions, the others from their length")
    func decodedByteCountBound() throws {
        let png = png([pngChunk("IHDR", pngHeader(width: 300, height: 200, depth: 16, colourType: 6))])
        #expect(ImageFormat.png.decodedByteCountBound(of: png) == 300 * 200 * 4)
        let image = try RGBAImage(width: 3, height: 2, pixels: [UInt8](repeating: 7, count: 24))
        #expect(ImageFormat.bmp.decodedByteCountBound(of: image.encoded(as: .bmp)) == 24)
        let ppm = image.encoded(as: .ppm)
        #expect(ImageFormat.ppm.decodedByteCountBound(of: ppm) == ppm.count * 4)
        #expect(ImageFormat.png.decodedByteCountBound(of: Data([0x89])) == 0)
    }
}
