import TransferKitPlatform
public import UniformTypes

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A URL reads from `public.url` and `public.file-url` (the URL's absolute string as UTF-8, as Apple platforms
/// write it) and from `text/uri-list` (the first URL of the list, as GTK and Qt exchange files); it writes
/// `public.file-url` (file URLs only) and `public.url`.
///
/// ```swift
/// let provider = TransferProvider(object: URL(fileURLWithPath: "/tmp/a.txt"))
/// provider.registeredTypes                                 // [.fileURL, .url]
/// let url = try await provider.loadObject(ofClass: URL.self)
/// ```
extension URL: TransferProviderReading, TransferProviderWriting {
    /// `public.url` (which `public.file-url` conforms to), then `text/uri-list`.
    public static var readableTypes: [UniformType] { [.url, .uriList] }

    /// `public.url`.
    public static var writableTypes: [UniformType] { [.url] }

    /// `public.file-url` and `public.url` for a file URL, else `public.url`.
    public var writableTypes: [UniformType] { isFileURL ? [.fileURL, .url] : [.url] }

    /// Decodes one URL, or the first of a `text/uri-list`.
    ///
    /// - Throws: ``TransferError`` with ``TransferError/Code/decodingFailed`` when the bytes are not a URL, or the
    ///   list holds none.
    public static func object(from data: Data, type: UniformType) throws -> URL {
        if type.conforms(to: .uriList) {
            guard let first = try URL.list(fromURIList: data).first else {
                throw TransferError(
                    code: .decodingFailed, message: "The text/uri-list holds no URL; a drop needs at least one.",
                    source: type.identifier)
            }
            return first
        }
        let text = try String(transferData: data, type: .utf8PlainText).trimming(.whitespacesAndNewlines)
        guard !text.isEmpty, let url = URL(string: text), url.scheme != nil else {
            throw TransferError(
                code: .decodingFailed,
                message: "The \(type) bytes are not an absolute URL (got \(data.count) bytes); "
                    + "a URL representation holds the URL's absolute string as UTF-8.",
                source: type.identifier)
        }
        return url
    }

    /// The absolute string as UTF-8.
    public func loadData(for type: UniformType, progress: TransferProgress) async throws -> Data {
        Data(absoluteString.utf8)
    }

    /// The URLs of a `text/uri-list` (RFC 2483): one per line, CRLF or LF, `#` lines are comments.
    ///
    /// - Parameter data: The list's bytes, UTF-8.
    /// - Returns: The URLs in order.
    /// - Throws: ``TransferError`` with ``TransferError/Code/decodingFailed`` for a line that is not a URL.
    public static func list(fromURIList data: Data) throws -> [URL] {
        let text = try String(transferData: data, type: .uriList, charset: "utf-8")
        return try text.split(whereSeparator: \.isNewline).compactMap { line in
            let entry = line.trimming(.whitespaces)
            guard !entry.isEmpty, !entry.hasPrefix("#") else { return nil }
            guard let url = URL(string: entry), url.scheme != nil else {
                throw TransferError(
                    code: .decodingFailed, message: "'\(entry)' in a text/uri-list is not an absolute URL.",
                    source: UniformType.uriList.identifier)
            }
            return url
        }
    }

    /// A `text/uri-list` of `urls`, CRLF-separated as RFC 2483 asks.
    ///
    /// - Parameter urls: The URLs, typically file URLs of dragged files.
    /// - Returns: The list's bytes.
    public static func uriList(_ urls: [URL]) -> Data {
        Data(urls.map { $0.absoluteString + "\r\n" }.joined().utf8)
    }
}

extension UniformType {
    /// `text/uri-list`, the list of URLs that GTK and Qt put on the clipboard and in drags of files: the type the
    /// catalogue gives that MIME type, the built-in `org.transferkit.uri-list` (which conforms to `public.file-url`
    /// and `public.text`).
    public static var uriList: UniformType {
        UniformType(mimeType: "text/uri-list") ?? UniformType(exportedAs: "org.freedesktop.uri-list")
    }
}

/// A list of URLs — the files of a drag, as GTK and Qt exchange them — reads from `text/uri-list` (or a single
/// `public.url`) and writes `text/uri-list`.
///
/// ```swift
/// let provider = TransferProvider(object: [fileA, fileB])     // text/uri-list, CRLF-separated
/// let files = try await provider.loadObject(ofClass: [URL].self)
/// ```
extension Array: TransferProviderReading, TransferProviderWriting where Element == URL {
    /// `text/uri-list`, then one `public.url`.
    public static var readableTypes: [UniformType] { [.uriList, .url] }

    /// `text/uri-list`.
    public static var writableTypes: [UniformType] { [.uriList] }

    /// The URLs of a `text/uri-list`, or the one URL of a URL representation.
    ///
    /// - Throws: ``TransferError`` with ``TransferError/Code/decodingFailed`` for a line or bytes that are not a URL.
    public static func object(from data: Data, type: UniformType) throws -> [URL] {
        type.conforms(to: .uriList) ? try URL.list(fromURIList: data) : [try URL.object(from: data, type: type)]
    }

    /// The URLs as a `text/uri-list`.
    public func loadData(for type: UniformType, progress: TransferProgress) async throws -> Data {
        URL.uriList(self)
    }
}
