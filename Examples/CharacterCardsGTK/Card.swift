#if GTK
    import Foundation
    import TransferKit
    import UniformTypes

    extension UniformType {
        /// A character card as JSON, the type the other card examples export too.
        static let characterCard = UniformType(exportedAs: "com.example.character-card", conformingTo: .json)
    }

    /// Seed 000's character card as a value: JSON for TransferKit apps, its name as plain text for every other
    /// program; made from plain text (a card of that name) or a file (a card named after it) when another program
    /// drops one.
    struct Card: TransferCodable, TransferProviderReading, Identifiable, Hashable {
        var name: String
        var character = ""
        var favorite = ""
        /// Seed 002's category: the tab that shows the card.
        var category = ""
        /// Seed 002's stored order: the card's index in its list, kept by the list.
        var order = 0

        /// The pinned last row of seed 003: it cannot be dragged, and nothing is dropped below it.
        static let addRow = Card(name: "+ New card")

        /// Whether this is the add row.
        var isAddRow: Bool { name == Card.addRow.name }

        init(name: String, category: String = "") {
            self.name = name
            self.category = category
        }

        /// A card from JSON that may lack the fields other card apps do not write.
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            character = try container.decodeIfPresent(String.self, forKey: .character) ?? ""
            favorite = try container.decodeIfPresent(String.self, forKey: .favorite) ?? ""
            category = try container.decodeIfPresent(String.self, forKey: .category) ?? ""
            order = try container.decodeIfPresent(Int.self, forKey: .order) ?? 0
        }

        /// The card's identity in lists: its name.
        var id: String { name }

        static var contentType: UniformType { .characterCard }
        static var writableTypes: [UniformType] { [.characterCard, .utf8PlainText] }
        static var readableTypes: [UniformType] { [.characterCard, .fileURL, .utf8PlainText] }

        func loadData(for type: UniformType, progress: TransferProgress) async throws -> Data {
            type == .utf8PlainText ? Data(name.utf8) : try transferEncodedData()
        }

        static func object(from data: Data, type: UniformType) throws -> Card {
            if type.conforms(to: .characterCard) { return try JSONDecoder().decode(Card.self, from: data) }
            let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if type.conforms(to: .fileURL), let url = URL(string: text), url.isFileURL {
                return Card(name: url.deletingPathExtension().lastPathComponent)
            }
            guard let line = text.split(separator: "\n").first, !line.isEmpty else {
                throw TransferError(
                    code: .decodingFailed, message: "An empty text makes no card.", source: type.identifier)
            }
            return Card(name: String(line))
        }
    }
#endif
