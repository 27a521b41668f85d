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
