public import UniformTypes

extension UniformType {
    /// The binary form of a transfer archive, `org.transferkit.archive` (conforms to `public.data`), declared in
    /// ``TypeCatalog/shared`` with the file name extension `transferkit` and the MIME type
    /// `application/vnd.transferkit.archive+cbor`.
    public static let transferArchive = declareArchiveType(
        "org.transferkit.archive", conformingTo: .data, description: "TransferKit archive",
        tags: [.filenameExtension: ["transferkit"], .mimeType: ["application/vnd.transferkit.archive+cbor"]])

    /// The text form of a transfer archive, `org.transferkit.archive.json` (conforms to `public.json`), declared
    /// in ``TypeCatalog/shared`` with the MIME type `application/vnd.transferkit.archive+json`. It claims no file
    /// name extension, so `json` files stay `public.json`.
    public static let transferArchiveJSON = declareArchiveType(
        "org.transferkit.archive.json", conformingTo: .json, description: "TransferKit archive (JSON form)",
        tags: [.mimeType: ["application/vnd.transferkit.archive+json"]])

    /// Declares an exported type with tags, which ``init(exportedAs:conformingTo:)`` cannot carry.
    ///
    /// The exported declaration is registered first, so the catalog only grows (an imported declaration
    /// registered first would have to be replaced, which rebuilds the whole catalog at every launch of the tool).
    private static func declareArchiveType(
        _ identifier: String, conformingTo parent: UniformType, description: String,
        tags: [UniformTypeTagClass: [String]]
    ) -> UniformType {
        // The identifiers are constant and valid; the fallback only keeps this free of force unwraps.
        guard let type = UniformType(identifier) else {
            return UniformType(importedAs: identifier, conformingTo: parent)
        }
        let declaration = UniformTypeDeclaration(
            identifier: type, conformsTo: [parent], tags: tags, description: description)
        do {
            try TypeCatalog.shared.register([declaration], as: .exported)
        } catch {
            // The program exported the type itself, and its declaration stands; this declares it as imported
            // only if, against expectation, nothing declares it.
            return UniformType(importedAs: identifier, conformingTo: parent)
        }
        return type
    }
}
