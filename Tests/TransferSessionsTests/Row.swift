import Foundation
import TransferKit
import UniformTypes

extension UniformType {
    static let sessionTestRow = UniformType(exportedAs: "com.example.sessions.row", conformingTo: .json)
}

/// A list row as the seeds have them: an identity, a title and a stored order.
struct Row: TransferCodable, Identifiable, Hashable, CustomStringConvertible {
    var id: String
    var title: String
    var order: Int = 0

    static var contentType: UniformType { .sessionTestRow }

    var description: String { id }
}

/// A row that fails to decode when its title says so, for drops that fail while loading.
extension Row {
    static func provider(for row: Row) -> TransferProvider {
        let provider = TransferProvider()
        _ = provider.registerDataRepresentation(for: .sessionTestRow, visibility: .all) { _ in
            if row.title == "undecodable" {
                return Data("not json".utf8)
            }
            return try JSONEncoder().encode(row)
        }
        return provider
    }
}
