/// One row of the representation-choice table that every implementation of the choice rule is tested against:
/// `TypeCatalog.chooseRepresentation`, `TransferProvider`, `TransferArchive.Item`, `transferkit extract` and
/// `transferkit check --type`.
public struct RepresentationChoiceCase: Sendable, CustomStringConvertible {
    /// The offered type identifiers, in fidelity order.
    public var offered: [String]
    /// The requested type identifiers, in preference order.
    public var requested: [String]
    /// The index in ``offered`` of the representation the rule chooses, or `nil` for none.
    public var expected: Int?

    /// The identifier of the chosen representation, if any.
    public var expectedType: String? { expected.map { offered[$0] } }

    /// `[offered] ← [requested]`.
    public var description: String {
        "[\(offered.joined(separator: ", "))] ← [\(requested.joined(separator: ", "))]"
    }
}

/// The rule's table of examples (the one in `TypeCatalog.chooseRepresentation`'s documentation, and more).
public let representationChoiceTable: [RepresentationChoiceCase] = [
    // The example that once had two answers: `extract` preferred the exact type, providers the first conforming.
    .init(offered: ["public.utf8-plain-text", "public.plain-text"], requested: ["public.plain-text"], expected: 0),
    .init(
        offered: ["public.utf8-plain-text", "public.plain-text"], requested: ["public.utf8-plain-text"], expected: 0),
    .init(
        offered: ["public.plain-text", "public.utf8-plain-text"], requested: ["public.utf8-plain-text"], expected: 1),
    .init(offered: ["public.utf8-plain-text", "public.plain-text"], requested: ["public.text"], expected: 0),
    .init(offered: ["public.png", "public.jpeg"], requested: ["public.jpeg"], expected: 1),
    .init(offered: ["public.png", "public.jpeg"], requested: ["public.image"], expected: 0),
    .init(offered: ["public.png", "public.jpeg"], requested: ["public.data"], expected: 0),
    .init(offered: ["public.json", "public.utf8-plain-text"], requested: ["public.text"], expected: 0),
    .init(offered: ["public.png"], requested: ["public.text"], expected: nil),
    // Several requested types: the receiver's preference outranks the sender's fidelity.
    .init(offered: ["public.png", "public.jpeg"], requested: ["public.jpeg", "public.png"], expected: 1),
    .init(offered: ["public.png", "public.jpeg"], requested: ["public.text", "public.image"], expected: 0),
    .init(offered: ["public.png"], requested: ["public.text", "public.json"], expected: nil),
]

/// The rows with one requested type, for the entry points that take one type (`extract --type`, `check --type`,
/// `loadDataRepresentation(for:)`).
public var singleTypeRepresentationChoiceTable: [RepresentationChoiceCase] {
    representationChoiceTable.filter { $0.requested.count == 1 }
}
