import TransferKitPlatform
public import UniformTypes

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Text reads from every plain-text type and writes UTF-8 plain text, as `NSString` does on Apple platforms.
///
/// Reading decodes by the registered type: `public.utf8-plain-text` as UTF-8, `public.utf16-plain-text` as UTF-16
/// (a byte-order mark, if present, decides the byte order; otherwise little-endian), and any other plain-text type
/// by its byte-order mark, else as UTF-8. A leading byte-order mark is never part of the text. To decode bytes
/// that arrived with a MIME type, pass its `charset` parameter to `String.init(transferData:type:charset:)`.
///
/// ```swift
/// let provider = TransferProvider(data: Data("hello".utf8), type: .plainText)
/// let text = try await provider.loadObject(ofClass: String.self)   // "hello"
/// ```
extension String: TransferProviderReading, TransferProviderWriting {
    /// UTF-8, UTF-16 with and without byte-order mark, then any plain text.
    public static var readableTypes: [UniformType] {
        [.utf8PlainText, .utf16ExternalPlainText, .utf16PlainText, .plainText]
    }

    /// `public.utf8-plain-text`.
    public static var writableTypes: [UniformType] { [.utf8PlainText] }

    /// Decodes text; see `String.init(transferData:type:charset:)`.
    ///
    /// - Throws: ``TransferError`` with ``TransferError/Code/decodingFailed`` when the bytes are not valid in the
    ///   encoding.
    public static func object(from data: Data, type: UniformType) throws -> String {
        try String(transferData: data, type: type)
    }

    /// The text as UTF-8 without a byte-order mark.
    public func loadData(for type: UniformType, progress: TransferProgress) async throws -> Data {
        Data(utf8)
    }

    /// Decodes text of a plain-text type, or of a MIME `charset`.
    ///
    /// ```swift
    /// try String(transferData: Data([0xFF, 0xFE, 0x68, 0x00]), type: .plainText)           // "h"
    /// try String(transferData: bytes, type: .plainText, charset: "ISO-8859-1")
    /// ```
    ///
    /// - Parameters:
    ///   - data: The bytes.
    ///   - type: Their type; it decides the encoding unless `charset` is given.
    ///   - charset: A MIME `charset` parameter, such as `utf-16le` or `iso-8859-1`; `nil` to go by the type.
    /// - Throws: ``TransferError`` with ``TransferError/Code/decodingFailed`` when the bytes are not valid in the
    ///   encoding, or the charset is unknown.
    public init(transferData data: Data, type: UniformType, charset: String? = nil) throws {
        let bytes = [UInt8](data)
        if let charset {
            guard let encoding = Self.encoding(charset: charset) else {
                throw TransferError(
                    code: .decodingFailed,
                    message: "The charset '\(charset)' of the \(type) text is not one TransferKit decodes; "
                        + "use UTF-8, UTF-16 (LE/BE), UTF-32, US-ASCII or ISO-8859-1.",
                    source: type.identifier)
            }
            self = try Self.decode(bytes, encoding: encoding, type: type)
            return
        }
        let encoding: String.Encoding
        let body: ArraySlice<UInt8>
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            (encoding, body) = (.utf8, bytes.dropFirst(3))
        } else if bytes.starts(with: [0xFF, 0xFE]) {
            (encoding, body) = (.utf16LittleEndian, bytes.dropFirst(2))
        } else if bytes.starts(with: [0xFE, 0xFF]) {
            (encoding, body) = (.utf16BigEndian, bytes.dropFirst(2))
        } else if type == .utf16PlainText || type == .utf16ExternalPlainText {
            (encoding, body) = (.utf16LittleEndian, bytes[...])
        } else {
            (encoding, body) = (.utf8, bytes[...])
        }
        self = try Self.decode(Array(body), encoding: encoding, type: type)
    }

    private static func decode(_ bytes: [UInt8], encoding: String.Encoding, type: UniformType) throws -> String {
        if encoding == .utf8 {
            if let text = String(validating: bytes, as: UTF8.self) {
                return text
            }
        } else if !(encoding.isUTF16 && bytes.count % 2 == 1), let text = String(bytes: bytes, encoding: encoding) {
            return text
        }
        throw TransferError(
            code: .decodingFailed,
            message: "The \(bytes.count) bytes of \(type) are not valid \(encoding) text; "
                + "check the sender's encoding or register the text with its charset.",
            source: type.identifier)
    }

    /// The encoding a MIME charset names (case-insensitively), if TransferKit knows it.
    static func encoding(charset: String) -> String.Encoding? {
        switch charset.trimming(.whitespaces).trimming(ScalarSet("\"")).lowercased() {
        case "utf-8", "utf8": .utf8
        case "utf-16", "utf16": .utf16
        case "utf-16le": .utf16LittleEndian
        case "utf-16be": .utf16BigEndian
        case "utf-32": .utf32
        case "utf-32le": .utf32LittleEndian
        case "utf-32be": .utf32BigEndian
        case "us-ascii", "ascii": .ascii
        case "iso-8859-1", "latin1", "iso_8859-1": .isoLatin1
        default: nil
        }
    }
}

extension String.Encoding {
    fileprivate var isUTF16: Bool {
        self == .utf16 || self == .utf16LittleEndian || self == .utf16BigEndian
    }
}
