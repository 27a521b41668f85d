public import UniformTypes

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A type whose values can be created from data in one or more uniform types.
///
/// The counterpart of `NSItemProviderReading`. List the types in order of preference, native format first: a
/// provider offers the first of them it can (see ``TransferProvider`` for the rule).
///
/// ```swift
/// struct Note: TransferProviderReading {
///     var text: String
///     static var readableTypes: [UniformType] { [.utf8PlainText] }
///     static func object(from data: Data, type: UniformType) throws -> Note {
///         Note(text: String(decoding: data, as: UTF8.self))
///     }
/// }
/// ```
public protocol TransferProviderReading: Sendable {
    /// The types this type can read, most preferred (native) first.
    static var readableTypes: [UniformType] { get }

    /// Creates a value from data of the given type.
    ///
    /// - Parameters:
    ///   - data: The bytes of a representation.
    ///   - type: The representation's registered type; it conforms to one of ``readableTypes``.
    /// - Returns: The decoded value.
    /// - Throws: ``TransferError`` with `TransferError.Code.decodingFailed` (preferred), or any error, which
    ///   callers report as `TransferError.Code.decodingFailed`.
    static func object(from data: Data, type: UniformType) throws -> Self
}
