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
}
