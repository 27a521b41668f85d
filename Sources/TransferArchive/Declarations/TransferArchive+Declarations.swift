public import UniformTypes

extension TransferArchive {
    /// The declarations that an archive of items of `types` should carry, so that a reader needs nothing but the
    /// archive (`Schemas/transfer-archive.md` §3.6): the catalogue's declarations of those types and of the parents
    /// they reach, except the types every reader knows (system types and the Linux MIME database's) and those an
    /// archive cannot carry (identifiers outside its ASCII grammar, `public.` and `dyn.` types), sorted by identifier.
    ///
    /// ```swift
    /// let card = UniformType(exportedAs: "com.example.card", conformingTo: .json)
    /// TransferArchive.declarations(for: [card, .png])   // [com.example.card, conforming to public.json]
    /// ```
    /// - Parameters:
    ///   - types: The types the items use.
    ///   - catalog: The catalogue that declares them.
    /// - Returns: The declarations, each with its identifier, parents, tags and description.
    public static func declarations(
        for types: some Sequence<UniformType>, in catalog: TypeCatalog = .shared
    ) -> [UniformTypeDeclaration] {
        var found: [UniformTypeDeclaration] = []
        var visited: Set<UniformType> = []
        var pending = Array(types)
        while let type = pending.popLast() {
            guard visited.insert(type).inserted, let origin = catalog.origin(of: type),
                origin == .exported || origin == .imported || origin == .carried,
                let declaration = catalog.declaration(for: type)
            else { continue }
            let carried = ArchiveDeclarations.carried(declaration)
            let domain = type.identifier.prefix { $0 != "." }.lowercased()
            var alone: Set<UniformType> = []
            guard domain != "public", (try? ArchiveDeclarations.check(carried, index: 0, seen: &alone)) != nil else {
                continue
            }
            found.append(carried)
            pending.append(contentsOf: declaration.conformsTo)
        }
        return found.sorted { $0.identifier.identifier.lowercased() < $1.identifier.identifier.lowercased() }
    }

    /// A catalogue for reading this archive: `catalog` plus the archive's ``declarations`` where they may be used
    /// (never changing a type `catalog` knows), with what became of each; see
    /// `TypeCatalog.addingCarriedDeclarations(_:)`. `catalog` itself does not change.
    ///
    /// ```swift
    /// let types = archive.carriedDeclarations().catalog
    /// archive.items[0].representation(for: [.json], catalog: types)   // the com.example.card bytes
    /// ```
    /// - Parameter catalog: The reader's own catalogue.
    /// - Returns: The catalogue for this archive and each declaration's outcome.
    public func carriedDeclarations(in catalog: TypeCatalog = .shared) -> TypeCatalog.CarriedDeclarations {
        catalog.addingCarriedDeclarations(declarations)
    }
}
