#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Decodes `Decodable` values from CBOR (RFC 8949), strictly and within limits.
///
/// Reads what ``CBOREncoder`` writes, and what any CBOR library writes for plain maps (keyed by text strings),
/// arrays, strings, numbers, booleans and null:
///
/// ```swift
/// struct Point: Codable { var x: Int; var y: Double }
/// let point = try CBORDecoder().decode(Point.self, from: Data([0xa2, 0x61, 0x78, 0x01, 0x61, 0x79, 0xf9, 0x41, 0x00]))
/// ```
///
/// Every failure is a `DecodingError` whose context holds the coding path and, in its `debugDescription`, the byte
/// offset. The decoder rejects:
/// - input that is not exactly one data item: truncated input, and bytes after the item (`dataCorrupted`);
/// - indefinite-length strings, arrays and maps, reserved additional information, a "break" outside a container,
///   and two-byte simple values below 32 (`dataCorrupted`);
/// - maps with a key that is not a text string of valid UTF-8, or with the same key twice (`dataCorrupted`);
/// - strings, arrays and maps longer than ``limits`` allow, or values nested deeper (`dataCorrupted`);
/// - text strings that are not UTF-8, when they are decoded (`dataCorrupted`);
/// - items of the wrong type (`typeMismatch`), null for a value that is not optional (`valueNotFound`), missing
///   keys (`keyNotFound`), integers that do not fit the requested type (`dataCorrupted`).
///
/// Heads and floats that are not in their shortest form are accepted (RFC 8949 asks decoders to accept them;
/// ``CBOREncoder`` never writes them), and so are map keys in any order. Integers decode as `Double` and `Float`
/// when they convert exactly; floats never decode as integers. Parts of the input that the decoded type never
/// reads (values of keys it does not know, items after the last one it reads) are checked for structure and
/// limits but not for UTF-8 or nesting depth; they are walked without recursion.
///
/// A container is a view of the input, to be read while its value decodes. A keyed container that `init(from:)`
/// keeps longer (stored, or handed to a later value) reads nothing once its value is done (with a key strategy
/// other than the default, once the decode has returned): `contains(_:)` is `false`, `allKeys` is empty and a
/// `decode` throws `keyNotFound`. It never reads another map's values in place of its own.
public struct CBORDecoder: Sendable {
    /// How `Date` values are read; each case reads what the ``CBOREncoder/DateEncodingStrategy`` of the same name
    /// writes.
    public enum DateDecodingStrategy: Sendable {
        /// The date's own `Codable` form: seconds since 2001-01-01 00:00 UTC.
        case deferredToDate
        /// Seconds since 1970-01-01 00:00 UTC, an integer or a float.
        case secondsSince1970
        /// Milliseconds since 1970-01-01 00:00 UTC, an integer or a float.
        case millisecondsSince1970
        /// An ISO 8601 text string with a time zone, such as `2026-11-23T17:04:38Z`.
        case iso8601
        /// Tag 1 (epoch-based date/time) over seconds since 1970, an integer or a float.
        case taggedEpochSeconds
        /// A closure that decodes a date from the decoder it is given.
        case custom(@Sendable (any Decoder) throws -> Date)
    }

    /// How `Data` values are read.
    public enum DataDecodingStrategy: Sendable {
        /// A CBOR byte string (the default).
        case byteString
        /// A text string in Base64.
        case base64
        /// The data's own `Codable` form: an array of integers.
        case deferredToData
        /// A closure that decodes data from the decoder it is given.
        case custom(@Sendable (any Decoder) throws -> Data)
    }

    /// How map keys are matched with coding keys.
    public enum KeyDecodingStrategy: Sendable {
        /// A map key matches the coding key whose `stringValue` it equals, byte for byte.
        case useDefaultKeys
        /// `snake_case` map keys are converted to `camelCase` before matching (the rule of
        /// `JSONDecoder.KeyDecodingStrategy.convertFromSnakeCase`).
        case convertFromSnakeCase
        /// A closure that gets the coding path whose last element is the map key as found and returns the key to
        /// match.
        case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)
    }

    /// How `Date` values are read; ``DateDecodingStrategy/deferredToDate`` unless set.
    public var dateDecodingStrategy: DateDecodingStrategy = .deferredToDate
    /// How `Data` values are read; ``DataDecodingStrategy/byteString`` unless set.
    public var dataDecodingStrategy: DataDecodingStrategy = .byteString
    /// How map keys are matched with coding keys; ``KeyDecodingStrategy/useDefaultKeys`` unless set.
    public var keyDecodingStrategy: KeyDecodingStrategy = .useDefaultKeys
    /// Bounds on the input: how deep values nest (each nested struct, class, enum, array or dictionary that is
    /// decoded is one level), how many items an array or pairs a map may have, and how many bytes a string may
    /// have. ``CBORReader/Limits/default`` unless set: 64 levels, 1 048 576 items, 16 MiB.
    public var limits: CBORReader.Limits = .default
    /// Values that `init(from:)` implementations find in `Decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Creates a decoder with the default strategies and limits.
    public init() {}

    /// Decodes a value of type `type` from one CBOR data item.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - data: Exactly one data item.
    /// - Returns: The value.
    /// - Throws: `DecodingError` with the coding path of the failure; what the type's `init(from:)` or a custom
    ///   strategy throws.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try data.withUnsafeBytes { input in try decode(type, fromBytesIn: input) }
    }

    /// Decodes a value of type `type` from one CBOR data item held in an array of bytes.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - bytes: Exactly one data item.
    /// - Returns: The value.
    /// - Throws: `DecodingError`, as the variant that reads `Data` does.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try bytes.withUnsafeBytes { input in try decode(type, fromBytesIn: input) }
    }

    private func decode<T: Decodable>(_ type: T.Type, fromBytesIn input: UnsafeRawBufferPointer) throws -> T {
        var state = CBORDecodingState.make(input: input, options: self)
        defer { CBORDecodingState.recycle(&state) }
        return try state.decodeTopLevel(type)
    }
}
