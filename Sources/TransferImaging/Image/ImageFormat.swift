#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// An image file format that ``RGBAImage`` decodes and encodes.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable {
    /// PNG (ISO/IEC 15948): every colour type and bit depth, palettes, transparency (`tRNS`), Adam7 interlacing.
    case png
    /// Windows BMP: 24- and 32-bit (with bit-field masks, alpha included), 16-bit bit fields, 1-, 4- and 8-bit
    /// palettes; uncompressed only.
    case bmp
    /// Netpbm's PPM (`P6`): binary RGB, a maximum sample value up to 65 535.
    case ppm
    /// Netpbm's PAM (`P7`): tuple types `RGB_ALPHA`, `RGB`, `GRAYSCALE` and `GRAYSCALE_ALPHA`.
    case pam
    /// The pixel buffer itself, for programs that want pixels: the width and the height as 32-bit little-endian
    /// integers, then ``RGBAImage/pixels`` (4 bytes per pixel, rows from the top, no padding). It has no signature,
    /// so ``init(sniffing:)`` never returns it.
    case rgbaPixels

    /// The format whose signature `bytes` start with, or nil.
    public init?(sniffing bytes: some Collection<UInt8>) {
        let prefix = Array(bytes.prefix(8))
        if prefix == PNGDecoder.signature {
            self = .png
        } else if prefix.starts(with: [0x42, 0x4d]) {
            self = .bmp
        } else if prefix.starts(with: [0x50, 0x36]) {
            self = .ppm
        } else if prefix.starts(with: [0x50, 0x37]) {
            self = .pam
        } else {
            return nil
        }
    }

    /// An upper bound of the RGBA bytes (4 a pixel) a file of this format decodes to, read from its header alone
    /// (PNG's `IHDR`, BMP's info header) or, for the formats whose pixels are all in the file (PPM, PAM, the pixel
    /// buffer), from its length; 0 for a header too short to tell (the decoder then fails before it allocates).
    package func decodedByteCountBound(of data: Data) -> Int {
        func dimensionsProduct(_ width: Int, _ height: Int) -> Int {
            guard width > 0, height > 0 else { return 0 }
            let (area, overflow) = width.multipliedReportingOverflow(by: height)
            return overflow || area > Int.max / 4 ? Int.max : area * 4
        }
        let bytes = data.prefix(26).map { Int($0) }
        switch self {
        case .png:
            guard bytes.count >= 24 else { return 0 }
            let width = bytes[16] << 24 | bytes[17] << 16 | bytes[18] << 8 | bytes[19]
            let height = bytes[20] << 24 | bytes[21] << 16 | bytes[22] << 8 | bytes[23]
            return dimensionsProduct(width, height)
        case .bmp:
            guard bytes.count >= 26 else { return 0 }
            let width = Int(Int32(truncatingIfNeeded: bytes[18] | bytes[19] << 8 | bytes[20] << 16 | bytes[21] << 24))
            let height = Int(Int32(truncatingIfNeeded: bytes[22] | bytes[23] << 8 | bytes[24] << 16 | bytes[25] << 24))
            return dimensionsProduct(width, abs(height))
        case .ppm, .pam:
            // At least one byte a pixel is in the file (a one-sample PAM), so no more than 4 bytes a byte of file.
            let (bound, overflow) = data.count.multipliedReportingOverflow(by: 4)
            return overflow ? Int.max : bound
        case .rgbaPixels:
            return data.count
        }
    }
}
