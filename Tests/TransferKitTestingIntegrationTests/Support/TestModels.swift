import Foundation
import TransferKit
import UniformTypes

extension UniformType {
    static let testingCard = UniformType(exportedAs: "com.example.testing.card", conformingTo: .json)
    static let testingNote = UniformType(exportedAs: "com.example.testing.note", conformingTo: .json)
}

/// A well-behaved model: JSON and plain text, both deterministic and lossless.
struct Card: TransferCodable, Equatable {
    var title: String
    var stars: Int

    static var contentType: UniformType { .testingCard }
    static var writableTypes: [UniformType] { [.testingCard, .utf8PlainText] }

    func loadData(for type: UniformType, progress: TransferProgress) async throws -> Data {
        type == .utf8PlainText ? Data("\(title) (\(stars)★)".utf8) : try transferEncodedData()
    }
}

/// A well-behaved class, compared field by field.
final class Note: TransferCodable, Equatable {
    let text: String

    init(text: String) {
        self.text = text
    }

    static var contentType: UniformType { .testingNote }

    static func == (lhs: Note, rhs: Note) -> Bool { lhs.text == rhs.text }
}

/// Forgets `note` when encoded: the value read back differs.
struct Lossy: TransferCodable, Equatable {
    var kept: String
    var note = ""

    enum CodingKeys: String, CodingKey {
        case kept
    }

    static var contentType: UniformType { UniformType(exportedAs: "com.example.testing.lossy", conformingTo: .json) }
}

/// Plain text whose reader lowercases it, and whose `==` ignores case: equal values, different bytes.
struct CaseFolded: TransferProviderWriting, TransferProviderReading, Equatable {
    var text: String

    static var writableTypes: [UniformType] { [.utf8PlainText] }
    static var readableTypes: [UniformType] { [.utf8PlainText] }

    func loadData(for type: UniformType, progress: TransferProgress) async throws -> Data {
        Data(text.utf8)
    }

    static func object(from data: Data, type: UniformType) throws -> CaseFolded {
        CaseFolded(text: String(decoding: data, as: UTF8.self).lowercased())
    }

    static func == (lhs: CaseFolded, rhs: CaseFolded) -> Bool {
        lhs.text.lowercased() == rhs.text.lowercased()
    }
}

/// Plain text whose reader trims trailing spaces, and whose `==` ignores them: the written-again bytes are a
/// prefix of the original.
struct Trimmed: TransferProviderWriting, TransferProviderReading, Equatable {
    var text: String

    static var writableTypes: [UniformType] { [.utf8PlainText] }
    static var readableTypes: [UniformType] { [.utf8PlainText] }

    func loadData(for type: UniformType, progress: TransferProgress) async throws -> Data {
        Data(text.utf8)
    }

    static func object(from data: Data, type: UniformType) throws -> Trimmed {
        var text = String(decoding: data, as: UTF8.self)
        while text.hasSuffix(" ") { text.removeLast() }
        return Trimmed(text: text)
    }

    static func == (lhs: Trimmed, rhs: Trimmed) -> Bool {
        lhs.text.trimmingCharacters(in: .whitespaces) == rhs.text.trimmingCharacters(in: .whitespaces)
    }
}

/// Cannot write itself.
struct Unwritable: TransferProviderWriting, TransferProviderReading, Equatable {
    struct Failure: Error {}

    static var writableTypes: [UniformType] { [.utf8PlainText] }
    static var readableTypes: [UniformType] { [.utf8PlainText] }

    func loadData(for type: UniformType, progress: TransferProgress) async throws -> Data {
        throw Failure()
    }

    static func object(from data: Data, type: UniformType) throws -> Unwritable { Unwritable() }
}

/// Writes fine but cannot read anything back.
struct Unreadable: TransferProviderWriting, TransferProviderReading, Equatable {
    static var writableTypes: [UniformType] { [.utf8PlainText] }
    static var readableTypes: [UniformType] { [.utf8PlainText] }

    func loadData(for type: UniformType, progress: TransferProgress) async throws -> Data {
        Data("unreadable".utf8)
    }

    static func object(from data: Data, type: UniformType) throws -> Unreadable {
        throw TransferError(code: .decodingFailed, message: "This type never reads anything.")
    }
}

/// A class without a description whose reader shouts: unequal values, described by their stored properties.
final class Shouted: TransferCodable, Equatable {
    let text: String

    init(text: String) {
        self.text = text
    }

    init(from decoder: any Decoder) throws {
        text = try decoder.singleValueContainer().decode(String.self).uppercased()
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }

    static var contentType: UniformType { UniformType(exportedAs: "com.example.testing.shouted", conformingTo: .json) }

    static func == (lhs: Shouted, rhs: Shouted) -> Bool { lhs.text == rhs.text }
}
