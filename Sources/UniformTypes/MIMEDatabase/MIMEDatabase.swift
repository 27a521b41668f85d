/// The freedesktop.org shared-mime-info database, read from the text files of one or more mime directories.
///
/// Loading reads `types`, `aliases`, `subclasses` and `globs2` (or the older `globs`) of every directory;
/// type descriptions live in one XML file per type and are read only when asked for
/// (``description(for:)``). The database is GPL data: it is read at run time, never bundled.
///
/// All queries take MIME type names case-insensitively and answer with the database's own spelling.
///
/// ```swift
/// let database = MIMEDatabase(environment: ProcessInfo.processInfo.environment)
/// database.mimeTypes(forFileName: "notes.md")      // ["text/markdown"]
/// database.canonical(for: "text/x-markdown")       // "text/markdown"
/// database.parents(of: "image/svg+xml")            // ["application/xml"]
/// ```
package struct MIMEDatabase: Sendable {
    /// The mime directories this database was loaded from, highest precedence first.
    let directories: [String]
    /// Every canonical MIME type of every directory, highest-precedence directory first, then file order.
    package let mimeTypes: [String]
    /// Every effective glob (after `__NOGLOBS__`), highest-precedence directory first, then file order.
    let globs: [MIMEGlob]
    /// Lines that were skipped because they were malformed, over all files read.
    package let skippedLineCount: Int
    /// Files that exist but could not be read (permissions, not a regular file, too large); they were skipped.
    let unreadableFiles: [String]

    /// Lowercased type name → spelling, for the types of `types` files.
    let typeSpellings: [String: String]
    /// Lowercased alias → the canonical type's spelling; the highest-precedence directory's entry wins.
    let aliasTargets: [String: String]
    /// Lowercased canonical type → its aliases, in load order.
    let aliasesByType: [String: [String]]
    /// Lowercased type → parents named in `subclasses` files (union over directories, without duplicates).
    let explicitParents: [String: [String]]
    /// What the explicit parents of each type lead to (see ``explicitReach(explicitParents:canonical:)``); set by
    /// the builder once the other tables exist.
    var explicitReach: [String: MIMEReach] = [:]
    /// The steps computing ``explicitReach`` took: the work count that tests bound.
    var explicitReachSteps = 0
    /// Lowercased literal pattern → indices into `globs`; case-insensitive and case-sensitive globs apart.
    let literalGlobs: [String: [Int]]
    let caseSensitiveLiteralGlobs: [String: [Int]]
    /// Text after the `*` of a suffix pattern → indices into `globs`.
    let suffixGlobs: [String: [Int]]
    let caseSensitiveSuffixGlobs: [String: [Int]]
    /// Indices into `globs` of the fnmatch-style patterns.
    let patternGlobs: [Int]
    /// Lowercased type → indices into `globs`, in weight order (highest first, then load order).
    let globsByType: [String: [Int]]

    /// The number of aliases.
    var aliasCount: Int { aliasTargets.count }

    /// The number of explicit `type parent` relations (after merging directories and removing duplicates).
    var explicitSubclassCount: Int { explicitParents.values.reduce(0) { $0 + $1.count } }

    /// Whether the database holds no types, aliases or globs (no directory had any data).
    var isEmpty: Bool { mimeTypes.isEmpty && aliasTargets.isEmpty && globs.isEmpty }

    /// Whether `mimeType` is a known type or alias.
    func contains(_ mimeType: String) -> Bool { canonical(for: mimeType) != nil }

    /// The canonical spelling of `mimeType`, resolving an alias; `nil` if the name is neither a type nor an
    /// alias.
    ///
    /// `canonical(for: "TEXT/X-MARKDOWN")` is `"text/markdown"`.
    func canonical(for mimeType: String) -> String? {
        let key = mimeType.asciiLowercased
        if let target = aliasTargets[key] { return typeSpellings[target.asciiLowercased] ?? target }
        return typeSpellings[key]
    }

    /// The aliases that resolve to `mimeType` (which may itself be an alias), in load order.
    func aliases(of mimeType: String) -> [String] {
        aliasesByType[(canonical(for: mimeType) ?? mimeType).asciiLowercased] ?? []
    }
}
