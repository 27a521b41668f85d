extension TypeCatalog {
    /// The freedesktop.org shared-mime-info package for the types this catalog declares with the given origins,
    /// by default the exported ones: the types a program or library owns, which it is the one to describe to the
    /// desktop (an imported type's owner describes it).
    ///
    /// Neither the built-in types nor the MIME database's are exported, and the database is not imported for
    /// this; see ``SharedMIMEInfoPackage`` for what each declaration becomes and what is left out.
    ///
    /// ```swift
    /// try TypeCatalog.shared.loadDeclarations(from: cardsURL)
    /// let package = TypeCatalog.shared.sharedMIMEInfoPackage()
    /// package.entries.map(\.mimeType)      // ["application/vnd.example.card+json"]
    /// ```
    /// - Parameter origins: The origins whose declarations are exported.
    /// - Returns: The package; its ``SharedMIMEInfoPackage/entries`` are empty when nothing can be exported.
    public func sharedMIMEInfoPackage(
        origins: Set<UniformTypeDeclaration.Origin> = [.exported]
    ) -> SharedMIMEInfoPackage {
        let declarations = snapshot.entries.filter { origins.contains($0.origin) }.map(\.declaration)
        return SharedMIMEInfoPackage(declarations: declarations, catalog: self)
    }
}
