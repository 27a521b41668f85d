/// The identity of a dragged item, as its source knows it: the `id` of an `Identifiable` model, as text.
///
/// Sessions name items by identity, never by position, so a list edited while a drag is in flight (rows
/// inserted, deleted or reordered) cannot make a move remove the wrong row. The identity is text so it can
/// cross a process boundary unchanged.
public struct TransferItemID: Hashable, Sendable, Comparable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The identity as text.
    public var rawValue: String

    /// An identity from its text.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// An identity from a literal.
    public init(stringLiteral value: String) {
        rawValue = value
    }

    /// The identity of an `Identifiable` model: its `id`, as text.
    public init<Model: Identifiable>(of model: Model) where Model.ID: LosslessStringConvertible {
        rawValue = model.id.description
    }

    /// The identity as text.
    public var description: String { rawValue }

    /// Orders identities by their text.
    public static func < (lhs: TransferItemID, rhs: TransferItemID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
