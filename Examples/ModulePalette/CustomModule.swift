import Foundation
import TransferKit
import UniformTypes

extension UniformType {
    /// A palette module as JSON: this example's own exported type.
    static let customModule = UniformType(exportedAs: "com.example.custom-module", conformingTo: .json)
}

/// The seeds' `CustomModule` (post 001): a control dragged from a palette onto a canvas, which draws a new view
/// for it.
///
/// The seed adopted `NSObject, NSItemProviderWriting, Codable, NSItemProviderReading` and decoded with
/// `fatalError()` on failure; ``TransferCodable`` replaces all of it, and a bad value throws
/// ``TransferError`` with ``TransferError/Code/decodingFailed``.
final class CustomModule: TransferCodable, Equatable, CustomStringConvertible {
    let type: CustomModuleType

    init(type: CustomModuleType) {
        self.type = type
    }

    static var contentType: UniformType { .customModule }

    /// What the canvas draws for the module.
    var description: String {
        switch type {
        case .button: "[ Button ]"
        case .switch: "[ Switch (●  ) ]"
        }
    }

    static func == (lhs: CustomModule, rhs: CustomModule) -> Bool {
        lhs.type == rhs.type
    }

    /// The palette, as the seed's table view lists it.
    static let palette = [CustomModule(type: .button), CustomModule(type: .switch)]
}

/// The kind of a module; encodes as the strings `"button"` and `"switch"`, exactly as the seed's custom `Codable`
/// code does, so JSON written by the seed's app reads here and the other way round.
enum CustomModuleType: Codable, Sendable, CaseIterable {
    case button
    case `switch`

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let value = try container.decode(String.self)
        switch value {
        case "button": self = .button
        case "switch": self = .switch
        default:
            // The seed threw a bare `ErrorType.decoding`; a DecodingError keeps the coding path for the message.
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "Unknown module type '\(value)' (expected 'button' or 'switch')")
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
