package import UniformTypes

/// The uniform type an option's value names, one rule for every command: a MIME type when the value has a `/`
/// (`text/uri-list`, through the catalogue's tags), else a uniform type identifier.
package enum TypeArgument {
    /// The type `value` names.
    ///
    /// A name without a dot that the catalogue does not declare (`bmp`, `.png`, `JPEG`) names no type anyone uses: it
    /// is refused with the type it most likely means, found as `transferkit types` finds one (the filename extension's
    /// type, else the declared identifier nearest in spelling): `'bmp' is not a known type; did you mean
    /// com.microsoft.bmp (image/bmp)?`. Undeclared identifiers with a dot (`com.example.card`) are taken as they are:
    /// an archive or another application may use types this catalogue does not declare.
    ///
    /// - Throws: ``UsageError`` for a MIME type that is not `type/subtype`, an identifier that is not valid, or a
    ///   dotless name that is not declared.
    package static func type(_ value: String, catalog: TypeCatalog) throws(UsageError) -> UniformType {
        if value.contains("/") {
            guard let type = catalog.type(mimeType: value) else {
                throw UsageError("'\(value)' is not a valid MIME type (expected type/subtype)")
            }
            return type
        }
        let type = UniformType(value)
        if let type, catalog.isDeclared(type) || (value.contains(".") && !value.hasPrefix(".")) {
            return type
        }
        guard let suggestion = suggestion(for: value, catalog: catalog) else {
            throw UsageError(
                type == nil
                    ? "'\(value)' is not a valid uniform type identifier"
                    : "'\(value)' is not a known type (give an identifier such as public.png, or a MIME type)")
        }
        throw UsageError("'\(value)' is not a known type; did you mean \(suggestion)?")
    }

    /// The declared type a mistyped or partial name most likely means, as `identifier (preferred/mime)`: the type its
    /// filename extension names (`bmp`, `.bmp`), else the declared identifier nearest in spelling (`public.pgn`).
    package static func suggestion(for value: String, catalog: TypeCatalog) -> String? {
        var filenameExtension = Substring(value)
        if filenameExtension.hasPrefix("*.") { filenameExtension = filenameExtension.dropFirst(2) }
        if filenameExtension.hasPrefix(".") { filenameExtension = filenameExtension.dropFirst() }
        let found: UniformType? =
            if !filenameExtension.contains("."), let type = catalog.type(filenameExtension: String(filenameExtension)),
                catalog.isDeclared(type)
            {
                type
            } else {
                Suggestion.nearest(to: value, in: catalog.declarations.map(\.identifier.identifier))
                    .flatMap(UniformType.init)
            }
        guard let found else { return nil }
        return catalog.tags(of: found)[.mimeType]?.first.map { "\(found.identifier) (\($0))" } ?? found.identifier
    }
}
