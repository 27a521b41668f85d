@_exported public import TransferKitErrors

/// An error from decoding an image (PNG, BMP, PPM, PAM) or the zlib stream inside a PNG.
///
/// Compare errors by `code`; `message` says what went wrong, `offset` where (a byte offset into the image file, or
/// into the zlib stream for the zlib codes).
///
/// ```swift
/// do {
///     let image = try RGBAImage(decoding: bytes, as: .png)
/// } catch where error.code == .checksumMismatch {
///     print("damaged PNG: \(error.message)")
/// }
/// ```
public typealias ImagingError = DomainError<ImagingErrorDomain>

/// The domain of ``ImagingError``.
public enum ImagingErrorDomain: ErrorDomain {
    /// `"ImagingError"`.
    public static var name: String { "ImagingError" }
}

extension ErrorCode where Domain == ImagingErrorDomain {
    /// The input ended before the image (or its zlib stream) did.
    public static var truncated: Self { Self("truncated") }

    /// The input does not start like the format it was decoded as (PNG signature, `BM`, `P6`, `P7`).
    public static var unrecognizedFormat: Self { Self("unrecognizedFormat") }

    /// The image's header is invalid: zero or negative dimensions, a colour type and bit depth PNG does not
    /// combine, an unknown compression, filter or interlace method, a bad PPM/PAM header field.
    public static var invalidHeader: Self { Self("invalidHeader") }

    /// The image is valid but uses something this decoder does not read (a BMP compressed with RLE, an unknown
    /// critical PNG chunk, a PAM tuple type other than RGB, RGB_ALPHA, GRAYSCALE or GRAYSCALE_ALPHA).
    public static var unsupportedFeature: Self { Self("unsupportedFeature") }

    /// A PNG chunk's CRC-32 does not match its type and data: the file was damaged.
    public static var checksumMismatch: Self { Self("checksumMismatch") }

    /// PNG chunks are missing, repeated or out of order (no `IHDR` first, no `IDAT`, `PLTE` after `IDAT`,
    /// `IDAT`s not consecutive), or an ancillary chunk the decoder reads (`tRNS`) has the wrong length.
    public static var invalidChunk: Self { Self("invalidChunk") }

    /// A PNG `PLTE` chunk is missing (colour type 3), empty, longer than 256 entries or not a multiple of three
    /// bytes, or a pixel names a palette entry that does not exist (PNG or BMP).
    public static var invalidPalette: Self { Self("invalidPalette") }

    /// A PNG row names a filter type other than 0–4.
    public static var invalidFilter: Self { Self("invalidFilter") }

    /// The PNG's decompressed image data is shorter or longer than its header's dimensions need.
    public static var imageDataLength: Self { Self("imageDataLength") }

    /// The image has more pixels than ``ImageLimits/maximumPixelCount``, or a zlib stream would inflate past its
    /// output limit (a decompression bomb stops here, not at the memory's end).
    public static var limitExceeded: Self { Self("limitExceeded") }

    /// A zlib header is invalid: a compression method other than deflate, a window over 32 KiB, a failed header
    /// check, or a preset dictionary (which PNG forbids).
    public static var invalidZlibHeader: Self { Self("invalidZlibHeader") }

    /// A deflate block has the reserved block type 3.
    public static var invalidBlockType: Self { Self("invalidBlockType") }

    /// A stored deflate block's length is not the complement of its check field.
    public static var storedLengthMismatch: Self { Self("storedLengthMismatch") }

    /// A dynamic deflate block's code lengths do not make a valid Huffman code (over-subscribed or incomplete,
    /// a repeat with nothing to repeat, more lengths than symbols, no end-of-block code).
    public static var invalidHuffmanCode: Self { Self("invalidHuffmanCode") }

    /// A deflate stream holds a code that names no symbol, or a reserved literal/length or distance symbol.
    public static var invalidSymbol: Self { Self("invalidSymbol") }

    /// A deflate back-reference reaches before the start of the output.
    public static var invalidDistance: Self { Self("invalidDistance") }

    /// The zlib stream's Adler-32 does not match the inflated bytes.
    public static var adler32Mismatch: Self { Self("adler32Mismatch") }

    /// Bytes follow the end of a zlib stream where none may.
    public static var trailingData: Self { Self("trailingData") }
}
