/// Builds a ``TransferRepresentations`` list from representations written one per line, with `if`, `if`/`else`
/// and `for` allowed.
@resultBuilder
public enum TransferRepresentationsBuilder<Item> {
    /// One representation list as written.
    public static func buildExpression(_ expression: TransferRepresentations<Item>) -> TransferRepresentations<Item> {
        expression
    }

    /// The lists of a block, concatenated in order.
    public static func buildBlock(_ parts: TransferRepresentations<Item>...) -> TransferRepresentations<Item> {
        TransferRepresentations(parts.flatMap(\.elements))
    }

    /// The lists of a `for` loop, concatenated in order.
    public static func buildArray(_ parts: [TransferRepresentations<Item>]) -> TransferRepresentations<Item> {
        TransferRepresentations(parts.flatMap(\.elements))
    }

    /// An `if` without `else`: nothing when false.
    public static func buildOptional(_ part: TransferRepresentations<Item>?) -> TransferRepresentations<Item> {
        part ?? TransferRepresentations()
    }

    /// The taken branch of an `if`/`else`.
    public static func buildEither(first part: TransferRepresentations<Item>) -> TransferRepresentations<Item> {
        part
    }

    /// The taken branch of an `if`/`else`.
    public static func buildEither(second part: TransferRepresentations<Item>) -> TransferRepresentations<Item> {
        part
    }
}
