public import Foundation
import TransferImaging

/// The checks the PNG fuzzer runs on one input; its `main.swift` only adapts them to libFuzzer or to corpus replay
/// (see `Fuzz/README.md`).
///
/// Bad input must make the decoders throw ``ImagingError``; anything else is a finding: a crash or ASan report, a
/// hang, memory past libFuzzer's limit, or a broken invariant, which ``violation(_:_:)`` turns into a deliberate
/// trap.
///
/// ```swift
/// ImagingFuzzing.check(Data([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]))
/// ```
public enum ImagingFuzzing {
    /// Small enough that no input of the fuzzer's lengths costs much memory, large enough for real images.
    static let limits = ImageLimits(maximumPixelCount: 1 << 20)
    /// The most bytes the raw zlib check lets a stream inflate to.
    static let inflateLimit = 1 << 22

    /// Runs `input` through the zlib inflater and through the decoder of the image format its first bytes name.
    ///
    /// What inflates must deflate (with the package's own deflater) to a stream that inflates to the same bytes.
    /// What decodes as an image must be within the decoded size its header promised
    /// (`ImageFormat.decodedByteCountBound(of:)`, which the converters' memory budget reserves), and must encode as
    /// PNG, BMP, PAM and the pixel buffer to files that decode to the same pixels, and as PPM to the same pixels made
    /// opaque.
    /// - Parameter input: Any bytes.
    public static func check(_ input: Data) {
        let bytes = [UInt8](input)
        if let inflated = try? Inflate.zlib(bytes, maximumOutputCount: inflateLimit, allowTrailingData: true) {
            let again: [UInt8]
            do {
                again = try Inflate.zlib(Deflate.zlib(inflated), maximumOutputCount: inflated.count)
            } catch {
                violation("the deflated copy of an inflated stream does not inflate: \(error)", bytes)
            }
            guard again == inflated else { violation("deflate then inflate changed the bytes", bytes) }
        }
        // The pixel buffer has no signature: inputs that name no format are read as one.
        let format = ImageFormat(sniffing: bytes) ?? .rgbaPixels
        let image: RGBAImage
        do {
            image = try RGBAImage(decoding: input, as: format, limits: limits)
        } catch {
            return
        }
        // TransferKit's image converters reserve memory by this bound before decoding (issue 35): an image that
        // decodes to more than it said would overdraw the shared budget.
        guard image.pixels.count <= format.decodedByteCountBound(of: input) else {
            violation("the image decodes to more than decodedByteCountBound said", bytes)
        }
        for other in [ImageFormat.png, .bmp, .pam, .rgbaPixels] {
            let decoded: RGBAImage
            do {
                decoded = try RGBAImage(decoding: image.encoded(as: other), as: other, limits: limits)
            } catch {
                violation("a decoded image encoded as \(other) does not decode: \(error)", bytes)
            }
            guard decoded == image else { violation("a decoded image changed through \(other)", bytes) }
        }
        guard let opaque = try? RGBAImage(decoding: image.encoded(as: .ppm), as: .ppm, limits: limits),
            opaque.width == image.width, opaque.height == image.height,
            zip(opaque.pixels, image.pixels).enumerated().allSatisfy({
                $0.offset % 4 == 3 ? $0.element.0 == 255 : $0.element.0 == $0.element.1
            })
        else {
            violation("a decoded image changed through PPM (other than its alpha)", bytes)
        }
    }

    /// Reports a broken invariant to libFuzzer (a trap is how a harness reports a finding).
    static func violation(_ what: String, _ input: some Collection<UInt8>) -> Never {
        fatalError("Imaging invariant broken: \(what) (input of \(input.count) bytes)")
    }
}
