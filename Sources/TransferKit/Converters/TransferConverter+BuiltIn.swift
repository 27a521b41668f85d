public import UniformTypes

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension UniformType {
    /// Latin-1 (ISO 8859-1) text, `org.transferkit.latin1-plain-text` (`text/plain;charset=iso-8859-1`), which the
    /// built-in converters read and write; it conforms to `public.plain-text`.
    public static var latin1PlainText: UniformType { UniformType(exportedAs: "org.transferkit.latin1-plain-text") }
}

extension TransferConverter {
    /// TransferKit's built-in converters, which ``TransferConverterRegistry/shared`` starts with: the text
    /// converters (``textConverters``), then the image converters (``imageConverters``).
    public static var builtIn: [TransferConverter] { textConverters + imageConverters }

    /// The built-in text converters, each reading and writing the types named:
    /// - `public.utf8-plain-text` ⇄ `public.utf16-external-plain-text` (UTF-16 with a byte-order mark: written
    ///   little-endian, as `iconv -t UTF-16` does here; read in the mark's order, big-endian without one, as Apple
    ///   declares the type), lossless;
    /// - `public.utf8-plain-text` ⇄ `public.utf16-plain-text` (UTF-16 in the platform's order, little-endian,
    ///   without a mark; a mark is honoured when read), lossless;
    /// - `org.transferkit.latin1-plain-text` → `public.utf8-plain-text`, lossless, and back, lossy (a character
    ///   beyond U+00FF becomes `?`);
    /// - `public.html` → `public.utf8-plain-text`, lossy: tags stripped, character references decoded, block
    ///   elements (`p`, `div`, `li`, `tr`, headings, …) and `br` as line breaks, table cells separated by tabs, white
    ///   space collapsed outside `pre`, and `head`, `script`, `style` and comments left out;
    /// - `public.rtf` → `public.utf8-plain-text`, lossy, for a subset: paragraphs, line breaks, tabs, `\'hh`
    ///   (Windows-1252) and `\uN` characters, the typographic control words; font, colour and style tables,
    ///   `\info`, pictures, headers, footnotes, `{\*\…}` groups, the binary data of `\binN` and NUL characters
    ///   left out; other code pages are not read;
    /// - `org.transferkit.uri-list` (`text/uri-list`) → `public.utf8-plain-text`, a newline list: a path per line for
    ///   a file URL, the URL itself for others; comments left out; converted a line at a time as the list streams.
    ///
    /// Every one writes `\n` line ends where it makes lines. Input that is not valid for the conversion (text that is
    /// not UTF-8 where UTF-8 is read, a document that does not start with `{\rtf`) fails the load with
    /// `TransferError.Code.conversionFailed`. The way back from a newline list (``newlineListToURIList``) and line
    /// endings (``lineEndings(_:for:)``) are not built in, since their source and destination types are the same
    /// kind of plain text: every piece of text would be offered as a URL list.
    public static var textConverters: [TransferConverter] {
        [
            transcoding(.utf8PlainText, .utf8, to: .utf16ExternalPlainText, .utf16(order: .littleEndian, mark: true)),
            transcoding(.utf16ExternalPlainText, .utf16(order: .bigEndian, mark: false), to: .utf8PlainText, .utf8),
            transcoding(.utf8PlainText, .utf8, to: .utf16PlainText, .utf16(order: .littleEndian, mark: false)),
            transcoding(.utf16PlainText, .utf16(order: .littleEndian, mark: false), to: .utf8PlainText, .utf8),
            transcoding(.latin1PlainText, .latin1, to: .utf8PlainText, .utf8),
            transcoding(.utf8PlainText, .utf8, to: .latin1PlainText, .latin1, cost: .lossy),
            TransferConverter(from: .html, to: .utf8PlainText, cost: .lossy) { HTMLText.plainText(fromHTML: $0) },
            TransferConverter(from: .rtf, to: .utf8PlainText, cost: .lossy) { try RTFText.plainText(fromRTF: $0) },
            TransferConverter(from: .uriList, to: .utf8PlainText, cost: .nearlyLossless) { URIListToNewlineList() },
        ]
    }

    /// A newline list (an absolute path or URL per line, as `ls -d "$PWD"/*` or a text editor gives) to a
    /// `text/uri-list`, the way back of the built-in `text/uri-list` → newline list converter.
    ///
    /// Not in ``builtIn``: its source is any UTF-8 text. Register it in a registry of your own, or run it on bytes with
    /// `convert(_:)`. A line that is neither an absolute path nor an absolute URL fails with
    /// `TransferError.Code.conversionFailed`.
    public static var newlineListToURIList: TransferConverter {
        TransferConverter(from: .utf8PlainText, to: .uriList, cost: .nearlyLossless) {
            try FileListText.uriList(fromNewlineList: $0)
        }
    }

    /// How text separates its lines.
    public enum LineEnding: String, Sendable, CaseIterable {
        /// `\n`, as Unix and the web write.
        case lf
        /// `\r\n`, as Windows, RFC 2483's URL lists and most network protocols write.
        case crlf
        /// `\r`, as classic Mac OS wrote.
        case cr

        var bytes: [UInt8] {
            switch self {
            case .lf: [0x0A]
            case .crlf: [0x0D, 0x0A]
            case .cr: [0x0D]
            }
        }
    }

    /// A converter that rewrites every line end (`\n`, `\r\n` or `\r`) of ASCII-compatible text (UTF-8, Latin-1)
    /// as `ending`, streaming.
    ///
    /// Its source and destination are both `type`, so a registry never derives it: run it with `convert(_:)`
    /// or its streaming form, as `transferkit convert-type --line-endings` does.
    ///
    /// - Parameters:
    ///   - ending: The line end to write.
    ///   - type: The text's type; `public.utf8-plain-text` by default.
    /// - Returns: The converter, at cost ``Cost/nearlyLossless``.
    public static func lineEndings(_ ending: LineEnding, for type: UniformType = .utf8PlainText) -> TransferConverter {
        TransferConverter(from: type, to: type, cost: .nearlyLossless) { LineEndingConversion(ending: ending) }
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

/// Rewrites line ends; a `\r` at the end of a chunk waits for the next one, which may start with its `\n`.
struct LineEndingConversion: TransferChunkConversion {
    let ending: TransferConverter.LineEnding
    var pendingReturn = false

    mutating func convert(_ chunk: Data) throws -> Data {
        var out: [UInt8] = []
        out.reserveCapacity(chunk.count + chunk.count / 16)
        for byte in chunk {
            if pendingReturn {
                pendingReturn = false
                out.append(contentsOf: ending.bytes)
                if byte == 0x0A { continue }
            }
            switch byte {
            case 0x0D: pendingReturn = true
            case 0x0A: out.append(contentsOf: ending.bytes)
            default: out.append(byte)
            }
        }
        return Data(out)
    }

    mutating func finish() throws -> Data {
        defer { pendingReturn = false }
        return pendingReturn ? Data(ending.bytes) : Data()
    }
}
