import Foundation
import Testing
import TransferImaging

/// A BMP file: the 14-byte file header, an info header of `headerSize` bytes (fields from the arguments, the rest
/// zero), `extra` (masks, palette), then `pixels` (rows already padded, in file order).
func bmpFile(
    width: Int32, height: Int32, bitCount: UInt16, compression: UInt32 = 0, headerSize: UInt32 = 40,
    colorsUsed: UInt32 = 0, planes: UInt16 = 1, masks: [UInt32] = [], extra: [UInt8] = [], pixels: [UInt8]
) -> Data {
    func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
    func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xff), UInt8(value >> 8)] }
    var info = le32(headerSize) + le32(UInt32(bitPattern: width)) + le32(UInt32(bitPattern: height))
    info += le16(planes) + le16(bitCount) + le32(compression) + le32(UInt32(pixels.count)) + le32(2835) + le32(2835)
    info += le32(colorsUsed) + le32(0)
    info += masks.flatMap(le32)
    info += [UInt8](repeating: 0, count: max(0, Int(headerSize) - info.count))
    let offset = UInt32(14 + info.count + extra.count)
    let header: [UInt8] = [0x42, 0x4d] + le32(offset + UInt32(pixels.count)) + le32(0) + le32(offset)
    return Data(header + info + extra + pixels)
}

@Suite("BMP, PPM and PAM: known pixels, round trips, every malformed input", .timeLimit(.minutes(5)))
struct BMPAndNetpbmTests {
    static let red: [UInt8] = [255, 0, 0, 255]
    static let green: [UInt8] = [0, 255, 0, 255]
    static let blue: [UInt8] = [0, 0, 255, 255]
    static let white: [UInt8] = [255, 255, 255, 255]

    @Test("a 24-bit bottom-up BMP: rows padded to 4 bytes, BGR")
    func bmp24() throws {
        let file = bmpFile(
            width: 2, height: 2, bitCount: 24,
            pixels: [255, 0, 0, 255, 255, 255, 0, 0] + [0, 0, 255, 0, 255, 0, 0, 0])
        #expect(ImageFormat(sniffing: file) == .bmp)
        let image = try RGBAImage(decoding: file, as: .bmp)
        #expect(image.pixels == Self.red + Self.green + Self.blue + Self.white)
    }

    @Test("8-bit and 1-bit palettes, with fewer colours than the depth allows")
    func palettes() throws {
        let eight = bmpFile(
            width: 3, height: 1, bitCount: 8, colorsUsed: 2, extra: [0, 0, 0, 0, 30, 20, 10, 0], pixels: [1, 0, 1, 0])
        #expect(try RGBAImage(decoding: eight, as: .bmp).pixels == [10, 20, 30, 255, 0, 0, 0, 255, 10, 20, 30, 255])
        let one = bmpFile(
            width: 3, height: 1, bitCount: 1, extra: [0, 0, 0, 0, 255, 255, 255, 0], pixels: [0b1010_0000, 0, 0, 0])
        #expect(try RGBAImage(decoding: one, as: .bmp).pixels == Self.white + [0, 0, 0, 255] + Self.white)
    }

    @Test("32-bit with an alpha mask (BITMAPV4HEADER, top-down), 32-bit bit fields without alpha, 16-bit 5-6-5")
    func bitFields() throws {
        let masks: [UInt32] = [0x00ff_0000, 0x0000_ff00, 0x0000_00ff, 0xff00_0000]
        let v4 = bmpFile(
            width: 2, height: -1, bitCount: 32, compression: 3, headerSize: 108, masks: masks,
            pixels: [3, 2, 1, 128, 0, 0, 255, 0])
        #expect(try RGBAImage(decoding: v4, as: .bmp).pixels == [1, 2, 3, 128, 255, 0, 0, 0])
        let noAlpha = bmpFile(
            width: 1, height: 1, bitCount: 32, compression: 3, extra: [0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 0],
            pixels: [9, 8, 7, 0])
        #expect(try RGBAImage(decoding: noAlpha, as: .bmp).pixels == [7, 8, 9, 255])
        let rgb565 = bmpFile(
            width: 1, height: 1, bitCount: 16, compression: 3, extra: [0, 0xf8, 0, 0, 0xe0, 0x07, 0, 0, 0x1f, 0, 0, 0],
            pixels: [0x1f, 0xf8, 0, 0])  // red 31, green 0, blue 31
        #expect(try RGBAImage(decoding: rgb565, as: .bmp).pixels == [255, 0, 255, 255])
    }

    @Test("the BMP writer: 24-bit for opaque images, 32-bit with an alpha mask otherwise, both read back")
    func bmpWriter() throws {
        let opaque = try RGBAImage(
            width: 3, height: 2, pixels: Array((Self.red + Self.green + Self.blue + Self.white + Self.red + Self.green))
        )
        let file = [UInt8](opaque.encoded(as: .bmp))
        #expect(file[28] == 24)
        #expect(file.count == 14 + 40 + 2 * 12)
        #expect(try RGBAImage(decoding: Data(file), as: .bmp) == opaque)
        let translucent = try RGBAImage(width: 1, height: 1, pixels: [1, 2, 3, 4])
        let alpha = [UInt8](translucent.encoded(as: .bmp))
        #expect(alpha[28] == 32)
        #expect(try RGBAImage(decoding: Data(alpha), as: .bmp) == translucent)
        // Every pixel fully transparent: the alpha mask is trusted, not taken for an unused byte (PNGFuzzer's finding).
        let clear = try RGBAImage(width: 2, height: 1, pixels: [0, 0, 0, 0, 9, 9, 9, 0])
        #expect(try RGBAImage(decoding: clear.encoded(as: .bmp), as: .bmp) == clear)
    }

    static func bmpError(_ file: Data, limits: ImageLimits = .default) -> ImagingError? {
        imagingError { _ = try RGBAImage(decoding: file, as: .bmp, limits: limits) }
    }

    @Test("malformed BMPs: each with its code")
    func bmpErrors() {
        let good = bmpFile(width: 1, height: 1, bitCount: 24, pixels: [1, 2, 3, 0])
        #expect(Self.bmpError(Data("PK".utf8))?.code == .unrecognizedFormat)
        #expect(Self.bmpError(good.prefix(10))?.code == .truncated)
        #expect(Self.bmpError(good.prefix(40))?.code == .truncated)
        #expect(Self.bmpError(good.prefix(good.count - 1))?.code == .truncated)
        #expect(
            Self.bmpError(bmpFile(width: 1, height: 1, bitCount: 8, colorsUsed: 2, extra: [0, 0, 0, 0], pixels: []))?
                .code == .truncated)
        #expect(
            Self.bmpError(bmpFile(width: 1, height: 1, bitCount: 8, compression: 1, pixels: [0, 0, 0, 0]))?.code
                == .unsupportedFeature)
        #expect(
            Self.bmpError(bmpFile(width: 1, height: 1, bitCount: 24, headerSize: 12, pixels: [0, 0, 0, 0]))?.code
                == .unsupportedFeature)
        #expect(Self.bmpError(bmpFile(width: 1, height: 1, bitCount: 7, pixels: [0, 0, 0, 0]))?.code == .invalidHeader)
        #expect(
            Self.bmpError(bmpFile(width: 1, height: 1, bitCount: 24, planes: 2, pixels: [0, 0, 0, 0]))?.code
                == .invalidHeader)
        #expect(Self.bmpError(bmpFile(width: 0, height: 1, bitCount: 24, pixels: []))?.code == .invalidHeader)
        #expect(
            Self.bmpError(bmpFile(width: 1, height: 1, bitCount: 24, compression: 3, pixels: [0, 0, 0, 0]))?.code
                == .invalidHeader)
        #expect(
            Self.bmpError(
                bmpFile(width: 1, height: 1, bitCount: 8, colorsUsed: 1, extra: [0, 0, 0, 0], pixels: [1, 0, 0, 0]))?
                .code == .invalidPalette)
        #expect(
            Self.bmpError(
                bmpFile(
                    width: 1, height: 1, bitCount: 1, colorsUsed: 3, extra: [UInt8](repeating: 0, count: 12),
                    pixels: [0, 0, 0, 0]))?.code == .invalidPalette)
        #expect(Self.bmpError(good, limits: ImageLimits(maximumPixelCount: 0))?.code == .limitExceeded)
        #expect(
            Self.bmpError(bmpFile(width: 100_000, height: 100_000, bitCount: 24, pixels: []))?.code == .limitExceeded)
    }

    // MARK: Netpbm

    @Test("PPM (P6) with comments and a 16-bit maximum; PAM (P7) of every tuple type read")
    func netpbmRead() throws {
        let ppm = Data("P6\n# a comment\n2 1\n255\n".utf8) + Data([1, 2, 3, 4, 5, 6])
        #expect(ImageFormat(sniffing: ppm) == .ppm)
        #expect(try RGBAImage(decoding: ppm, as: .ppm).pixels == [1, 2, 3, 255, 4, 5, 6, 255])
        let deep = Data("P6 1 1 65535 ".utf8) + Data([0xff, 0xff, 0x80, 0x80, 0, 0])
        #expect(try RGBAImage(decoding: deep, as: .ppm).pixels == [255, 128, 0, 255])
        let small = Data("P6 1 1 3\n".utf8) + Data([3, 1, 0])
        #expect(try RGBAImage(decoding: small, as: .ppm).pixels == [255, 85, 0, 255])
        let cases: [(String, [UInt8], [UInt8])] = [
            ("RGB_ALPHA", [1, 2, 3, 4], [1, 2, 3, 4]), ("RGB", [1, 2, 3], [1, 2, 3, 255]),
            ("GRAYSCALE_ALPHA", [7, 8], [7, 7, 7, 8]), ("GRAYSCALE", [9], [9, 9, 9, 255]),
        ]
        for (tuple, samples, pixel) in cases {
            let header =
                "P7\n# made by hand\nWIDTH 1\nHEIGHT 1\nDEPTH \(samples.count)\nMAXVAL 255\nTUPLTYPE \(tuple)\nENDHDR\n"
            let pam = Data(header.utf8) + Data(samples)
            #expect(ImageFormat(sniffing: pam) == .pam)
            #expect(try RGBAImage(decoding: pam, as: .pam).pixels == pixel, "\(tuple)")
        }
    }

    @Test("the Netpbm writers' exact headers")
    func netpbmWrite() throws {
        let image = try RGBAImage(width: 1, height: 1, pixels: [1, 2, 3, 4])
        #expect(image.encoded(as: .ppm) == Data("P6\n1 1\n255\n".utf8) + Data([1, 2, 3]))
        let pam = "P7\nWIDTH 1\nHEIGHT 1\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n"
        #expect(image.encoded(as: .pam) == Data(pam.utf8) + Data([1, 2, 3, 4]))
    }

    static func netpbmError(
        _ text: String, _ samples: [UInt8] = [], as format: ImageFormat, limits: ImageLimits = .default
    ) -> ImagingError? {
        imagingError { _ = try RGBAImage(decoding: Data(text.utf8) + Data(samples), as: format, limits: limits) }
    }

    @Test("malformed PPM and PAM: each with its code")
    func netpbmErrors() {
        #expect(Self.netpbmError("P5 1 1 255 ", [0], as: .ppm)?.code == .unrecognizedFormat)
        #expect(Self.netpbmError("P6 1 1 255 ", [0], as: .pam)?.code == .unrecognizedFormat)
        #expect(Self.netpbmError("P6 1 1 255 ", [0, 0], as: .ppm)?.code == .truncated)
        #expect(Self.netpbmError("P6 1 1", as: .ppm)?.code == .truncated)
        #expect(Self.netpbmError("P6 1 1 255", as: .ppm)?.code == .truncated)
        #expect(Self.netpbmError("P6 1 x 255 ", as: .ppm)?.code == .invalidHeader)
        #expect(Self.netpbmError("P6 1 1 0 ", [0, 0, 0], as: .ppm)?.code == .invalidHeader)
        #expect(Self.netpbmError("P6 1 1 70000 ", [0, 0, 0], as: .ppm)?.code == .invalidHeader)
        #expect(Self.netpbmError("P6 1 1 3 ", [0, 4, 0], as: .ppm)?.code == .invalidHeader)
        #expect(Self.netpbmError("P6 0 1 255 ", as: .ppm)?.code == .invalidHeader)
        #expect(Self.netpbmError("P6 1234567890 1 255 ", as: .ppm)?.code == .invalidHeader)
        #expect(Self.netpbmError("P6 100000 100000 255 ", as: .ppm)?.code == .limitExceeded)
        #expect(
            Self.netpbmError("P6 2 1 255 ", [0, 0, 0, 0, 0, 0], as: .ppm, limits: ImageLimits(maximumPixelCount: 1))?
                .code == .limitExceeded)
        let pam = "P7\nWIDTH 1\nHEIGHT 1\nDEPTH 4\nMAXVAL 255\n"
        #expect(Self.netpbmError(pam + "TUPLTYPE RGB_ALPHA\n", as: .pam)?.code == .truncated)
        #expect(Self.netpbmError(pam + "TUPLTYPE BLACKANDWHITE\nENDHDR\n", [0], as: .pam)?.code == .unsupportedFeature)
        #expect(Self.netpbmError(pam + "TUPLTYPE RGB\nENDHDR\n", [0, 0, 0, 0], as: .pam)?.code == .invalidHeader)
        #expect(
            Self.netpbmError(pam + "COLOUR red\nTUPLTYPE RGB_ALPHA\nENDHDR\n", [0, 0, 0, 0], as: .pam)?.code
                == .invalidHeader)
        #expect(
            Self.netpbmError("P7\nWIDTH 1\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n", [0, 0, 0, 0], as: .pam)?
                .code == .invalidHeader)
        #expect(Self.netpbmError(pam + "TUPLTYPE RGB_ALPHA\nENDHDR\n", [0, 0, 0], as: .pam)?.code == .truncated)
    }

    @Test("sniffing names nothing it does not know")
    func sniffing() {
        #expect(ImageFormat(sniffing: [UInt8]("GIF89a".utf8)) == nil)
        #expect(ImageFormat(sniffing: [UInt8]()) == nil)
    }
}
