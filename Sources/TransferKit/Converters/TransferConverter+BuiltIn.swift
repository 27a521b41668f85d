public import UniformTypes

extension UniformType {
    /// Latin-1 (ISO 8859-1) text, `org.transferkit.latin1-plain-text` (`text/plain;charset=iso-8859-1`), which the
    /// built-in converters read and write; it conforms to `public.plain-text`.
    public static var latin1PlainText: UniformType { UniformType(exportedAs: "org.transferkit.latin1-plain-text") }
}

extension TransferConverter {
    /// TransferKit's built-in converters, which ``TransferConverterRegistry/shared`` starts with: the text
    /// converters (``textConverters``).
    public static var builtIn: [TransferConverter] { textConverters }

    /// The built-in text converters, each reading and writing the types named:
    /// - `public.utf8-plain-text` ⇄ `public.utf16-external-plain-text` (UTF-16 with a byte-order mark: written
    ///   little-endian, as `iconv -t UTF-16` does here; read in the mark's order, big-endian without one, as Apple
    ///   declares the type), lossless;
    /// - `public.utf8-plain-text` ⇄ `public.utf16-plain-text` (UTF-16 in the platform's order, little-endian,
    ///   without a mark; a mark is honoured when read), lossless;
    /// - `org.transferkit.latin1-plain-text` → `public.utf8-plain-text`, lossless, and back, lossy (a character
    ///   beyond U+00FF becomes `?`).
    ///
    /// Text that is not valid in its encoding fails the load with `TransferError.Code.conversionFailed`.
    public static var textConverters: [TransferConverter] {
        [
            transcoding(.utf8PlainText, .utf8, to: .utf16ExternalPlainText, .utf16(order: .littleEndian, mark: true)),
            transcoding(.utf16ExternalPlainText, .utf16(order: .bigEndian, mark: false), to: .utf8PlainText, .utf8),
            transcoding(.utf8PlainText, .utf8, to: .utf16PlainText, .utf16(order: .littleEndian, mark: false)),
            transcoding(.utf16PlainText, .utf16(order: .littleEndian, mark: false), to: .utf8PlainText, .utf8),
            transcoding(.latin1PlainText, .latin1, to: .utf8PlainText, .utf8),
            transcoding(.utf8PlainText, .utf8, to: .latin1PlainText, .latin1, cost: .lossy),
        ]
    }

    private static func transcoding(
        _ source: UniformType, _ input: TextEncoding, to destination: UniformType, _ output: TextEncoding,
        cost: Cost = .lossless
    ) -> TransferConverter {
        TransferConverter(from: source, to: destination, cost: cost) {
            TextTranscoding(from: input, to: output)
        }
    }
}
