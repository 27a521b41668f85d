import Foundation
import TransferKit
import UniformTypes

/// The seeds' `Model` (blog post 000), ported as the TransferKit documentation shows: three strings, JSON through
/// `TransferCodable`.
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

    /// The model the seeds' drag-and-drop example carries.
    static let sample = Model(name: "Panther", character: "calm", favorite: "tea")

    /// A model that differs from its neighbours, for arrays of many items.
    static func numbered(_ index: Int) -> Model {
        Model(name: "Panther \(index)", character: index % 2 == 0 ? "calm" : "curious", favorite: "tea no. \(index)")
    }
}

extension Model: Equatable {
    static func == (lhs: Model, rhs: Model) -> Bool {
        (lhs.name, lhs.character, lhs.favorite) == (rhs.name, rhs.character, rhs.favorite)
    }
}

/// The seeds' `Model` with `TransferCoding.cbor`: encoded as the model itself (the same map of three strings),
/// with a content type conforming to `application/cbor`.
final class CBORModel: TransferCodable, Equatable {
    let model: Model

    init(_ model: Model) {
        self.model = model
    }

    init(from decoder: any Decoder) throws {
        model = try decoder.singleValueContainer().decode(Model.self)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(model)
    }

    static var contentType: UniformType { UniformType(exportedAs: "com.example.model.cbor", conformingTo: .cbor) }
    static var transferCoding: TransferCoding<CBORModel> { .cbor }

    static let sample = CBORModel(Model.sample)

    static func == (lhs: CBORModel, rhs: CBORModel) -> Bool {
        lhs.model == rhs.model
    }
}
