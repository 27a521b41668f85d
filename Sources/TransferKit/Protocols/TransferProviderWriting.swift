public import UniformTypes

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A type whose values can hand out their contents as data in one or more uniform types.
///
/// The counterpart of `NSItemProviderWriting`. List the types from highest fidelity to lowest; a reader gets the
/// first one that it can read (see ``TransferProvider`` for the rule).
///
/// ```swift
/// struct Note: TransferProviderWriting {
///     var text: String
///     static var writableTypes: [UniformType] { [.utf8PlainText] }
///     func loadData(for type: UniformType, progress: TransferProgress) async throws -> Data {
///         Data(text.utf8)
///     }
/// }
/// ```
///
/// Most model types adopt ``TransferCodable`` instead and write no serialization code.
public protocol TransferProviderWriting: Sendable {
    /// The types every value can write, highest fidelity first.
    static var writableTypes: [UniformType] { get }

    /// The types this value can write, highest fidelity first; by default ``writableTypes-swift.type.property``.
    ///
    /// A value may offer more types than its type does (for example, a thumbnail only when it has an image).
    var writableTypes: [UniformType] { get }

    /// Which processes may see the representation of `type`; by default ``TransferVisibility/all``.
    ///
    /// - Parameter type: One of ``writableTypes-swift.property``.
    /// - Returns: The visibility of that representation.
    func visibility(for type: UniformType) -> TransferVisibility

    /// A file name for receivers that save the representation of `type`; by default `nil` (the provider's
    /// ``TransferProvider/suggestedName`` applies).
    ///
    /// - Parameter type: One of ``writableTypes-swift.property``.
    /// - Returns: A name without directory, such as `Luke.card`, or `nil`.
    func suggestedFileName(for type: UniformType) -> String?

    /// Encodes the value as `type`.
    ///
    /// - Parameters:
    ///   - type: One of ``writableTypes-swift.property``.
    ///   - progress: Where to report progress; check it for cancellation between chunks of long work.
    /// - Returns: The encoded bytes.
    /// - Throws: Any error; a provider reports it as `TransferError.Code.loaderFailed` unless it is a
    ///   ``TransferError`` already.
    func loadData(for type: UniformType, progress: TransferProgress) async throws -> Data

    /// The value encoded as `type` at once, without suspending or reporting progress, if it can be; `nil` to have
    /// the provider call ``loadData(for:progress:)``. By default `nil`.
    ///
    /// A load that passes no caller progress asks this first, so that loading an in-memory value costs no more than
    /// encoding it (no progress object, no task hops). When it returns bytes, they must be the bytes
    /// ``loadData(for:progress:)`` would return for `type`. ``TransferCodable`` answers for its content type with
    /// ``TransferCodable/transferEncodedData()``; a `TransferCodable` type that overrides
    /// ``loadData(for:progress:)`` for its content type overrides this as well (returning `nil` is enough).
    ///
    /// - Parameter type: One of ``writableTypes-swift.property``.
    /// - Returns: The encoded bytes, or `nil` when the value must be loaded asynchronously.
    /// - Throws: What ``loadData(for:progress:)`` would throw for this value and type.
    func immediateData(for type: UniformType) throws -> Data?
}

extension TransferProviderWriting {
    /// The type's ``writableTypes-swift.type.property``.
    public var writableTypes: [UniformType] { Self.writableTypes }

    /// ``TransferVisibility/all`` for every type.
    public func visibility(for type: UniformType) -> TransferVisibility { .all }

    /// `nil` for every type.
    public func suggestedFileName(for type: UniformType) -> String? { nil }

    /// `nil`: loads go through ``loadData(for:progress:)``.
    public func immediateData(for type: UniformType) throws -> Data? { nil }
}
