/// The pairs of a ``CBORValue/map(_:)-enum.case``: a random-access collection of ``CBORValue/MapEntry``, in the order they
/// were read or given.
///
/// A map you build holds its pairs as a Swift array. One that
/// ``CBORValue/init(decoding:limits:requireDeterministic:)`` returns holds none: it reads each key and value from the
/// decoded bytes when you ask for it, so a decoded tree costs a few bytes per item (see ``CBORValue``).
///
/// ```swift
/// let value = try CBORValue(decoding: bytes)
/// if case .map(let entries) = value {
///     for entry in entries { print(entry.key, entry.value) }
/// }
/// value["name"]?.textString    // look a text key up without walking the pairs yourself
/// ```
///
/// Two maps are equal when they hold the same pairs in any order, as in the CBOR data model.
public struct CBORMap: RandomAccessCollection, Sendable {
    private enum Storage: Sendable {
        case entries([CBORValue.MapEntry])
        case packed(CBORPackedDocument.Block)
    }

    private let storage: Storage

    /// A map of the given pairs, in order. Keys should be unique: ``CBORWriter/write(_:)`` rejects a map whose keys
    /// repeat.
    public init(_ entries: [CBORValue.MapEntry]) {
        storage = .entries(entries)
    }

    /// A map of the pairs of a sequence, in order.
    public init(_ entries: some Sequence<CBORValue.MapEntry>) {
        self.init(Array(entries))
    }

    /// An empty map.
    public init() {
        self.init([CBORValue.MapEntry]())
    }

    init(_ block: CBORPackedDocument.Block) {
        storage = .packed(block)
    }

    /// Always 0.
    public var startIndex: Int { 0 }

    /// The number of pairs.
    public var endIndex: Int {
        switch storage {
        case .entries(let entries): entries.count
        case .packed(let block): block.children.count / 2
        }
    }

    /// The pair at `position`, which must be a valid index (as with `Array`).
    public subscript(position: Int) -> CBORValue.MapEntry {
        switch storage {
        case .entries(let entries):
            return entries[position]
        case .packed:
            // The value first: its slot is the one past the end when `position` is.
            let entryValue = value(at: position)
            return CBORValue.MapEntry(key: key(at: position), value: entryValue)
        }
    }

    /// The value of the first pair whose key is `key` (compared with ``CBORValue/==(_:_:)``); `nil` if none is.
    /// Only the keys are read until one matches.
    public subscript(key: CBORValue) -> CBORValue? {
        indices.first { self.key(at: $0) == key }.map(value(at:))
    }

    /// The key of the pair at `position`, without reading its value.
    func key(at position: Int) -> CBORValue {
        switch storage {
        case .entries(let entries): entries[position].key
        case .packed(let block): block.child(2 * position)
        }
    }

    /// The value of the pair at `position`, without reading its key.
    func value(at position: Int) -> CBORValue {
        switch storage {
        case .entries(let entries): entries[position].value
        case .packed(let block): block.child(2 * position + 1)
        }
    }
}

extension CBORMap: ExpressibleByDictionaryLiteral {
    /// A dictionary literal's pairs, in the order written.
    public init(dictionaryLiteral elements: (CBORValue, CBORValue)...) {
        self.init(elements.map { CBORValue.MapEntry(key: $0.0, value: $0.1) })
    }
}

extension CBORMap: Hashable {
    /// Whether both hold the same pairs, in any order (a map built by hand that repeats a pair must repeat it as
    /// often in the other).
    public static func == (lhs: CBORMap, rhs: CBORMap) -> Bool {
        lhs.count == rhs.count && lhs.multiset() == rhs.multiset()
    }

    /// Hashes the pairs independently of their order, consistently with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        var sum = 0
        for entry in self {
            var entryHasher = Hasher()
            entryHasher.combine(entry)
            sum &+= entryHasher.finalize()
        }
        hasher.combine(sum)
    }

    /// How often each pair occurs.
    private func multiset() -> [CBORValue.MapEntry: Int] {
        var counts: [CBORValue.MapEntry: Int] = [:]
        for entry in self {
            counts[entry, default: 0] += 1
        }
        return counts
    }
}

extension CBORMap: CustomStringConvertible {
    /// The pairs as a Swift dictionary literal would print them, in order.
    public var description: String {
        isEmpty ? "[:]" : "[" + map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "]"
    }
}
