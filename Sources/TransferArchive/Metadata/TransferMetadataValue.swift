/// A small JSON-like value stored in an archive item's metadata (and in a `TransferProvider`'s `metadata`).
///
/// It encodes as the natural JSON value (a string, a number, a Boolean, an array or an object), so an archive can
/// store it as JSON or CBOR. Literals work:
///
/// ```swift
/// provider.metadata["source"] = "clipboard"
/// provider.metadata["tags"] = ["draft", "shared"]
/// provider.metadata["size"] = 42
/// ```
public enum TransferMetadataValue: Sendable, Hashable, Codable {
    /// A string.
    case string(String)
    /// A signed integer.
    case integer(Int64)
    /// A floating-point number.
    case double(Double)
    /// A Boolean.
    case bool(Bool)
    /// An ordered list of values.
    case array([TransferMetadataValue])
    /// Values by string key.
    case dictionary([String: TransferMetadataValue])

    /// Decodes the natural JSON form: Boolean, integer, double, string, array or object, tried in that order.
    ///
    /// - Throws: `DecodingError.dataCorrupted` for null or any other value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([TransferMetadataValue].self) {
            self = .array(value)
        } else if let value = try? container.decode([String: TransferMetadataValue].self) {
            self = .dictionary(value)
        } else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "A metadata value must be a string, number, Boolean, array or object.")
        }
    }

    /// Encodes the natural JSON form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .dictionary(let value): try container.encode(value)
        }
    }
}

extension TransferMetadataValue: ExpressibleByStringLiteral {
    /// A ``string(_:)`` value.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension TransferMetadataValue: ExpressibleByIntegerLiteral {
    /// An ``integer(_:)`` value.
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension TransferMetadataValue: ExpressibleByFloatLiteral {
    /// A ``double(_:)`` value.
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension TransferMetadataValue: ExpressibleByBooleanLiteral {
    /// A ``bool(_:)`` value.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension TransferMetadataValue: ExpressibleByArrayLiteral {
    /// An ``array(_:)`` value.
    public init(arrayLiteral elements: TransferMetadataValue...) { self = .array(elements) }
}

extension TransferMetadataValue: ExpressibleByDictionaryLiteral {
    /// A ``dictionary(_:)`` value; a repeated key keeps the last value.
    public init(dictionaryLiteral elements: (String, TransferMetadataValue)...) {
        self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
