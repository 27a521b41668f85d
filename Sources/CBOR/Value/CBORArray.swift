/// The items of a ``CBORValue/array(_:)-enum.case``: a random-access collection of ``CBORValue``.
///
/// An array you build holds its items as a Swift array. One that
/// ``CBORValue/init(decoding:limits:requireDeterministic:)`` returns holds none: it reads each item from the decoded
/// bytes when you ask for it, so a decoded tree costs a few bytes per item (see ``CBORValue``). Asking again reads
/// again; keep what you use often.
///
/// ```swift
/// let value = try CBORValue(decoding: bytes)
/// if case .array(let items) = value {
///     for item in items { print(item) }
///     let copy = Array(items)          // a [CBORValue], where an API wants one
/// }
/// ```
///
/// Two arrays are equal when they hold equal items in the same order, however each is held.
public struct CBORArray: RandomAccessCollection, Sendable {
    private enum Storage: Sendable {
        case items([CBORValue])
        case packed(CBORPackedDocument.Block)
    }

    private let storage: Storage

    /// An array of the given items.
    public init(_ items: [CBORValue]) {
        storage = .items(items)
    }

    /// An array of the items of a sequence, in order.
    public init(_ items: some Sequence<CBORValue>) {
        self.init(Array(items))
    }

    /// An empty array.
    public init() {
        self.init([CBORValue]())
    }

    init(_ block: CBORPackedDocument.Block) {
        storage = .packed(block)
    }

    /// Always 0.
    public var startIndex: Int { 0 }

    /// The number of items.
    public var endIndex: Int {
        switch storage {
        case .items(let items): items.count
        case .packed(let block): block.children.count
        }
    }

    /// The item at `position`, which must be a valid index (as with `Array`).
    public subscript(position: Int) -> CBORValue {
        switch storage {
        case .items(let items):
            items[position]
        case .packed(let block):
            block.child(position)
        }
    }
}

extension CBORArray: ExpressibleByArrayLiteral {
    /// An array literal's items.
    public init(arrayLiteral elements: CBORValue...) {
        self.init(elements)
    }
}

extension CBORArray: Hashable {
    /// Whether both hold equal items (``CBORValue/==(_:_:)``) in the same order.
    public static func == (lhs: CBORArray, rhs: CBORArray) -> Bool {
        lhs.elementsEqual(rhs)
    }

    /// Hashes the count and the items, in order, consistently with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for item in self {
            hasher.combine(item)
        }
    }
}

extension CBORArray: CustomStringConvertible {
    /// The items as a Swift array literal would print them.
    public var description: String {
        Array(self).description
    }
}
