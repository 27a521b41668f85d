/// Builds a ``RepresentationList`` from representations written one per line, with `if`, `if`/`else`
/// and `for` allowed.
@resultBuilder
public enum RepresentationListBuilder<Item> {
    /// One representation list as written.
    public static func buildExpression(_ expression: RepresentationList<Item>) -> RepresentationList<Item> {
        expression
    }

    /// The lists of a block, concatenated in order.
    public static func buildBlock(_ parts: RepresentationList<Item>...) -> RepresentationList<Item> {
        RepresentationList(concatenating: parts)
    }

    /// The lists of a `for` loop, concatenated in order.
    public static func buildArray(_ parts: [RepresentationList<Item>]) -> RepresentationList<Item> {
        RepresentationList(concatenating: parts)
    }

    /// An `if` without `else`: nothing when false.
    public static func buildOptional(_ part: RepresentationList<Item>?) -> RepresentationList<Item> {
        part ?? RepresentationList()
    }

    /// The taken branch of an `if`/`else`.
    public static func buildEither(first part: RepresentationList<Item>) -> RepresentationList<Item> {
        part
    }

    /// The taken branch of an `if`/`else`.
    public static func buildEither(second part: RepresentationList<Item>) -> RepresentationList<Item> {
        part
    }
}
