import Foundation
import Testing
import TransferImaging

@Suite(
    "PNG: golden files from Python's zlib decode to their pixels; round trips; every malformed input",
    .timeLimit(.minutes(5)))
struct PNGTests {
    @Test(
        "every colour type, bit depth, interlacing, palette and tRNS decodes to the pixels make_fixtures.py computed",
        arguments: goldenPNGNames())
    func golden(name: String) throws {
        let file = try Data(contentsOf: imagingResource("valid/\(name).png"))
        let expected = try [UInt8](Data(contentsOf: imagingResource("valid/\(name).rgba")))
        #expect(ImageFormat(sniffing: file) == .png)
        let image = try RGBAImage(decoding: file, as: .png)
        #expect(image.pixels.count == image.width * image.height * 4)
        #expect(image.pixels == expected)
    }

    @Test("the fixtures are all there (a missing index would make the golden test run no case)")
    func fixturesExist() {
        #expect(goldenPNGNames().count >= 50)
    }

    @Test(
        "decoded golden images encode to PNG, BMP and PAM and decode to the same pixels; PPM keeps all but alpha",
        arguments: goldenPNGNames())
    func roundTrips(name: String) throws {
        let image = try RGBAImage(decoding: Data(contentsOf: imagingResource("valid/\(name).png")), as: .png)
        for format in [ImageFormat.png, .bmp, .pam, .rgbaPixels] {
            let encoded = image.encoded(as: format)
            #expect(ImageFormat(sniffing: encoded) == (format == .rgbaPixels ? nil : format))
            #expect(try RGBAImage(decoding: encoded, as: format) == image, "\(format)")
        }
        let opaque = try RGBAImage(decoding: image.encoded(as: .ppm), as: .ppm)
        var expected = image.pixels
        for index in stride(from: 3, to: expected.count, by: 4) { expected[index] = 255 }
        #expect(opaque.pixels == expected)
    }

    @Test("pixel(x:y:) reads one pixel, nil outside")
    func pixelAccess() throws {
        let image = try RGBAImage(width: 2, height: 1, pixels: [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(image.pixel(x: 1, y: 0).map { [$0.red, $0.green, $0.blue, $0.alpha] } == [5, 6, 7, 8])
        #expect(image.pixel(x: 2, y: 0) == nil)
        #expect(!image.isOpaque)
    }

    @Test("the pixel buffer: its exact bytes, and each malformed one with its code")
    func pixelBuffer() throws {
        let image = try RGBAImage(width: 2, height: 1, pixels: [1, 2, 3, 4, 5, 6, 7, 8])
        let bytes: [UInt8] = [2, 0, 0, 0, 1, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8]
        #expect(image.encoded(as: .rgbaPixels) == Data(bytes))
        func decode(_ bytes: [UInt8], limits: ImageLimits = .default) -> ImagingError? {
            imagingError { _ = try RGBAImage(decoding: Data(bytes), as: .rgbaPixels, limits: limits) }
        }
        #expect(decode(Array(bytes.prefix(7)))?.code == .truncated)
        #expect(decode(Array(bytes.prefix(15)))?.code == .truncated)
        #expect(decode(bytes + [0])?.code == .invalidHeader)
        #expect(decode([0, 0, 0, 0, 1, 0, 0, 0])?.code == .invalidHeader)
        #expect(decode(bytes, limits: ImageLimits(maximumPixelCount: 1))?.code == .limitExceeded)
        #expect(decode([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff])?.code == .limitExceeded)
    }

    @Test("an RGBAImage of the wrong byte count or no pixels is invalidHeader")
    func badBuffer() {
        #expect(imagingError { _ = try RGBAImage(width: 2, height: 2, pixels: [0, 0, 0]) }?.code == .invalidHeader)
        #expect(imagingError { _ = try RGBAImage(width: 0, height: 2, pixels: []) }?.code == .invalidHeader)
    }

    // MARK: malformed PNGs

    static let oneGreyRow: [UInt8] = [0, 10, 20]

    static func decode(_ data: Data, limits: ImageLimits = .default) -> ImagingError? {
        imagingError { _ = try RGBAImage(decoding: data, as: .png, limits: limits) }
    }

    @Test("the valid base of the malformed cases decodes")
    func base() throws {
        let image = try RGBAImage(decoding: greyPNG(width: 2, height: 1, raw: Self.oneGreyRow), as: .png)
        #expect(image.pixels == [10, 10, 10, 255, 20, 20, 20, 255])
    }

    @Test("no PNG signature: unrecognizedFormat")
    func signature() {
        #expect(Self.decode(Data("GIF89a".utf8))?.code == .unrecognizedFormat)
    }

    @Test("cut short anywhere: truncated")
    func truncated() {
        let whole = greyPNG(width: 2, height: 1, raw: Self.oneGreyRow)
        for length in [9, 12, 20, 33, whole.count - 1] {
            #expect(Self.decode(whole.prefix(length))?.code == .truncated, "\(length) bytes")
        }
    }

    @Test("a damaged chunk: checksumMismatch")
    func checksum() {
        var bytes = [UInt8](greyPNG(width: 2, height: 1, raw: Self.oneGreyRow))
        bytes[17] ^= 1  // inside IHDR's width
        #expect(Self.decode(Data(bytes))?.code == .checksumMismatch)
    }

    @Test("chunks missing, repeated or out of order, or a tRNS of the wrong size: invalidChunk")
    func chunkOrder() {
        let header = pngChunk("IHDR", pngHeader(width: 2, height: 1, depth: 8, colourType: 0))
        let data = pngChunk("IDAT", Deflate.zlib(Self.oneGreyRow))
        let half = Deflate.zlib(Self.oneGreyRow)
        let cases: [[[UInt8]]] = [
            [data, header],  // IHDR not first
            [header],  // no IDAT
            [header, header, data],  // two IHDRs
            [
                header, pngChunk("IDAT", Array(half[..<4])), pngChunk("tEXt", [0x41, 0]),
                pngChunk("IDAT", Array(half[4...])),
            ],
            [header, pngChunk("tRNS", [0, 0, 0]), data],  // grey tRNS is 2 bytes
            [header, data, pngChunk("PLTE", [1, 2, 3])],  // PLTE after IDAT
        ]
        for (index, chunks) in cases.enumerated() {
            #expect(Self.decode(png(chunks))?.code == .invalidChunk, "case \(index)")
        }
        #expect(Self.decode(Data(pngSignature + data + pngChunk("IEND", [])))?.code == .invalidChunk)
    }

    @Test(
        "IHDR fields PNG does not allow: invalidHeader",
        arguments: [
            pngHeader(width: 0, height: 1, depth: 8, colourType: 0),
            pngHeader(width: 1, height: 1, depth: 16, colourType: 3),
            pngHeader(width: 1, height: 1, depth: 4, colourType: 2),
            pngHeader(width: 1, height: 1, depth: 8, colourType: 5),
            pngHeader(width: 1, height: 1, depth: 8, colourType: 0, interlace: 2),
            pngHeader(width: 0x8000_0000, height: 1, depth: 8, colourType: 0),
            Array(pngHeader(width: 1, height: 1, depth: 8, colourType: 0).prefix(12)),
        ])
    func header(fields: [UInt8]) {
        let file = png([pngChunk("IHDR", fields), pngChunk("IDAT", Deflate.zlib([0, 0]))])
        #expect(Self.decode(file)?.code == .invalidHeader)
    }

    @Test("more pixels than the limit: limitExceeded, before any pixel is read")
    func pixelLimit() {
        let file = png([pngChunk("IHDR", pngHeader(width: 100_000, height: 100_000, depth: 8, colourType: 6))])
        #expect(Self.decode(file)?.code == .limitExceeded)
        let small = greyPNG(width: 2, height: 1, raw: Self.oneGreyRow)
        #expect(Self.decode(small, limits: ImageLimits(maximumPixelCount: 1))?.code == .limitExceeded)
    }

    @Test("palettes: missing, of a bad length, an index past the end: invalidPalette")
    func palette() {
        let header = pngChunk("IHDR", pngHeader(width: 2, height: 1, depth: 8, colourType: 3))
        let data = pngChunk("IDAT", Deflate.zlib([0, 0, 1]))
        #expect(Self.decode(png([header, data]))?.code == .invalidPalette)
        #expect(Self.decode(png([header, pngChunk("PLTE", [1, 2, 3, 4]), data]))?.code == .invalidPalette)
        #expect(Self.decode(png([header, pngChunk("PLTE", [1, 2, 3]), data]))?.code == .invalidPalette)
        let image = try? RGBAImage(decoding: png([header, pngChunk("PLTE", [1, 2, 3, 4, 5, 6]), data]), as: .png)
        #expect(image?.pixels == [1, 2, 3, 255, 4, 5, 6, 255])
    }

    @Test("a row filter other than 0–4: invalidFilter")
    func filter() {
        #expect(Self.decode(greyPNG(width: 2, height: 1, raw: [5, 10, 20]))?.code == .invalidFilter)
    }

    @Test("image data shorter or longer than the dimensions need: imageDataLength")
    func dataLength() {
        #expect(Self.decode(greyPNG(width: 2, height: 1, raw: [0, 10]))?.code == .imageDataLength)
        #expect(Self.decode(greyPNG(width: 2, height: 1, raw: [0, 10, 20, 30]))?.code == .imageDataLength)
        // A bomb: 4 MiB of zeros for a 2×1 image stops after the third byte, not at 4 MiB.
        let bomb = Deflate.zlib([UInt8](repeating: 0, count: 1 << 22))
        #expect(bomb.count < 1 << 20)
        let file = png([
            pngChunk("IHDR", pngHeader(width: 2, height: 1, depth: 8, colourType: 0)), pngChunk("IDAT", bomb),
        ])
        #expect(Self.decode(file)?.code == .imageDataLength)
    }

    @Test("an unknown critical chunk: unsupportedFeature; an unknown ancillary one is skipped")
    func unknownChunks() throws {
        let header = pngChunk("IHDR", pngHeader(width: 2, height: 1, depth: 8, colourType: 0))
        let data = pngChunk("IDAT", Deflate.zlib(Self.oneGreyRow))
        #expect(Self.decode(png([header, pngChunk("ABCD", []), data]))?.code == .unsupportedFeature)
        let skipped = try RGBAImage(decoding: png([header, pngChunk("abCD", [1, 2]), data]), as: .png)
        #expect(skipped.width == 2)
    }

    @Test("a broken zlib stream inside IDAT surfaces its own code")
    func zlibInside() {
        var stream = Deflate.zlib(Self.oneGreyRow)
        stream[stream.count - 1] ^= 0xff
        let file = png([
            pngChunk("IHDR", pngHeader(width: 2, height: 1, depth: 8, colourType: 0)), pngChunk("IDAT", stream),
        ])
        #expect(Self.decode(file)?.code == .adler32Mismatch)
    }
}
