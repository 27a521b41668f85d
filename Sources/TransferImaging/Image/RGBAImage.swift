#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A decoded image: 8-bit red, green, blue and alpha per pixel (straight, not premultiplied alpha), rows top to
/// bottom, pixels left to right, 4 bytes each with no padding.
///
/// Every format of ``ImageFormat`` decodes to it and encodes from it, so it is also the way between them:
///
/// ```swift
/// let image = try RGBAImage(decoding: pngBytes, as: .png)
/// let bmp = image.encoded(as: .bmp)
/// let pixel = image.pixel(x: 0, y: 0)  // (red: …, green: …, blue: …, alpha: …)
/// ```
///
/// Deeper samples (16-bit PNG, PPM with a maximum value other than 255) are scaled to 8 bits with rounding; lower
/// bit depths and palettes expand to 8 bits, grey to equal red, green and blue.
public struct RGBAImage: Sendable, Hashable {
    /// The width in pixels (at least 1).
    public let width: Int
    /// The height in pixels (at least 1).
    public let height: Int
    /// `width × height × 4` bytes: red, green, blue, alpha for each pixel, row by row from the top.
    public private(set) var pixels: [UInt8]

    /// An image from its RGBA bytes.
    ///
    /// - Throws: ``ImagingError`` `invalidHeader` when a dimension is below 1 or `pixels` does not hold
    ///   exactly `width × height × 4` bytes.
    public init(width: Int, height: Int, pixels: [UInt8]) throws(ImagingError) {
        guard width >= 1, height >= 1 else {
            throw ImagingError(code: .invalidHeader, message: "an image of \(width)×\(height) pixels has no pixels")
        }
        let (area, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, area <= Int.max / 4, pixels.count == area * 4 else {
            throw ImagingError(
                code: .invalidHeader,
                message: "\(pixels.count) bytes are not the 4 × \(width) × \(height) of an RGBA image")
        }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// An image from dimensions the decoders have checked.
    init(checkedWidth width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The pixel at column `x`, row `y` (0, 0 is the top left), or nil outside the image.
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8)? {
        guard (0..<width).contains(x), (0..<height).contains(y) else { return nil }
        let at = (y * width + x) * 4
        return (pixels[at], pixels[at + 1], pixels[at + 2], pixels[at + 3])
    }

    /// Whether every pixel's alpha is 255.
    public var isOpaque: Bool {
        var index = 3
        while index < pixels.count {
            if pixels[index] != 255 { return false }
            index += 4
        }
        return true
    }

    /// Decodes an image file.
    ///
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - format: its format (``ImageFormat/init(sniffing:)`` tells it from the first bytes).
    ///   - limits: how large an image may be.
    /// - Throws: ``ImagingError`` with the code that says what is wrong with the file.
    public init(decoding data: Data, as format: ImageFormat, limits: ImageLimits = .default) throws(ImagingError) {
        let bytes = [UInt8](data)
        switch format {
        case .png: self = try PNGDecoder.decode(bytes, limits: limits)
        case .bmp: self = try BMPCodec.decode(bytes, limits: limits)
        case .ppm, .pam: self = try PNMCodec.decode(bytes, as: format, limits: limits)
        case .rgbaPixels: self = try Self.decodePixelBuffer(bytes, limits: limits)
        }
    }

    /// The image as a file of `format`.
    ///
    /// PNG, BMP, PAM and the pixel buffer keep every pixel exactly (PNG as 8-bit RGB or RGBA, BMP as 24-bit, or 32-bit with an alpha
    /// mask when a pixel is not opaque, PAM as `RGB_ALPHA`); PPM has no alpha and drops it.
    public func encoded(as format: ImageFormat) -> Data {
        switch format {
        case .png: Data(PNGEncoder.encode(self))
        case .bmp: BMPCodec.encode(self)
        case .ppm, .pam: PNMCodec.encode(self, as: format)
        case .rgbaPixels: pixelBuffer()
        }
    }

    /// ``ImageFormat/rgbaPixels``: the dimensions as 32-bit little-endian integers, then the pixels.
    private func pixelBuffer() -> Data {
        var bytes = Data(capacity: 8 + pixels.count)
        for value in [width, height] {
            for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) }
        }
        bytes.append(contentsOf: pixels)
        return bytes
    }

    private static func decodePixelBuffer(_ bytes: [UInt8], limits: ImageLimits) throws(ImagingError) -> RGBAImage {
        guard bytes.count >= 8 else {
            throw ImagingError(
                code: .truncated, message: "a pixel buffer of \(bytes.count) bytes ends inside its 8-byte header",
                offset: bytes.count)
        }
        func word(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << ($1 * 8) } }
        let width = word(0)
        let height = word(4)
        let area = try limits.check(width: width, height: height, format: "pixel buffer")
        guard bytes.count - 8 >= area * 4 else {
            throw ImagingError(
                code: .truncated,
                message: "a pixel buffer of \(width)×\(height) needs \(area * 4) bytes of pixels, "
                    + "\(bytes.count - 8) follow its header",
                offset: bytes.count)
        }
        guard bytes.count - 8 == area * 4 else {
            throw ImagingError(
                code: .invalidHeader,
                message: "\(bytes.count - 8 - area * 4) bytes follow the pixels of a \(width)×\(height) pixel buffer",
                offset: 8 + area * 4)
        }
        return RGBAImage(checkedWidth: width, height: height, pixels: Array(bytes[8...]))
    }
}
