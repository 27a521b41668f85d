#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads and writes Windows BMP files: uncompressed 1-, 4-, 8-bit (palette), 16-, 24- and 32-bit, with bit-field
/// masks (`BI_BITFIELDS`, `BI_ALPHABITFIELDS`); writes 24-bit with a 40-byte header, or 32-bit with a
/// `BITMAPV4HEADER` and an alpha mask when a pixel is not opaque.
enum BMPCodec {
    private static func readLE(_ bytes: [UInt8], _ at: Int, _ count: Int) -> UInt32 {
        var value: UInt32 = 0
        for index in (0..<count).reversed() { value = value << 8 | UInt32(bytes[at + index]) }
        return value
    }

    private static func truncated(_ what: String, at offset: Int) -> ImagingError {
        ImagingError(code: .truncated, message: "the BMP ends inside its \(what)", offset: offset)
    }

    static func decode(_ bytes: [UInt8], limits: ImageLimits) throws(ImagingError) -> RGBAImage {
        guard bytes.count >= 2, bytes[0] == 0x42, bytes[1] == 0x4d else {
            throw ImagingError(code: .unrecognizedFormat, message: "the input does not start with BMP's 'BM'")
        }
        guard bytes.count >= 18 else { throw truncated("file header", at: bytes.count) }
        let pixelOffset = Int(readLE(bytes, 10, 4))
        let headerSize = Int(readLE(bytes, 14, 4))
        guard [40, 52, 56, 108, 124].contains(headerSize) else {
            throw ImagingError(
                code: .unsupportedFeature,
                message: "a BMP info header of \(headerSize) bytes (only 40, 52, 56, 108 and 124 are read)",
                offset: 14)
        }
        guard bytes.count >= 14 + headerSize else { throw truncated("info header", at: bytes.count) }
        let width = Int(Int32(bitPattern: readLE(bytes, 18, 4)))
        let rawHeight = Int(Int32(bitPattern: readLE(bytes, 22, 4)))
        let topDown = rawHeight < 0
        let height = abs(rawHeight)
        let bitCount = Int(readLE(bytes, 28, 2))
        let compression = readLE(bytes, 30, 4)
        _ = try limits.check(width: width, height: height, format: "BMP")
        guard readLE(bytes, 26, 2) == 1 else {
            throw ImagingError(code: .invalidHeader, message: "a BMP's plane count is not 1", offset: 26)
        }
        guard [1, 4, 8, 16, 24, 32].contains(bitCount) else {
            throw ImagingError(
                code: .invalidHeader, message: "a BMP of \(bitCount) bits per pixel", offset: 28)
        }
        // Masks: in the V2+ header, or after a 40-byte header for BI_BITFIELDS (3) and BI_ALPHABITFIELDS (6).
        var masks: [UInt32]
        var paletteStart = 14 + headerSize
        switch compression {
        case 0:
            masks = bitCount == 16 ? [0x7c00, 0x03e0, 0x001f, 0] : [0x00ff_0000, 0x0000_ff00, 0x0000_00ff, 0]
        case 3, 6:
            guard bitCount == 16 || bitCount == 32 else {
                throw ImagingError(
                    code: .invalidHeader, message: "bit-field masks on a \(bitCount)-bit BMP", offset: 30)
            }
            let maskCount = compression == 6 || headerSize >= 56 ? 4 : 3
            let maskStart = 14 + 40
            if headerSize == 40 { paletteStart += maskCount * 4 }
            guard bytes.count >= maskStart + maskCount * 4 else { throw truncated("colour masks", at: bytes.count) }
            masks = (0..<maskCount).map { readLE(bytes, maskStart + $0 * 4, 4) }
            if maskCount == 3 { masks.append(0) }
        default:
            throw ImagingError(
                code: .unsupportedFeature,
                message: "BMP compression \(compression) (RLE, JPEG or PNG inside) is not read; only uncompressed",
                offset: 30)
        }
        var palette: [UInt8] = []
        if bitCount <= 8 {
            let used = Int(readLE(bytes, 46, 4))
            let entries = used == 0 ? 1 << bitCount : used
            guard entries <= 1 << bitCount else {
                throw ImagingError(
                    code: .invalidPalette, message: "a \(bitCount)-bit BMP with \(entries) colours", offset: 46)
            }
            guard paletteStart + entries * 4 <= bytes.count else { throw truncated("palette", at: bytes.count) }
            for index in 0..<entries {
                let at = paletteStart + index * 4
                palette.append(contentsOf: [bytes[at + 2], bytes[at + 1], bytes[at], 255])
            }
        }
        let rowBytes = (width * bitCount + 31) / 32 * 4
        guard pixelOffset >= 14 + headerSize, pixelOffset <= bytes.count,
            rowBytes * height <= bytes.count - pixelOffset
        else {
            throw ImagingError(
                code: .truncated,
                message: "the BMP's pixels (\(rowBytes * height) bytes from \(pixelOffset)) "
                    + "run past the end of the input", offset: bytes.count)
        }
        var output = [UInt8](repeating: 0, count: width * height * 4)
        let fields = masks.map(MaskField.init)
        let paletteCount = palette.count / 4
        // One branch per row on the bit count, not per pixel: an 8192² 1-bit file is 64 Mi pixels.
        for row in 0..<height {
            let source = pixelOffset + (topDown ? row : height - 1 - row) * rowBytes
            var target = row * width * 4
            switch bitCount {
            case 1, 4, 8:
                let mask = 1 << bitCount - 1
                for x in 0..<width {
                    let bit = x * bitCount
                    let index = Int(bytes[source + bit / 8]) >> (8 - bitCount - bit % 8) & mask
                    guard index < paletteCount else {
                        throw ImagingError(
                            code: .invalidPalette,
                            message: "a pixel names colour \(index) of the BMP's \(paletteCount)",
                            offset: source + bit / 8)
                    }
                    output[target] = palette[index * 4]
                    output[target + 1] = palette[index * 4 + 1]
                    output[target + 2] = palette[index * 4 + 2]
                    output[target + 3] = palette[index * 4 + 3]
                    target += 4
                }
            case 24:
                for x in 0..<width {
                    output[target] = bytes[source + x * 3 + 2]
                    output[target + 1] = bytes[source + x * 3 + 1]
                    output[target + 2] = bytes[source + x * 3]
                    output[target + 3] = 255
                    target += 4
                }
            default:
                let size = bitCount / 8
                for x in 0..<width {
                    let value = readLE(bytes, source + x * size, size)
                    for channel in 0..<3 { output[target + channel] = fields[channel].value(value) }
                    // Without an alpha mask (BI_RGB, or bit fields of three colours) the fourth byte is unused.
                    output[target + 3] = fields[3].mask == 0 ? 255 : fields[3].value(value)
                    target += 4
                }
            }
        }
        return RGBAImage(checkedWidth: width, height: height, pixels: output)
    }

    /// One colour mask: where its bits are and how to scale them to 8 bits.
    private struct MaskField {
        let mask: UInt32
        let shift: UInt32
        let maximum: UInt32

        init(_ mask: UInt32) {
            self.mask = mask
            shift = mask == 0 ? 0 : UInt32(mask.trailingZeroBitCount)
            maximum = mask == 0 ? 0 : mask >> shift
        }

        func value(_ pixel: UInt32) -> UInt8 {
            guard maximum > 0 else { return 0 }
            let raw = UInt64((pixel & mask) >> shift)
            return UInt8((raw * 255 + UInt64(maximum) / 2) / UInt64(maximum))
        }
    }

    /// The file, written in place into its final buffer (one allocation of the file's size).
    static func encode(_ image: RGBAImage) -> Data {
        let opaque = image.isOpaque
        let bitCount = opaque ? 24 : 32
        let headerSize = opaque ? 40 : 108
        let rowBytes = (image.width * bitCount + 31) / 32 * 4
        let pixelOffset = 14 + headerSize
        let fileSize = pixelOffset + rowBytes * image.height
        var header: [UInt8] = [0x42, 0x4d]
        func le(_ value: Int, _ count: Int) {
            for index in 0..<count { header.append(UInt8(truncatingIfNeeded: value >> (index * 8))) }
        }
        le(fileSize, 4)
        le(0, 4)
        le(pixelOffset, 4)
        le(headerSize, 4)
        le(image.width, 4)
        le(image.height, 4)  // positive: bottom-up, as most readers expect
        le(1, 2)
        le(bitCount, 2)
        le(opaque ? 0 : 3, 4)  // BI_RGB, or BI_BITFIELDS with the masks below
        le(rowBytes * image.height, 4)
        le(2835, 4)  // 72 dpi
        le(2835, 4)
        le(0, 4)
        le(0, 4)
        if !opaque {
            for mask in [0x00ff_0000, 0x0000_ff00, 0x0000_00ff, 0xff00_0000] { le(mask, 4) }
            le(0x7352_4742, 4)  // LCS_sRGB ("sRGB")
            header.append(contentsOf: repeatElement(0, count: 48))  // endpoints and gamma, unused with sRGB
        }
        // Data(count:) is zeroed, so the rows' padding needs no writing.
        var file = Data(count: fileSize)
        file.withUnsafeMutableBytes { (target: UnsafeMutableRawBufferPointer) in
            target.copyBytes(from: header)
            image.pixels.withUnsafeBufferPointer { pixels in
                let width = image.width
                let bytesPerPixel = bitCount / 8
                for row in 0..<image.height {
                    var at = pixelOffset + (image.height - 1 - row) * rowBytes
                    var from = row * width * 4
                    for _ in 0..<width {
                        target[at] = pixels[from + 2]
                        target[at + 1] = pixels[from + 1]
                        target[at + 2] = pixels[from]
                        if !opaque { target[at + 3] = pixels[from + 3] }
                        at += bytesPerPixel
                        from += 4
                    }
                }
            }
        }
        return file
    }
}
