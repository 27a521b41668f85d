// An adopter's model type, as the README's "A model type" shows it: built by .ci/consumer in a package outside the
// repository that depends on TransferKit by path and by version, with the README's Package.swift lines for each.
import Foundation
import TransferKit
import UniformTypes

public struct Card: Codable, Equatable, Sendable, TransferRepresentable {
    public var title: String

    public init(title: String) { self.title = title }

    public static var transferRepresentations: RepresentationList<Card> {
        RepresentationList.codable(UniformType(exportedAs: "com.example.card", conformingTo: .json))
            .suggestedFileName { "\($0.title).card" }
        RepresentationList.proxy(exporting: { (card: Card) in card.title }, importing: { Card(title: $0) })
            .exportingCondition { !$0.title.isEmpty }
    }
}
