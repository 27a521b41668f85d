public import Foundation
public import TransferKit
public import UniformTypes

/// Any JSON document, read and written as a value: the reader `transferkit check` uses for
/// `public.json` and every type that conforms to it when no more specific reader is registered.
///
/// Writing produces compact JSON with sorted keys, so two documents that differ only in key
/// order or white space re-encode to equal values.
public struct JSONDocument: TransferProviderReading, TransferProviderWriting, Hashable {
    /// A JSON value.
    public indirect enum Value: Hashable, Sendable, Codable {
        /// `null`.
        case null
        /// `true` or `false`.
        case bool(Bool)
        /// A number that is a whole number in the 64-bit range.
        case integer(Int64)
        /// Any other number.
        case number(Double)
        /// A string.
        case string(String)
        /// An array.
        case array([Value])
        /// An object.
        case object([String: Value])

        /// Decodes any JSON value.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let value = try? container.decode(Bool.self) {
                self = .bool(value)
            } else if let value = try? container.decode(Int64.self) {
                self = .integer(value)
            } else if let value = try? container.decode(Double.self) {
                self = .number(value)
            } else if let value = try? container.decode(String.self) {
                self = .string(value)
            } else if let value = try? container.decode([Value].self) {
                self = .array(value)
            } else {
                self = .object(try container.decode([String: Value].self))
            }
        }

        /// Encodes the value as JSON.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .null: try container.encodeNil()
            case .bool(let value): try container.encode(value)
            case .integer(let value): try container.encode(value)
            case .number(let value): try container.encode(value)
            case .string(let value): try container.encode(value)
            case .array(let value): try container.encode(value)
            case .object(let value): try container.encode(value)
            }
        }
    }

    /// The document's value.
    public var value: Value

    /// Creates a document holding `value`.
    public init(_ value: Value) {
        self.value = value
    }

    /// `public.json`.
    public static var readableTypes: [UniformType] { [.json] }
    /// `public.json`.
    public static var writableTypes: [UniformType] { [.json] }

    /// Parses JSON bytes.
    /// - Throws: ``TransferError`` with code `decodingFailed` when the bytes are not JSON.
    public static func object(from data: Data, type: UniformType) throws -> JSONDocument {
        do {
            return JSONDocument(try JSONDecoder().decode(Value.self, from: data))
        } catch {
            throw TransferError(
                code: .decodingFailed, message: "The \(type.identifier) bytes are not valid JSON: \(error)",
                cause: error)
        }
    }

    /// Compact JSON with sorted keys, whatever type was asked for.
    public func loadData(for type: UniformType, progress: TransferProgress) async throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        progress.finish()
        return data
    }
}
