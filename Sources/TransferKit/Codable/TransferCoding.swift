public import CBOR

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// How a ``TransferCodable`` type turns its values into bytes and back.
///
/// Use ``json`` (the default: deterministic, sorted keys), ``cbor`` (binary, deterministic, several times faster
/// than JSON), ``propertyList`` (binary), or name any encoder and decoder pair with ``init(encode:decode:)``:
///
/// ```swift
/// struct Settings: TransferCodable {
///     var volume: Int
///     static var contentType: UniformType { UniformType(exportedAs: "com.example.settings", conformingTo: .propertyList) }
///     static var transferCoding: TransferCoding<Settings> { .propertyList }
/// }
/// ```
public struct TransferCoding<Value>: Sendable {
    private let encoder: @Sendable (Value) throws -> Data
    private let decoder: @Sendable (Data) throws -> Value

    /// A coding from an encoding and a decoding closure.
    ///
    /// Errors thrown by the closures are wrapped in ``TransferError`` with `TransferError.Code.encodingFailed`
    /// or `TransferError.Code.decodingFailed` by the callers.
    ///
    /// - Parameters:
    ///   - encode: Turns a value into bytes.
    ///   - decode: Turns bytes into a value.
    public init(
        encode: @escaping @Sendable (Value) throws -> Data,
        decode: @escaping @Sendable (Data) throws -> Value
    ) {
        self.encoder = encode
        self.decoder = decode
    }

    /// Encodes `value`.
    ///
    /// - Parameter value: The value to encode.
    /// - Returns: The bytes.
    /// - Throws: What the encoding closure throws.
    public func encode(_ value: Value) throws -> Data {
        try encoder(value)
    }

    /// Decodes a value from `data`.
    ///
    /// - Parameter data: The bytes.
    /// - Returns: The value.
    /// - Throws: What the decoding closure throws.
    public func decode(_ data: Data) throws -> Value {
        try decoder(data)
    }
}

extension TransferCoding where Value: Codable & SendableMetatype {
    /// JSON with sorted keys, so equal values always give equal bytes (golden files and content hashes rely on it).
    public static var json: Self {
        json(outputFormatting: [.sortedKeys])
    }

    /// JSON with the given output formatting; `.sortedKeys` is always added.
    ///
    /// - Parameter outputFormatting: Extra formatting such as `.prettyPrinted`.
    /// - Returns: The coding.
    public static func json(outputFormatting: JSONEncoder.OutputFormatting) -> Self {
        // One coder of each kind for every value: Foundation's coders are thread-safe, and making them is a good
        // part of a small value's round trip.
        let encoder = JSONEncoder()
        encoder.outputFormatting = outputFormatting.union(.sortedKeys)
        let decoder = JSONDecoder()
        return Self(
            encode: { value in try encoder.encode(value) },
            decode: { data in try decoder.decode(Value.self, from: data) })
    }

    /// A binary property list.
    public static var propertyList: Self {
        propertyList(format: .binary)
    }

    /// A property list in the given format (`.binary` or `.xml`).
    ///
    /// - Parameter format: The property list format to write; reading accepts every format.
    /// - Returns: The coding.
    public static func propertyList(format: PropertyListDecoder.PropertyListFormat) -> Self {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = format
        let decoder = PropertyListDecoder()
        return Self(
            encode: { value in try encoder.encode(value) },
            decode: { data in try decoder.decode(Value.self, from: data) })
    }
}

extension TransferCoding where Value: Codable & SendableMetatype {
    /// CBOR (RFC 8949) through `CBOREncoder` and `CBORDecoder` with their default options: deterministic output
    /// (equal values give equal bytes), plain maps keyed by the coding keys that any CBOR library reads, and
    /// strict, bounded input.
    ///
    /// Give the type a content type that conforms to `UniformType.cbor` (`org.transferkit.cbor`, `application/cbor`):
    ///
    /// ```swift
    /// struct Reading: TransferCodable {
    ///     var celsius: Double
    ///     static var contentType: UniformType { UniformType(exportedAs: "com.example.reading", conformingTo: .cbor) }
    ///     static var transferCoding: TransferCoding<Reading> { .cbor }
    /// }
    /// ```
    public static var cbor: Self {
        cbor(encoder: CBOREncoder(), decoder: CBORDecoder())
    }

    /// CBOR through the given coders, for other date, data or key strategies or other limits.
    ///
    /// - Parameters:
    ///   - encoder: The encoder, with its options.
    ///   - decoder: The decoder, with its options and limits.
    /// - Returns: The coding.
    public static func cbor(encoder: CBOREncoder, decoder: CBORDecoder) -> Self {
        Self(
            encode: { value in try encoder.encode(value) },
            decode: { data in try decoder.decode(Value.self, from: data) })
    }
}
