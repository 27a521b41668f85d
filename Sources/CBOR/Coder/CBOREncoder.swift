#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Encodes `Encodable` values as CBOR (RFC 8949) in the deterministic encoding of §4.2.1.
///
/// Structs and classes become maps keyed by their coding keys' string values, arrays become arrays, and
/// `String`, integers, floating-point numbers, `Bool` and `nil` become the matching CBOR items, so any CBOR
/// library reads the output as plain maps and arrays. The output is deterministic: every head and float takes its
/// shortest form, every length is definite, and map keys are sorted by the bytes of their encodings, so equal
/// values give equal bytes.
///
/// ```swift
/// struct Point: Codable { var x: Int; var y: Double }
/// let bytes = try CBOREncoder().encode(Point(x: 1, y: 2.5))   // a2 61 78 01 61 79 f9 41 00
/// ```
///
/// Options follow Foundation's `JSONEncoder`: ``dateEncodingStrategy``, ``dataEncodingStrategy``,
/// ``keyEncodingStrategy`` and ``userInfo``. Two keys of one map that encode to the same string (a subclass and its
/// superclass writing the same key, or a key strategy mapping two keys to one) are an `EncodingError`, because a
/// CBOR map cannot hold a key twice.
public struct CBOREncoder: Sendable {
    /// How `Date` values are written.
    public enum DateEncodingStrategy: Sendable {
        /// The date's own `Codable` form: seconds since 2001-01-01 00:00 UTC as a float.
        case deferredToDate
        /// Seconds since 1970-01-01 00:00 UTC as a float (an integer when the value is whole).
        case secondsSince1970
        /// Milliseconds since 1970-01-01 00:00 UTC as a float (an integer when the value is whole).
        case millisecondsSince1970
        /// An ISO 8601 text string in UTC, such as `2026-11-23T17:04:38Z` (whole seconds).
        case iso8601
        /// Tag 1 (RFC 8949 §3.4.2, epoch-based date/time) over seconds since 1970 as an integer when the value is
        /// whole, a float otherwise: the standard CBOR date that other libraries decode as a date.
        case taggedEpochSeconds
        /// A closure that encodes the date into the encoder it is given.
        case custom(@Sendable (Date, any Encoder) throws -> Void)
    }

    /// How `Data` values are written.
    public enum DataEncodingStrategy: Sendable {
        /// A CBOR byte string (the default).
        case byteString
        /// A text string in Base64, as Foundation's `JSONEncoder` writes data.
        case base64
        /// The data's own `Codable` form: an array of integers.
        case deferredToData
        /// A closure that encodes the data into the encoder it is given.
        case custom(@Sendable (Data, any Encoder) throws -> Void)
    }

    /// How coding keys become map keys.
    public enum KeyEncodingStrategy: Sendable {
        /// Each key's `stringValue` as it is.
        case useDefaultKeys
        /// `camelCase` keys become `snake_case` (the rule of `JSONEncoder.KeyEncodingStrategy.convertToSnakeCase`).
        case convertToSnakeCase
        /// A closure that gets the full coding path (the last element is the key to convert) and returns the key
        /// whose `stringValue` is written.
        case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)
    }

    /// How `Date` values are written; ``DateEncodingStrategy/deferredToDate`` unless set.
    public var dateEncodingStrategy: DateEncodingStrategy = .deferredToDate
    /// How `Data` values are written; ``DataEncodingStrategy/byteString`` unless set.
    public var dataEncodingStrategy: DataEncodingStrategy = .byteString
    /// How coding keys become map keys; ``KeyEncodingStrategy/useDefaultKeys`` unless set.
    public var keyEncodingStrategy: KeyEncodingStrategy = .useDefaultKeys
    /// Values that `encode(to:)` implementations find in `Encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Creates an encoder with the default strategies.
    public init() {}

    /// Encodes `value` as one CBOR data item.
    ///
    /// - Parameter value: The value to encode.
    /// - Returns: The deterministic encoding of `value`.
    /// - Throws: `EncodingError.invalidValue` when a map would hold a key twice, when a value encodes nothing
    ///   into a single-value container, or when a type uses its encoder against the `Encoder` protocol's rules
    ///   (two kinds of container for one value, a container written to after its value was finished);
    ///   whatever the value's `encode(to:)` or a custom strategy throws.
    public func encode<T: Encodable>(_ value: T) throws -> Data {
        var state = CBOREncodingState.make(options: self)
        defer { CBOREncodingState.recycle(&state) }
        try state.encodeValue(value, key: nil)
        try state.finish()
        return state.takeData()
    }

    /// Encodes `value` as one CBOR data item, into an array of bytes.
    ///
    /// - Parameter value: The value to encode.
    /// - Returns: The deterministic encoding of `value`.
    /// - Throws: The errors of ``encode(_:)``.
    public func encodedBytes<T: Encodable>(_ value: T) throws -> [UInt8] {
        var state = CBOREncodingState.make(options: self)
        defer { CBOREncodingState.recycle(&state) }
        try state.encodeValue(value, key: nil)
        try state.finish()
        return state.output.array()
    }
}
