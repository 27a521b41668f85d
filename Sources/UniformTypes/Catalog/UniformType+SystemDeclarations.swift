extension UniformType {
    /// The built-in declarations that ``TypeCatalog/shared`` and every catalog made with
    /// `includingSystemTypes: true` start with: the public.* hierarchy and other well-known types
    /// with their parents, filename extensions and MIME types as Apple declares them, plus a few
    /// formats Apple does not declare, in the `org.transferkit.` domain.
    public static let systemDeclarations: [UniformTypeDeclaration] = SystemTypeEntry.table.map { entry in
        var tags: [UniformTypeTagClass: [String]] = [:]
        if !entry.extensions.isEmpty {
            tags[.filenameExtension] = entry.extensions
        }
        if !entry.mimeTypes.isEmpty {
            tags[.mimeType] = entry.mimeTypes
        }
        return UniformTypeDeclaration(
            identifier: UniformType(trusted: entry.identifier),
            conformsTo: entry.parents.map { UniformType(trusted: $0) },
            tags: tags,
            description: entry.description
        )
    }
}
