#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// What ``TypeCatalog/importMIMEDatabase(directories:)`` read and added.
///
/// ```swift
/// let summary = catalog.importMIMEDatabase()
/// print("\(summary.importedTypeCount) types added, \(summary.mappedToDeclaredTypeCount) mapped")
/// ```
public struct MIMEImportSummary: Sendable, Hashable {
    /// The mime directories searched, highest precedence first (missing ones included).
    public var directories: [URL]
    /// The MIME types the database defines, aliases not counted.
    public var mimeTypeCount: Int
    /// The types added to the catalog: one for each MIME type that no declared type carries.
    public var importedTypeCount: Int
    /// The MIME types that map to a declared type, because it carries them or one of their aliases.
    public var mappedToDeclaredTypeCount: Int
    /// The MIME types skipped because an earlier import into the same catalog covered them.
    public var alreadyImportedCount: Int
    /// The aliases the database defines; they resolve to their MIME type's uniform type.
    public var aliasCount: Int
    /// The filename globs the database defines.
    public var globCount: Int
    /// Malformed lines of the database files that were skipped.
    public var skippedLineCount: Int
    /// Database files that exist but could not be read; they were skipped.
    public var unreadableFiles: [String]
    /// Why nothing was added although the database had types, or `nil`; not expected in practice.
    public var problem: String?
    /// How long reading the database and adding its types took.
    public var duration: Duration

    /// Whether the directories held no database: the catalog is unchanged.
    public var isEmpty: Bool {
        mimeTypeCount == 0 && aliasCount == 0 && globCount == 0
    }
}
