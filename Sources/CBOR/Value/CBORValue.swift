/// A CBOR data item (RFC 8949), held in memory.
///
/// Use it for the small, structured parts of a document; stream large strings with
/// ``CBORReader/readHead()`` and ``CBORReader/readBytes(count:into:)`` instead.
///
/// ```swift
/// let value: CBORValue = ["name": "photo.png", "size": 1_048_576, "tags": ["a", "b"]]
/// let bytes = try value.encoded()            // deterministic encoding, keys sorted
/// let back = try CBORValue(decoding: bytes)
/// print(back["name"]?.textString ?? "")      // photo.png
/// ```
///
/// Equality and hashing follow the CBOR data model, not Swift's: text strings compare by their
/// UTF-8 bytes (Swift's `String` would call "é" and "e\u{301}" equal), floats compare by bit
/// pattern (so `0.0 != -0.0`), all NaNs are equal to each other, and maps are equal when they
/// hold the same pairs in any order (their deterministic encodings are the same).
///
/// A value you build holds its items inline (24 bytes each in an array; only ``tagged(_:_:)`` boxes its content). A
/// value that ``init(decoding:limits:requireDeterministic:)`` returns is packed instead: its arrays and maps keep the
/// decoded bytes (shared with the caller's array, not copied) and an index of 4 bytes per item and 8 more per array,
/// map or tag, and read an item when it is asked for. For records (maps of a dozen fields with strings and numbers)
/// the index is smaller than the encoded bytes; for an array of one-byte integers it is 4 times as large, still a sixth
/// of a built tree. Any part of such a tree keeps the whole document alive; to keep a small part of a large document for
/// long, decode the part's own encoding (`CBORValue(decoding: part.encoded())`).
public enum CBORValue: Sendable {
    /// An unsigned integer (major type 0).
    case unsigned(UInt64)
    /// A negative integer (major type 1) holding the RFC's argument `n` of the value −1−n, so
    /// −2⁶⁴ (`.negative(.max)`) round-trips. Use ``integer`` or ``init(_:)`` for `Int64` values.
    case negative(UInt64)
    /// A byte string (major type 2).
    case bytes([UInt8])
    /// A text string (major type 3).
    case text(String)
    /// An array (major type 4). Build one from a Swift array with ``array(_:)-swift.type.method`` or a literal.
    case array(CBORArray)
    /// A map (major type 5) as key/value pairs in the order they were read or given.
    ///
    /// The writer sorts keys for deterministic output; the reader rejects duplicate keys. Build one from a Swift
    /// array of pairs with ``map(_:)-swift.type.method`` or a literal.
    case map(CBORMap)
    /// A tag number and its content (major type 6).
    indirect case tagged(UInt64, CBORValue)
    /// A simple value other than false, true, null and undefined: 0...19 or 32...255.
    case simple(UInt8)
    /// The simple values false and true.
    case bool(Bool)
    /// The simple value null.
    case null
    /// The simple value undefined.
    case undefined
    /// A floating-point number, whatever width it was read in. The writer picks the shortest
    /// of half, single and double precision that keeps the value exactly.
    case float(Double)

    /// One key/value pair of a ``CBORValue/map(_:)-enum.case``.
    public struct MapEntry: Sendable, Hashable {
        /// The key; any data item, though text and integers are the norm.
        public var key: CBORValue
        /// The value.
        public var value: CBORValue

        /// Creates a pair.
        public init(key: CBORValue, value: CBORValue) {
            self.key = key
            self.value = value
        }
    }
}

extension CBORValue {
    /// An array of the given items: `.array(CBORArray(items))`.
    public static func array(_ items: [CBORValue]) -> CBORValue {
        .array(CBORArray(items))
    }

    /// A map of the given pairs, in order: `.map(CBORMap(entries))`.
    public static func map(_ entries: [MapEntry]) -> CBORValue {
        .map(CBORMap(entries))
    }

    /// An integer as `.unsigned` or `.negative`, whichever its sign calls for.
    public init(_ integer: Int64) {
        if integer >= 0 {
            self = .unsigned(UInt64(integer))
        } else {
            // −1−n = integer, so n = −1−integer = ~integer, which never overflows.
            self = .negative(UInt64(~integer))
        }
    }

    /// The tag 55799 ("self-described CBOR") that marks bytes as CBOR (RFC 8949 §3.4.6).
    public static let selfDescribedTag: UInt64 = 55799
}
