package import Foundation
package import TransferKit
package import UniformTypes

/// UTF-8 text, read and written unchanged: the reader `transferkit check` uses for
/// `public.utf8-plain-text` and the types that conform to it.
package struct PlainText: TransferProviderReading, TransferProviderWriting, Hashable {
    /// The text.
    package var text: String

    /// Creates a value holding `text`.
    package init(_ text: String) {
        self.text = text
    }

    /// `public.utf8-plain-text`.
    package static var readableTypes: [UniformType] { [.utf8PlainText] }
    /// `public.utf8-plain-text`.
    package static var writableTypes: [UniformType] { [.utf8PlainText] }

    /// Decodes UTF-8 bytes.
    /// - Throws: ``TransferError`` with code `decodingFailed` when the bytes are not valid UTF-8.
    package static func object(from data: Data, type: UniformType) throws -> PlainText {
        guard let text = String(data: data, encoding: .utf8) else {
            throw TransferError(
                code: .decodingFailed, message: "The \(type.identifier) bytes are not valid UTF-8 text.")
        }
        return PlainText(text)
    }

    /// The text as UTF-8.
    package func loadData(for type: UniformType, progress: TransferProgress) async throws -> Data {
        progress.finish()
        return Data(text.utf8)
    }
}
