#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension TypeCatalog {
    /// Loads a type-declaration file and registers its exported and imported declarations, all
    /// or none.
    ///
    /// The format is specified by `Schemas/type-declarations.schema.json`: an object with an
    /// `exported` and an `imported` array of declarations (the equivalents of Info.plist's
    /// `UTExportedTypeDeclarations` and `UTImportedTypeDeclarations`). Any library can ship such a
    /// file and load it at run time:
    ///
    /// ```json
    /// {
    ///   "exported": [{
    ///     "identifier": "com.example.card",
    ///     "conformsTo": ["public.json"],
    ///     "tags": { "public.filename-extension": ["card"],
    ///               "public.mime-type": ["application/vnd.example.card+json"] },
    ///     "description": "Example card",
    ///     "referenceURL": "https://example.com/card",
    ///     "version": 1
    ///   }],
    ///   "imported": [{ "identifier": "com.other.base", "conformsTo": ["public.data"] }]
    /// }
    /// ```
    ///
    /// ```swift
    /// try TypeCatalog.shared.loadDeclarations(from: Bundle.module.url(forResource: "Cards", withExtension: "json")!)
    /// UniformType(filenameExtension: "card")?.conforms(to: .json)   // true
    /// ```
    ///
    /// Entries of one file may refer to each other in any order, across the two lists. The rules
    /// of ``register(_:as:)`` apply to each list with its origin: an exported declaration replaces
    /// an imported one of the same identifier whichever was loaded first, and declaring an
    /// identifier again with the same origin (in the file or in an earlier one) is an error.
    ///
    /// - Parameter url: A `file:` URL.
    /// - Throws: ``UniformTypeError`` whose `UniformTypeError.source` names the file and, for
    ///   problems of one entry, the entry (`/path/Cards.json: exported[2] com.example.card`), with
    ///   code `unreadableFile`, `invalidJSON`, `invalidDeclaration` (a missing identifier, a field of
    ///   the wrong type, an unknown key), `invalidIdentifier`, `invalidTag`, `unknownParent`,
    ///   `duplicateIdentifier` or `conformanceCycle`. Nothing of the file is registered then.
    public func loadDeclarations(from url: URL) throws(UniformTypeError) {
        guard url.isFileURL else {
            throw UniformTypeError(
                code: .unreadableFile,
                message: "'\(url.absoluteString)' is not a file URL; download the file first, then load it.",
                source: url.absoluteString)
        }
        let path = url.path
        switch MIMEDataFile.read(atPath: path) {
        case .contents(let bytes):
            // Straight from the bytes read: two more copies of a 16 MiB file were 32 MiB of page faults.
            try loadDeclarations(try DeclarationFile(bytes: bytes, source: path), source: path)
        case .missing:
            throw UniformTypeError(
                code: .unreadableFile, message: "there is no such file; check the path.", source: path)
        case .unreadable:
            throw UniformTypeError(
                code: .unreadableFile,
                message: "the file cannot be read: it is not a regular file, is larger than "
                    + "\(DeclarationFile.maximumSize) bytes, or its permissions forbid reading it.",
                source: path)
        }
    }

    /// Registers the declarations of a type-declaration document, all or none; see
    /// ``loadDeclarations(from:)-(URL)``.
    /// - Parameters:
    ///   - data: The JSON document.
    ///   - source: How errors name the document, e.g. a file name; entries are named
    ///     `<source>: exported[<n>] <identifier>`.
    /// - Throws: ``UniformTypeError``, as ``loadDeclarations(from:)-(URL)`` does.
    public func loadDeclarations(from data: Data, source: String) throws(UniformTypeError) {
        try loadDeclarations(try DeclarationFile(data: data, source: source), source: source)
    }

    /// Registers the declarations of a parsed file, all or none.
    /// - Parameter file: The file, given up: its declarations move into the catalog's entries, uncopied.
    private func loadDeclarations(_ file: consuming DeclarationFile, source: String) throws(UniformTypeError) {
        // Each list's types count as known parents of the other list's; a file with one list needs no set.
        let exportedIdentifiers = file.imported.isEmpty ? [] : Set(file.exported.map(\.identifier))
        let importedIdentifiers = file.exported.isEmpty ? [] : Set(file.imported.map(\.identifier))
        var exported = file.exported
        var imported = file.imported
        let isChecked = file.isChecked
        // Only these lists hold the declarations now, so they move rather than being copied.
        _ = consume file
        try update { snapshot throws(UniformTypeError) in
            let withExported = try DeclarationValidator.apply(
                taking: &exported, isChecked: isChecked, as: .exported, to: snapshot, alsoKnown: importedIdentifiers
            ) { DeclarationFile.entryName(source: source, list: "exported", position: $0) }
            return try DeclarationValidator.apply(
                taking: &imported, isChecked: isChecked, as: .imported, to: withExported, alsoKnown: exportedIdentifiers
            ) { DeclarationFile.entryName(source: source, list: "imported", position: $0) }
        }
    }
}
