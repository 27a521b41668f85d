public import UniformTypes

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Bytes read from, and written as, any type: `Data` reads the first representation a provider has (every type
/// conforms to `public.data`) and writes `public.data`.
extension Data: TransferProviderReading, TransferProviderWriting {
    /// `public.data`.
    public static var readableTypes: [UniformType] { [.data] }

    /// `public.data`.
    public static var writableTypes: [UniformType] { [.data] }

    /// The bytes unchanged.
    public static func object(from data: Data, type: UniformType) throws -> Data { data }

    /// The bytes unchanged.
    public func loadData(for type: UniformType, progress: TransferProgress) async throws -> Data { self }
}
