public import Foundation
public import UniformTypes

/// The `NSItemProviderWriting` spellings, for porting a model type without rewriting it.
///
/// Replace `NSItemProviderWriting` with `ItemProviderWriting` and keep the seeds' code:
/// `TransferProviderWriting` comes for free, bridging to the completion-handler method. Do not adopt it together
/// with `TransferCodable` (both supply `loadData(for:progress:)`); new code adopts `TransferCodable` instead.
///
/// ```swift
/// final class Model: ItemProviderWriting, Codable {
///     static var writableTypeIdentifiersForItemProvider: [String] { [UniformType.data.identifier] }
///     func loadData(
///         withTypeIdentifier typeIdentifier: String,
///         forItemProviderCompletionHandler completionHandler: @escaping @Sendable (Data?, (any Error)?) -> Void
///     ) -> Progress? {
///         do { completionHandler(try JSONEncoder().encode(self), nil) } catch { completionHandler(nil, error) }
///         return nil
///     }
/// }
/// ```
public protocol ItemProviderWriting: TransferProviderWriting {
    /// The identifiers of the types every value can write, highest fidelity first.
    static var writableTypeIdentifiersForItemProvider: [String] { get }

    /// Encodes the value as the type with this identifier and passes the bytes (or an error) to the handler once.
    ///
    /// - Parameters:
    ///   - typeIdentifier: One of ``writableTypeIdentifiersForItemProvider``.
    ///   - completionHandler: Gets the bytes, or `nil` and an error.
    /// - Returns: A progress for the work, or `nil`; it is cancelled when the load is cancelled.
    func loadData(
        withTypeIdentifier typeIdentifier: String,
        forItemProviderCompletionHandler completionHandler: @escaping @Sendable (Data?, (any Error)?) -> Void
    ) -> Progress?
}

extension ItemProviderWriting {
    /// The valid identifiers of ``writableTypeIdentifiersForItemProvider`` as types (invalid ones are skipped).
    public static var writableTypes: [UniformType] {
        writableTypeIdentifiersForItemProvider.compactMap(UniformType.init)
    }

    /// Calls ``loadData(withTypeIdentifier:forItemProviderCompletionHandler:)`` and awaits its handler.
    ///
    /// - Throws: What the handler reports.
    public func loadData(for type: UniformType, progress: TransferProgress) async throws -> Data {
        try await TransferProvider.bridge(progress) { completion in
            loadData(withTypeIdentifier: type.identifier, forItemProviderCompletionHandler: completion)
        }
    }
}

/// The `NSItemProviderReading` spellings, for porting a model type without rewriting it.
///
/// Replace `NSItemProviderReading` with `ItemProviderReading` and keep the seeds' code: `TransferProviderReading`
/// comes for free. Do not adopt it together with `TransferCodable`.
public protocol ItemProviderReading: TransferProviderReading {
    /// The identifiers of the types this type can read, most preferred first.
    static var readableTypeIdentifiersForItemProvider: [String] { get }

    /// Creates a value from data of the type with this identifier.
    ///
    /// - Parameters:
    ///   - data: The bytes.
    ///   - typeIdentifier: The identifier of the registered type the bytes were loaded from.
    /// - Returns: The value.
    /// - Throws: Any error; providers report it as `TransferError.Code.decodingFailed`.
    static func object(withItemProviderData data: Data, typeIdentifier: String) throws -> Self
}

extension ItemProviderReading {
    /// The valid identifiers of ``readableTypeIdentifiersForItemProvider`` as types (invalid ones are skipped).
    public static var readableTypes: [UniformType] {
        readableTypeIdentifiersForItemProvider.compactMap(UniformType.init)
    }

    /// Calls ``object(withItemProviderData:typeIdentifier:)``.
    public static func object(from data: Data, type: UniformType) throws -> Self {
        try object(withItemProviderData: data, typeIdentifier: type.identifier)
    }
}
