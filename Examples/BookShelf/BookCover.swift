import Foundation
import TransferKit
import UniformTypes

extension UniformType {
    /// A book cover as JSON: this example's own exported type.
    static let bookCover = UniformType(exportedAs: "com.example.book-cover", conformingTo: .json)
}

/// A book on the home screen's shelf (seed 002's `BookCover`, with the `order` that pull request added).
///
/// It is offered in three representations, highest fidelity first: its own JSON type, an XML property list (for
/// apps that read property lists) and the plain-text title (for everything else, such as a text field).
struct BookCover: TransferCodable, Hashable, CustomStringConvertible {
    var title: String
    var author: String
    var category: String
    /// The position on the shelf, 0 first; ``Shelf`` keeps it equal to the index.
    var order: Int

    static var contentType: UniformType { .bookCover }
    static var writableTypes: [UniformType] { [.bookCover, .xmlPropertyList, .utf8PlainText] }
    static var readableTypes: [UniformType] { [.bookCover, .xmlPropertyList, .utf8PlainText] }

    /// `#order title`.
    var description: String { "#\(order) \(title)" }

    func loadData(for type: UniformType, progress: TransferProgress) async throws -> Data {
        switch type {
        case .xmlPropertyList: try Self.propertyList.encode(self)
        case .utf8PlainText: Data(title.utf8)
        default: try transferEncodedData()
        }
    }

    /// Reads the JSON or property-list form, or makes a new, uncategorised cover from a plain-text title dropped
    /// from another app (its order is set where it is inserted).
    static func object(from data: Data, type: UniformType) throws -> BookCover {
        switch type {
        case .xmlPropertyList:
            do {
                return try propertyList.decode(data)
            } catch {
                throw TransferError(
                    code: .decodingFailed, message: "Not a book cover property list: \(error).", cause: error,
                    source: type.identifier)
            }
        case .utf8PlainText:
            return BookCover(title: String(decoding: data, as: UTF8.self), author: "", category: "", order: 0)
        default:
            return try BookCover(transferEncodedData: data)
        }
    }

    private static let propertyList = TransferCoding<BookCover>.propertyList(format: .xml)
}

extension BookCover: Identifiable {
    /// The cover's identity in lists: its title.
    var id: String { title }
}
