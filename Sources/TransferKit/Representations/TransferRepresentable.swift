public import UniformTypes

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A type that declares its representations as an ordered list: Codable, data, file, or a proxy to another type.
///
/// TransferKit's counterpart of CoreTransferable's `Transferable`, async first. List the representations in order
/// of fidelity: a provider made with ``TransferProvider/init(object:)`` offers the exported ones in that order, and
/// a load tries the imported ones in that order (the reader's preference), each matched by conformance through the
/// one choice rule. Conditions, visibility and suggested file names are per representation:
///
/// ```swift
/// struct Card: Codable, TransferRepresentable {
///     var title: String
///     static var transferRepresentations: RepresentationList<Card> {
///         RepresentationList.codable(UniformType(exportedAs: "com.example.card", conformingTo: .json))
///             .suggestedFileName { "\($0.title).card" }
///         RepresentationList.proxy(exporting: { (card: Card) in card.title }, importing: { Card(title: $0) })
///             .exportingCondition { !$0.title.isEmpty }
///     }
/// }
/// let card = try await TransferProvider(data: Data("Luke".utf8), type: .plainText).loadObject(ofClass: Card.self)
/// ```
///
/// Everything else comes from the list: ``TransferProviderWriting/writableTypes-swift.property`` (the exported
/// types whose condition holds), ``TransferProviderReading/readableTypes``, visibility, `loadData(for:progress:)`
/// and `object(from:type:)`. ``TransferCodable`` is the one-line special case: one Codable representation.
public protocol TransferRepresentable: TransferProviderReading, TransferProviderWriting {
    /// The representations, highest fidelity first.
    @RepresentationListBuilder<Self> static var transferRepresentations: RepresentationList<Self> { get }

    /// Whether some representation imports asynchronously (a data, file or proxy importer), so that loads must
    /// await it rather than call `object(from:type:)`; by default looked up in the list on each load.
    static var importsAsynchronously: Bool { get }
}

extension TransferRepresentable {
    /// Whether an element of ``transferRepresentations`` has an asynchronous importer.
    public static var importsAsynchronously: Bool {
        transferRepresentations.elements.contains { element in
            if case .asynchronous = element.importer { return true }
            return false
        }
    }

    /// Every exported type, in order, without duplicates (the first representation of a type wins).
    public static var writableTypes: [UniformType] {
        transferRepresentations.exportedTypes(of: nil)
    }

    /// The exported types whose representation's condition holds for this value, in order.
    public var writableTypes: [UniformType] {
        Self.transferRepresentations.exportedTypes(of: self)
    }

    /// Every imported type, in order, without duplicates.
    public static var readableTypes: [UniformType] {
        transferRepresentations.importedTypes
    }

    /// The visibility of the first representation that exports `type`.
    public func visibility(for type: UniformType) -> TransferVisibility {
        Self.transferRepresentations.exporter(of: type, for: self)?.visibility ?? .all
    }

    /// The suggested file name of the first representation that exports `type`.
    public func suggestedFileName(for type: UniformType) -> String? {
        Self.transferRepresentations.exporter(of: type, for: self)?.suggestedFileName?(self)
    }

    /// The bytes of the first representation that exports `type` (a file representation's file is read).
    ///
    /// - Throws: ``TransferError/Code/unavailableRepresentation`` when no representation exports `type` for this
    ///   value (naming what is wrong when the declaration is one TransferKit cannot use); what the exporter throws
    ///   otherwise.
    public func loadData(for type: UniformType, progress: TransferProgress) async throws -> Data {
        let representations = Self.transferRepresentations
        guard let element = representations.exporter(of: type, for: self) else {
            throw representations.failure
                ?? TransferError(
                    code: .unavailableRepresentation,
                    message: "\(Self.self) exports no representation of \(type) for this value; exported: "
                        + "\(writableTypes.map(\.identifier)). Add one to transferRepresentations or ask for another type.",
                    source: type.identifier)
        }
        return try await element.exportData(self, type, progress)
    }

    /// Decodes with the first representation that imports a type `type` conforms to.
    ///
    /// - Throws: ``TransferError/Code/decodingFailed`` when none does, when the importer throws, or when its importer
    ///   is asynchronous (load those with ``TransferProvider/loadObject(ofClass:progress:)``, which awaits them);
    ///   ``TransferError/Code/unavailableRepresentation`` naming what is wrong when the declaration is one
    ///   TransferKit cannot use.
    public static func object(from data: Data, type: UniformType) throws -> Self {
        let representations = transferRepresentations
        guard let element = representations.importer(for: type, catalog: .shared) else {
            throw representations.failure
                ?? TransferError(
                    code: .decodingFailed,
                    message: "\(Self.self) imports no representation that \(type) conforms to; imported: "
                        + "\(readableTypes.map(\.identifier)).",
                    source: type.identifier)
        }
        guard case .synchronous(let importer) = element.importer else {
            throw TransferError(
                code: .decodingFailed,
                message: "\(Self.self) imports \(type) asynchronously; load it with TransferProvider's async "
                    + "loadObject(ofClass:progress:) instead of the synchronous object(from:type:).",
                source: type.identifier)
        }
        return try importer(data, type)
    }
}

/// Why TransferKit cannot use the representations of `type`: the failure of its list if it is a
/// ``TransferRepresentable`` whose declaration could not be used (see `RepresentationList.failure`), else `nil`.
///
/// Asked only on error paths and for types that registered nothing, so ordinary loads never build the list for it.
func representationFailure(of type: Any.Type) -> TransferError? {
    func failure<Representable: TransferRepresentable>(_ representable: Representable.Type) -> TransferError? {
        representable.transferRepresentations.failure
    }
    guard let representable = type as? any TransferRepresentable.Type else { return nil }
    return failure(representable)
}
