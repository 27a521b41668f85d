public import Foundation
public import TransferKit
public import UniformTypes

/// UTF-8 text, read and written unchanged: the reader `transferkit check` uses for
/// `public.utf8-plain-text` and the types that conform to it.
public struct PlainText: TransferProviderReading, TransferProviderWriting, Hashable {
    /// The text.
    public var text: String

    /// Creates a value holding `text`.
    public init(_ text: String) {
        self.text = text
    }

    /// `public.utf8-plain-text`.
    public static var readableTypes: [UniformType] { [.utf8PlainText] }
    /// `public.utf8-plain-text`.
    public static var writableTypes: [UniformType] { [.utf8PlainText] }

    /// Decodes UTF-8 bytes.
    /// - Throws: ``TransferError`` with code `decodingFailed` when the bytes are not valid UTF-8.
    public static func object(from data: Data, type: UniformType) throws -> PlainText {
        guard let text = String(data: data, encoding: .utf8) else {
            throw TransferError(
                code: .decodingFailed, message: "The \(type.identifier) bytes are not valid UTF-8 text.")
        }
        return PlainText(text)
    }

    /// The text as UTF-8.
    public func loadData(for type: UniformType, progress: TransferProgress) async throws -> Data {
        progress.finish()
        return Data(text.utf8)
    }
}
