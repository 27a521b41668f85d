import UniformTypes

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What the loading path asks of a model type on every load, worked out once per type and process.
///
/// A ``TransferCodable`` type's ``TransferCodable/contentType`` is usually a computed property that calls
/// `UniformType(exportedAs:conformingTo:)`, which parses the identifier and declares the type in the catalog (about
/// a microsecond, more than a small model's whole CBOR round trip); its ``TransferCodable/transferCoding`` makes
/// two closures and a coder each time; and asking whether a reader is ``TransferRepresentable`` is a dynamic cast.
/// The answers are fixed for a type, so they are computed on the type's first use, kept in a ``TypeFactsTable``,
/// and read back without a lock (profiled: with a locked dictionary per fact, the six look-ups of a register and
/// load were about a tenth of a small model's CBOR round trip).
enum TransferTypeFacts {
    /// What a ``TransferCodable`` type's loads ask of it: its content type, alone and as a one-element array (so
    /// that `writableTypes` and `readableTypes` allocate no array), and its coding.
    final class CodableFacts<T: TransferCodable>: Sendable {
        let contentType: UniformType
        let contentTypes: [UniformType]
        let coding: TransferCoding<T>

        init() {
            contentType = T.contentType
            contentTypes = [contentType]
            coding = T.transferCoding
        }
    }

    /// Whether a reader type imports asynchronously: one of two objects, so that the table keeps no object per type.
    private final class Flag: Sendable {
        let value: Bool
        init(_ value: Bool) { self.value = value }

        static let yes = Flag(true)
        static let no = Flag(false)
    }

    /// ``CodableFacts`` objects under their type's identity.
    private static let codables = TypeFactsTable()
    /// ``Flag``s under their reader type's identity.
    private static let asynchronousImporters = TypeFactsTable()

    /// Calls `body` with the facts of `T`, made on the first call for `T` and kept.
    static func withCodable<T: TransferCodable, Result>(
        _ type: T.Type, _ body: (CodableFacts<T>) throws -> Result
    ) rethrows -> Result {
        // Kept under T's identity by `make`, so a CodableFacts<T>, and never freed.
        try Unmanaged<CodableFacts<T>>.fromOpaque(codables.address(for: type) { CodableFacts<T>() })
            ._withUnsafeGuaranteedRef(body)
    }

    /// `T.contentType`, read on the first call for `T` and kept.
    static func contentType<T: TransferCodable>(of type: T.Type) -> UniformType {
        withCodable(type) { $0.contentType }
    }

    /// `[T.contentType]`.
    static func contentTypes<T: TransferCodable>(of type: T.Type) -> [UniformType] {
        withCodable(type) { $0.contentTypes }
    }

    /// A `T` decoded from `data` with `T.transferCoding`.
    static func decode<T: TransferCodable>(_ type: T.Type, from data: Data) throws -> T {
        try withCodable(type) { try $0.coding.decode(data) }
    }

    /// Whether `type` is a ``TransferRepresentable`` that imports asynchronously.
    static func importsAsynchronously(_ type: Any.Type) -> Bool {
        let address = asynchronousImporters.address(for: type) {
            (type as? any TransferRepresentable.Type)?.importsAsynchronously ?? false ? Flag.yes : Flag.no
        }
        return Unmanaged<Flag>.fromOpaque(address)._withUnsafeGuaranteedRef { $0.value }
    }
}
