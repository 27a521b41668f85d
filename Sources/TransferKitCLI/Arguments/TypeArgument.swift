package import UniformTypes

/// The uniform type an option's value names, one rule for every command: a MIME type when the value has a `/`
/// (`text/uri-list`, through the catalogue's tags), else a uniform type identifier.
package enum TypeArgument {
    /// The type `value` names.
    ///
    /// - Throws: ``UsageError`` for a MIME type that is not `type/subtype`, or an identifier that is not valid.
    package static func type(_ value: String, catalog: TypeCatalog) throws(UsageError) -> UniformType {
        if value.contains("/") {
            guard let type = catalog.type(mimeType: value) else {
                throw UsageError("'\(value)' is not a valid MIME type (expected type/subtype)")
            }
            return type
        }
        guard let type = UniformType(value) else {
            throw UsageError("'\(value)' is not a valid uniform type identifier")
        }
        return type
    }
}
