import Foundation
import TransferKit
import UniformTypes

/// The seeds' `Model` (blog post 000), ported: three strings, JSON through `TransferCodable`.
final class Model: TransferCodable {
    let name: String
    let character: String
    let favorite: String

    init(name: String, character: String, favorite: String) {
        self.name = name
        self.character = character
        self.favorite = favorite
    }

    static var contentType: UniformType { UniformType(exportedAs: "com.example.model", conformingTo: .json) }
}

extension Model: Equatable {
    static func == (lhs: Model, rhs: Model) -> Bool {
        (lhs.name, lhs.character, lhs.favorite) == (rhs.name, rhs.character, rhs.favorite)
    }
}

/// The seeds' `CustomModule` (blog post 001), ported; its enum keeps the custom "button"/"switch" coding.
final class CustomModule: TransferCodable {
    let type: CustomModuleType

    init(type: CustomModuleType) {
        self.type = type
    }

    static var contentType: UniformType { UniformType(exportedAs: "com.example.custom-module", conformingTo: .json) }
}

enum CustomModuleType: Codable, Sendable {
    case button
    case `switch`

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        switch try container.decode(String.self) {
        case "button": self = .button
        case "switch": self = .switch
        case let other:
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "Unknown module type '\(other)'; expected button or switch.")
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .button: try container.encode("button")
        case .switch: try container.encode("switch")
        }
    }
}
