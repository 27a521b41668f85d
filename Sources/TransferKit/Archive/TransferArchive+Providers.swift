import TransferKitPlatform
public import UniformTypes

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension TransferArchive {
    /// An archive of the given providers: every representation visible to other processes (registered with
    /// ``TransferVisibility/all``), loaded as data in fidelity order, with each provider's suggested name and
    /// metadata. Representations visible only to their own process are never written.
    ///
    /// The archive also carries the declarations of the types it uses that other programs may not know (a type
    /// declared with `UniformType(exportedAs:conformingTo:)`, say), taken from each provider's catalogue, so that a
    /// reader learns what they conform to without a declarations file of its own (``declarations``).
    ///
    /// ```swift
    /// let archive = try await TransferArchive(providers: [TransferProvider(object: card)])
    /// ```
    ///
    /// - Parameters:
    ///   - providers: The items, in order.
    ///   - progress: Its total becomes the number of representations to load; each load reports into a child
    ///     worth one unit. Cancelling it cancels the loads.
    ///   - declaringTypes: Whether the archive carries the declarations of its types (the default); without them a
    ///     reader knows only the types it declares itself.
    /// - Throws: ``TransferError`` from a load handler (`TransferError.Code.loaderFailed`,
    ///   `TransferError.Code.cancelled`, …).
    public init(
        providers: [TransferProvider], progress: TransferProgress? = nil, declaringTypes: Bool = true
    ) async throws {
        let visible = providers.map(\.entriesVisibleToOtherProcesses)
        if let progress {
            progress.totalUnitCount = Int64(visible.reduce(0) { $0 + $1.count })
        }
        var items: [Item] = []
        for (provider, entries) in zip(providers, visible) {
            var item = Item(suggestedName: provider.suggestedName, metadata: provider.metadata)
            for entry in entries {
                let child = progress?.makeChild(withPendingUnitCount: 1)
                let data = try await provider.run(entry, progress: child) { loadProgress in
                    try await provider.loadData(from: entry, loadProgress)
                }
                item.representations.append(Representation(type: entry.type, data: data))
                child?.finish()
            }
            items.append(item)
        }
        self.init(
            items: items, declarations: declaringTypes ? Self.declarations(of: providers, entries: visible) : [])
    }

    /// The declarations an archive of `providers` carries: those of the types of `entries` (each provider's visible
    /// ones) in each provider's catalogue, the first of each identifier, sorted by identifier.
    static func declarations(
        of providers: [TransferProvider], entries: [[TransferProvider.Entry]]
    ) -> [UniformTypeDeclaration] {
        var seen: Set<UniformType> = []
        var declarations: [UniformTypeDeclaration] = []
        for (provider, entries) in zip(providers, entries) {
            for declaration in Self.declarations(for: entries.map(\.type), in: provider.catalog)
            where seen.insert(declaration.identifier).inserted {
                declarations.append(declaration)
            }
        }
        return declarations.sorted { $0.identifier.identifier.lowercased() < $1.identifier.identifier.lowercased() }
    }

    /// One provider per item, each with a data representation per archived representation (in the archive's
    /// fidelity order), the item's suggested name and its metadata.
    ///
    /// Readers then use the usual ``TransferProvider/loadObject(ofClass:progress:)``:
    ///
    /// ```swift
    /// let card = try await archive.makeProviders()[0].loadObject(ofClass: Card.self)
    /// ```
    ///
    /// The providers decide conformance with `catalog` plus the archive's ``declarations`` where they may be used
    /// (``carriedDeclarations(in:)``): a `com.example.card` representation that the archive declares as JSON loads
    /// as `public.json` in a program that never declared the type. `catalog` itself does not change.
    /// - Parameter catalog: The catalogue the providers use for conformance.
    /// - Returns: The providers, in item order.
    public func makeProviders(catalog: TypeCatalog = .shared) -> [TransferProvider] {
        let catalog = declarations.isEmpty ? catalog : carriedDeclarations(in: catalog).catalog
        return items.map { item in
            let provider = TransferProvider(catalog: catalog)
            for representation in item.representations {
                let data = representation.data
                provider.registerDataRepresentation(for: representation.type) { _ in data }
            }
            provider.suggestedName = item.suggestedName
            provider.metadata = item.metadata
            return provider
        }
    }
}
