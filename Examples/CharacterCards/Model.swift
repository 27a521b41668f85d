import Foundation
import TransferKit
import UniformTypes

extension UniformType {
    /// A character card as JSON: this example's own exported type.
    static let characterCard = UniformType(exportedAs: "com.example.character-card", conformingTo: .json)
}

/// The seeds' `Model` (post 000): who a character is, and their favourite thing.
///
/// The seed adopted `NSObject, Codable, NSItemProviderReading, NSItemProviderWriting` and wrote the JSON code by
/// hand, with `fatalError()` on bad input. Here ``TransferCodable`` does the JSON (sorted keys, so equal cards give
/// equal bytes) and bad input throws. The card also offers plain text, `Luke — Jedi — blue milk`, which other
/// apps understand, and reads it back.
final class Model: TransferCodable, Equatable, CustomStringConvertible {
    let name: String
    let character: String
    let favorite: String

    init(name: String, character: String, favorite: String) {
        self.name = name
        self.character = character
        self.favorite = favorite
    }

    static var contentType: UniformType { .characterCard }

    /// JSON first (full fidelity), then plain text for everyone else.
    static var writableTypes: [UniformType] { [.characterCard, .utf8PlainText] }

    /// JSON first; plain text from other apps when that is all there is.
    static var readableTypes: [UniformType] { [.characterCard, .utf8PlainText] }

    /// The plain-text form, fields separated by " — ".
    var description: String { [name, character, favorite].joined(separator: Self.separator) }

    func loadData(for type: UniformType, progress: TransferProgress) async throws -> Data {
        type == .utf8PlainText ? Data(description.utf8) : try transferEncodedData()
    }

    static func object(from data: Data, type: UniformType) throws -> Model {
        guard type == .utf8PlainText else {
            return try Model(transferEncodedData: data)
        }
        let fields = String(decoding: data, as: UTF8.self).components(separatedBy: separator)
        guard fields.count == 3 else {
            throw TransferError(
                code: .decodingFailed,
                message: "A character card as text needs three fields separated by ' — ' (name — character — "
                    + "favorite), but \(fields.count) were found.",
                source: type.identifier)
        }
        return Model(name: fields[0], character: fields[1], favorite: fields[2])
    }

    static func == (lhs: Model, rhs: Model) -> Bool {
        (lhs.name, lhs.character, lhs.favorite) == (rhs.name, rhs.character, rhs.favorite)
    }

    private static let separator = " — "

    /// The cards the example drags around.
    static let samples = [
        Model(name: "Luke", character: "Jedi", favorite: "blue milk"),
        Model(name: "Leia", character: "General", favorite: "Alderaan sunsets"),
        Model(name: "Han", character: "Smuggler", favorite: "the Falcon"),
    ]
}

extension Model: Identifiable {
    /// The card's identity in lists: the character's name.
    var id: String { name }
}
