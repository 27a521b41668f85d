import TransferKitPlatform
import UniformTypes

/// What the loading path asks of a model type on every load, worked out once per type and process.
///
/// A ``TransferCodable`` type's ``TransferCodable/contentType`` is usually a computed property that calls
/// `UniformType(exportedAs:conformingTo:)`, which parses the identifier and declares the type in the catalog (about
/// a microsecond, more than a small model's whole CBOR round trip); its ``TransferCodable/transferCoding`` makes
/// two closures and a coder each time; and asking whether a reader is ``TransferRepresentable`` is a dynamic cast.
/// The answers are fixed for a type, so they are kept here (profiled: together they were about half of a small
/// model's provider round trip).
enum TransferTypeFacts {
    /// The content type of each ``TransferCodable`` type, alone and as a one-element array (so that
    /// `writableTypes` and `readableTypes` allocate no array).
    private static let contentTypes = SanitizedMutex<[ObjectIdentifier: (UniformType, [UniformType])]>([:])
    /// The `TransferCoding<T>` of each type `T`, in a ``CodingBox``.
    private static let codings = SanitizedMutex<[ObjectIdentifier: AnyObject]>([:])
    private static let asynchronousImporters = SanitizedMutex<[ObjectIdentifier: Bool]>([:])

    /// A type's coding, boxed so that it can be stored by type identity and read back without a dynamic cast.
    private final class CodingBox<T>: Sendable {
        let coding: TransferCoding<T>
        init(_ coding: TransferCoding<T>) { self.coding = coding }
    }

    private static func contentTypeFacts<T: TransferCodable>(_ type: T.Type) -> (UniformType, [UniformType]) {
        let key = ObjectIdentifier(type)
        if let known = contentTypes.withLock({ $0[key] }) {
            return known
        }
        let contentType = T.contentType
        contentTypes.withLock { $0[key] = (contentType, [contentType]) }
        return (contentType, [contentType])
    }

    /// `T.contentType`, read on the first call for `T` and kept.
    static func contentType<T: TransferCodable>(of type: T.Type) -> UniformType {
        contentTypeFacts(type).0
    }

    /// `[T.contentType]`.
    static func contentTypes<T: TransferCodable>(of type: T.Type) -> [UniformType] {
        contentTypeFacts(type).1
    }

    /// `T.transferCoding`, read on the first call for `T` and kept.
    static func coding<T: TransferCodable>(of type: T.Type) -> TransferCoding<T> {
        let key = ObjectIdentifier(type)
        if let known = codings.withLock({ $0[key] }) {
            // Stored under T's identity by the line below, so it is a CodingBox<T>.
            return unsafeDowncast(known, to: CodingBox<T>.self).coding
        }
        let coding = T.transferCoding
        codings.withLock { $0[key] = CodingBox(coding) }
        return coding
    }

    /// Whether `type` is a ``TransferRepresentable`` that imports asynchronously.
    static func importsAsynchronously(_ type: Any.Type) -> Bool {
        let key = ObjectIdentifier(type)
        if let known = asynchronousImporters.withLock({ $0[key] }) {
            return known
        }
        let computed = (type as? any TransferRepresentable.Type)?.importsAsynchronously ?? false
        asynchronousImporters.withLock { $0[key] = computed }
        return computed
    }
}
