extension UniformType {
    /// The built-in declarations that ``TypeCatalog/shared`` and every catalog made with
    /// `includingSystemTypes: true` start with: the public.* hierarchy and other well-known types
    /// with their parents, filename extensions and MIME types as Apple declares them, plus a few
    /// formats Apple does not declare, in the `org.transferkit.` domain.
    public static let systemDeclarations: [UniformTypeDeclaration] = {
        let table = SystemTypeEntry.table
        // Parents reuse the value made for their own entry: one lookup instead of making a type.
        var made: [String: UniformType] = [:]
        made.reserveCapacity(table.count)
        for entry in table {
            made[entry.identifier] = UniformType(trusted: entry.identifier)
        }
        return table.map { entry in
            // Literals size each dictionary once, rather than growing it for the second class.
            let tags: [UniformTypeTagClass: [String]] =
                switch (entry.extensions.isEmpty, entry.mimeTypes.isEmpty) {
                case (false, false): [.filenameExtension: entry.extensions, .mimeType: entry.mimeTypes]
                case (false, true): [.filenameExtension: entry.extensions]
                case (true, false): [.mimeType: entry.mimeTypes]
                case (true, true): [:]
                }
            return UniformTypeDeclaration(
                identifier: made[entry.identifier] ?? UniformType(trusted: entry.identifier),
                conformsTo: entry.parents.map { made[$0] ?? UniformType(trusted: $0) },
                tags: tags,
                description: entry.description
            )
        }
    }()
}
