import Foundation
import TransferImaging
public import UniformTypes

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
    /// Each decodes its whole input into pixels (at most 2²⁶ of them) and encodes them again, pure Swift (PNG's zlib
    /// included). Between PNG, BMP, PAM and the pixel buffer every 8-bit pixel stays as it was (``Cost/lossless``;
    /// a 16-bit PNG arrives at 8 bits); to PPM, which has no alpha, transparency is dropped (``Cost/lossy``), so
    /// PPM is offered after the others; from PPM nothing is lost (``Cost/lossless``). Input that does not decode
    /// fails the load with `TransferError.Code.conversionFailed`, its `cause` the imaging error that says why.
    public static var imageConverters: [TransferConverter] {
        imageFormats.flatMap { source in
            imageFormats.filter { $0.format != source.format }.map { destination in
                TransferConverter(
                    from: source.type, to: destination.type, cost: destination.format == .ppm ? .lossy : .lossless
                ) { data in
                    try RGBAImage(decoding: data, as: source.format).encoded(as: destination.format)
                }
            }
        }
    }
}
