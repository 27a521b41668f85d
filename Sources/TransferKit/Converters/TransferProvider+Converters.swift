import TransferKitPlatform
public import UniformTypes

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension TransferProvider {
    /// The converters this provider derives representations with; ``TransferConverterRegistry/shared`` unless set.
    ///
    /// Set an empty registry (`TransferConverterRegistry()`) for a provider that offers only what it registered.
    public var converters: TransferConverterRegistry {
        get { state.withLock { $0.converters } }
        set { state.withLock { $0.converters = newValue } }
    }

    /// The types this provider can be loaded as: its ``registeredTypes`` in fidelity order, then the types its
    /// ``converters`` derive from them, cheapest first.
    ///
    /// A derived type is loaded like a registered one (``loadDataRepresentation(for:progress:)``,
    /// ``loadFileRepresentation(for:progress:_:)``, ``loadStream(for:progress:)``): the registered representation
    /// is streamed through the converters then, never before. Asking for the list runs no converter.
    public var offeredTypes: [UniformType] {
        let registered = registeredTypes
        return registered + converters.derivations(from: registered, catalog: catalog).map(\.type)
    }

    /// The types ``offeredTypes`` lists that `audience` may see: derived types are visible where the registered
    /// type they come from is.
    ///
    /// - Parameter audience: Who will see the representations.
    /// - Returns: The visible registered types, then the types derived from them.
    public func offeredTypes(visibleTo audience: TransferVisibility.Audience) -> [UniformType] {
        let registered = registeredTypes(visibleTo: audience)
        return registered + converters.derivations(from: registered, catalog: catalog).map(\.type)
    }

    /// The derived entry that the one choice rule picks over registered types followed by derived ones, or the
    /// registered entry it picks; `nil` when neither conforms.
    func chooseDerived(for requested: [UniformType], entries: Entries) -> Entry? {
        let registry = state.withLock { $0.converters }
        let registered = entries.map(\.type)
        let derived = registry.derivations(from: registered, catalog: catalog)
        guard !derived.isEmpty,
            let index = catalog.chooseRepresentation(
                offered: registered + derived.map(\.type), requested: requested)
        else { return nil }
        if index < entries.count {
            return entries[index]
        }
        return derivedEntry(derived[index - entries.count], from: entries[derived[index - entries.count].sourceIndex])
    }

    /// An entry whose stream is `source`'s through the derivation's converters, made when loaded.
    private func derivedEntry(_ derivation: TransferConverterRegistry.Derivation, from source: Entry) -> Entry {
        let stream: @Sendable (TransferProgress) async throws -> TransferByteStream = { progress in
            derivation.convert(try await self.plainStream(of: source, progress))
        }
        let collect: @Sendable (TransferProgress) async throws -> Data = { progress in
            try await stream(progress).collect(progress: progress)
        }
        var entry = Entry(type: derivation.type, visibility: source.visibility, source: .data(collect), stream: stream)
        let name = source.suggestedName ?? suggestedName
        entry.suggestedName = name.map(\.deletingFilenameExtension)
        return entry
    }

    /// The stream of an entry without progress bookkeeping of its own: its handler's, its file's, or its data as one
    /// chunk.
    private func plainStream(of entry: Entry, _ progress: TransferProgress) async throws -> TransferByteStream {
        if let handler = entry.stream {
            return try await handler(progress)
        }
        if case .file(_, let loader) = entry.source {
            let url = try await loader(progress)
            return try TransferByteStream(contentsOf: url)
        }
        return TransferByteStream(data: try await loadData(from: entry, progress))
    }
}
