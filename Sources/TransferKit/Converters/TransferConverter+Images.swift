import TransferImaging
public import UniformTypes

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension UniformType {
    /// Netpbm's binary PPM (`P6`), `org.transferkit.ppm` (`.ppm`, `image/x-portable-pixmap`), which the built-in
    /// image converters read and write; it conforms to `public.image`.
    public static var ppm: UniformType { UniformType(exportedAs: "org.transferkit.ppm") }

    /// Netpbm's PAM (`P7`), `org.transferkit.pam` (`.pam`, `image/x-transferkit-pam`: the shared-mime-info
    /// database names no PAM type), which the built-in image converters read and write (as `RGB_ALPHA`); it conforms
    /// to `public.image`.
    public static var pam: UniformType { UniformType(exportedAs: "org.transferkit.pam") }

    /// Decoded pixels, `org.transferkit.rgba-pixels`, for programs that want pixels rather than a file format: the
    /// width and the height as 32-bit little-endian integers, then 8-bit RGBA samples, 4 bytes per pixel, rows from
    /// the top, no padding. It conforms to `public.image` and has no extension or MIME type.
    public static var rgbaPixels: UniformType { UniformType(exportedAs: "org.transferkit.rgba-pixels") }
}

extension TransferConverter {
    /// The image formats the built-in image converters connect, with their uniform types.
    private static let imageFormats: [(format: ImageFormat, type: UniformType)] = [
        (.png, .png), (.bmp, .bmp), (.pam, .pam), (.ppm, .ppm), (.rgbaPixels, .rgbaPixels),
    ]

    /// The built-in image converters: one from each of PNG, BMP, PAM (`UniformType.pam`), PPM
    /// (`UniformType.ppm`) and the pixel buffer (`UniformType.rgbaPixels`) to each of the others, so no
    /// image conversion needs a chain.
    ///
    /// Each decodes its whole input into pixels (at most 2²⁶ of them, `ImageLimits.default`) and encodes them again,
    /// pure Swift (PNG's zlib included). Between PNG, BMP, PAM and the pixel buffer every 8-bit pixel stays as it was
    /// (``Cost/lossless``; a 16-bit PNG arrives at 8 bits); to PPM, which has no alpha, transparency is dropped
    /// (``Cost/lossy``), so PPM is offered after the others; from PPM nothing is lost (``Cost/lossless``). Input that
    /// does not decode fails the load with `TransferError.Code.conversionFailed`, its `cause` the imaging error that
    /// says why.
    ///
    /// Memory: before it decodes, a conversion reserves three times the image's decoded size (4 bytes a pixel, from
    /// the file's header: the pixels, the encoded file and its copy) plus the input's size from the process-wide
    /// ``imageMemoryBudget`` (1.5 GiB by default), and gives them back when it ends. A streaming conversion (a
    /// provider's derived representation, a paste, `convert-type`) waits for earlier ones to finish; the synchronous
    /// `convert(_:)` of `Data` fails when the budget is in use. An image that needs more than the whole budget fails
    /// with `conversionFailed`, its cause `ImagingError` `limitExceeded`, without decoding.
    public static var imageConverters: [TransferConverter] { makeImageConverters(budget: .shared) }

    /// The built-in image converters, reserving their memory from `budget`.
    static func makeImageConverters(budget: ImageMemoryBudget) -> [TransferConverter] {
        imageFormats.flatMap { source in
            imageFormats.filter { $0.format != source.format }.map { destination in
                TransferConverter(
                    from: source.type, to: destination.type, cost: destination.format == .ppm ? .lossy : .lossless
                ) {
                    ImageConversion(source: source.format, destination: destination.format, budget: budget)
                }
            }
        }
    }

    /// How many bytes image conversions running at the same time may reserve together: 1.5 GiB (1 536 MiB) by
    /// default.
    ///
    /// Every built-in image converter of the process shares it (see ``imageConverters``). The default holds one image
    /// at the decoders' 64 Mi pixel limit (768 MiB) with an input file of up to 768 MiB (an uncompressed 8192² BMP is
    /// 256 MiB), or several smaller images. Lower it for a process that serves many pastes in little memory (an image
    /// that needs more than the budget then fails), raise it to let more large images convert at once. Conversions that wait are admitted when it is
    /// raised; waiting ones larger than a lowered budget fail.
    public static var imageMemoryBudget: Int {
        get { ImageMemoryBudget.shared.limit }
        set { ImageMemoryBudget.shared.limit = newValue }
    }
}

/// One image conversion: collects the file, then reserves its memory, decodes and encodes.
struct ImageConversion: AdmittedConversion {
    let source: ImageFormat
    let destination: ImageFormat
    let budget: ImageMemoryBudget
    var input = Data()

    mutating func convert(_ chunk: Data) throws -> Data {
        input.append(chunk)
        return Data()
    }

    /// What the conversion reserves: the decoded pixels, the encoded file and its copy into `Data`, and the input's
    /// copy the decoder reads, the decoded size capped at the decoders' limit.
    var cost: Int {
        // A header over the decoders' limit fails before it allocates; PPM's and PAM's bound (from their length)
        // can exceed the limit for a file within it.
        let decoded = min(source.decodedByteCountBound(of: input), ImageLimits.default.maximumPixelCount * 4)
        return decoded * 3 + input.count
    }

    mutating func finish() throws -> Data {
        let cost = cost
        try budget.reserveNow(cost)
        defer { budget.release(cost) }
        return try convertInput()
    }

    mutating func finishAdmitted() async throws -> Data {
        let cost = cost
        try await budget.reserve(cost)
        defer { budget.release(cost) }
        return try convertInput()
    }

    private mutating func convertInput() throws -> Data {
        defer { input = Data() }
        return try RGBAImage(decoding: input, as: source).encoded(as: destination)
    }
}
