public import UniformTypes

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A `Codable` type that gets ``TransferProviderWriting`` and ``TransferProviderReading`` for free: a
/// ``TransferRepresentable`` with one Codable representation.
///
/// Declare the type's ``contentType``; values are written and read as that type through ``transferCoding``
/// (JSON with sorted keys unless you say otherwise). The content type is read once per type and process and kept:
/// it names what the type is, so it must not change.
///
/// ```swift
/// struct Card: TransferCodable {
///     var title: String
///     static var contentType: UniformType { UniformType(exportedAs: "com.example.card", conformingTo: .json) }
/// }
/// ```
///
/// To offer more representations, override ``TransferProviderWriting/writableTypes-swift.type.property`` and
/// `loadData(for:progress:)`, and call ``transferEncodedData()`` for the content type:
///
/// ```swift
/// extension Card {
///     static var writableTypes: [UniformType] { [contentType, .utf8PlainText] }
///     func loadData(for type: UniformType, progress: TransferProgress) async throws -> Data {
///         type == .utf8PlainText ? Data(title.utf8) : try transferEncodedData()
///     }
/// }
/// ```
public protocol TransferCodable: Codable, TransferRepresentable {
    /// The uniform type of the encoded form, for example `UniformType(exportedAs: "com.example.card", conformingTo: .json)`.
    ///
    /// Read once per type and kept (the loading path asks for it on every load), so it must always be the same.
    static var contentType: UniformType { get }

    /// How values become bytes and back; by default ``TransferCoding/json``. Read once per type and kept, like
    /// ``contentType``.
    static var transferCoding: TransferCoding<Self> { get }
}

extension TransferCodable {
    /// ``TransferCoding/json``: JSON with sorted keys.
    public static var transferCoding: TransferCoding<Self> { .json }

    /// One Codable representation of ``contentType`` through ``transferCoding``: the one-line case of
    /// ``TransferRepresentable``.
    public static var transferRepresentations: RepresentationList<Self> {
        RepresentationList.codable(
            TransferTypeFacts.contentType(of: Self.self), coding: TransferTypeFacts.withCodable(Self.self, \.coding))
    }

    /// `false`: the Codable representation decodes synchronously, so loads skip the list (a hot path).
    public static var importsAsynchronously: Bool { false }

    /// Only ``contentType``.
    public var writableTypes: [UniformType] { Self.writableTypes }

    /// ``TransferVisibility/all``.
    public func visibility(for type: UniformType) -> TransferVisibility { .all }

    /// `nil`.
    public func suggestedFileName(for type: UniformType) -> String? { nil }

    /// Only ``contentType``.
    public static var writableTypes: [UniformType] { TransferTypeFacts.contentTypes(of: Self.self) }

    /// Only ``contentType``.
    public static var readableTypes: [UniformType] { TransferTypeFacts.contentTypes(of: Self.self) }

    /// The value encoded with ``transferCoding``.
    ///
    /// - Returns: The encoded bytes.
    /// - Throws: ``TransferError`` with `TransferError.Code.encodingFailed` and the encoder's error as cause.
    public func transferEncodedData() throws -> Data {
        try TransferTypeFacts.withCodable(Self.self) { try encodedData(with: $0.coding) }
    }

    /// ``transferEncodedData()`` with the type's coding at hand.
    private func encodedData(with coding: TransferCoding<Self>) throws -> Data {
        do {
            return try coding.encode(self)
        } catch {
            throw TransferError.wrapping(
                error, as: .encodingFailed,
                message: "Could not encode \(Self.self) as \(Self.contentType): \(error). "
                    + "Check the type's encode(to:) and its transferCoding.",
                source: Self.contentType.identifier)
        }
    }

    /// A value decoded from `data` with ``transferCoding``.
    ///
    /// - Parameter data: Bytes written by ``transferEncodedData()``.
    /// - Throws: ``TransferError`` with `TransferError.Code.decodingFailed`, carrying the `DecodingError` (whose
    ///   coding path the message names).
    public init(transferEncodedData data: Data) throws {
        do {
            self = try TransferTypeFacts.decode(Self.self, from: data)
        } catch {
            throw TransferError.decodingFailed(error, type: Self.contentType, byteCount: data.count)
        }
    }

    /// The value encoded as ``contentType``, for any requested type that the content type conforms to.
    ///
    /// - Throws: `TransferError.Code.unavailableRepresentation` for other types;
    ///   `TransferError.Code.encodingFailed` when encoding fails.
    public func loadData(for type: UniformType, progress: TransferProgress) async throws -> Data {
        let contentType = TransferTypeFacts.contentType(of: Self.self)
        guard contentType == type || contentType.conforms(to: type) else {
            throw TransferError(
                code: .unavailableRepresentation,
                message: "\(Self.self) writes only \(Self.contentType), not \(type); "
                    + "override writableTypes and loadData(for:progress:) to offer more.",
                source: type.identifier)
        }
        return try transferEncodedData()
    }

    /// The value encoded as ``contentType`` when `type` is the content type itself, so that provider loads without a
    /// caller progress skip the asynchronous path; `nil` for any other type.
    ///
    /// A type that overrides ``loadData(for:progress:)`` to write its content type differently overrides this too.
    ///
    /// - Throws: `TransferError.Code.encodingFailed` when encoding fails.
    public func immediateData(for type: UniformType) throws -> Data? {
        try TransferTypeFacts.withCodable(Self.self) { facts in
            guard facts.contentType == type else { return nil }
            return try encodedData(with: facts.coding)
        }
    }

    /// Decodes with ``init(transferEncodedData:)`` whatever the type (every readable type shares one coding).
    ///
    /// - Throws: ``TransferError`` with `TransferError.Code.decodingFailed`.
    public static func object(from data: Data, type: UniformType) throws -> Self {
        try Self(transferEncodedData: data)
    }
}
