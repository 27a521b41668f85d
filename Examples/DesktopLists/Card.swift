import Foundation
import TransferKit
import UniformTypes

extension UniformType {
    /// A character card as JSON: the type CharacterCards exports too, so the two examples' cards are one type.
    static let characterCard = UniformType(exportedAs: "com.example.character-card", conformingTo: .json)
}

/// Seed 000's `Model` (name, character, favourite), as a value: JSON for TransferKit apps, plain text
/// (`Luke — Jedi — blue milk`) for every other program a card is dropped on.
struct Card: TransferCodable, Identifiable, Hashable {
    var name: String
    var character: String
    var favorite: String

    /// The card's identity in lists: the character's name.
    var id: String { name }

    static var contentType: UniformType { .characterCard }
    static var writableTypes: [UniformType] { [.characterCard, .utf8PlainText] }

    func loadData(for type: UniformType, progress: TransferProgress) async throws -> Data {
        type == .utf8PlainText
            ? Data([name, character, favorite].joined(separator: " — ").utf8) : try transferEncodedData()
    }

    /// The cards a new list starts with.
    static let samples = [
        Card(name: "Luke", character: "Jedi", favorite: "blue milk"),
        Card(name: "Leia", character: "General", favorite: "Alderaan sunsets"),
        Card(name: "Han", character: "Smuggler", favorite: "the Falcon"),
    ]
}
