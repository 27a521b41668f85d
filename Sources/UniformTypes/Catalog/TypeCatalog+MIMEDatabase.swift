import Synchronization
import TransferKitPlatform

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension TypeCatalog {
    /// Adds the types of the freedesktop.org shared-mime-info database, the one Linux desktops
    /// use to name file types, with origin ``UniformTypeDeclaration/Origin/mimeDatabase``.
    ///
    /// The database is read at run time, never bundled (it is GPL data). A MIME type that a
    /// declared type carries, directly or through one of the database's aliases, maps to that type
    /// (`image/png` → `public.png`, `text/x-markdown` → `net.daringfireball.markdown`), and that
    /// type carries the database's name for it and its aliases as tags, after its own (a claim counts only without
    /// required parameters: `text/plain;charset=utf-8` of `public.utf8-plain-text` maps no database name); every
    /// other MIME type becomes a type named `org.freedesktop.shared-mime-info.<media>.<subtype>`
    /// (lowercased, each character outside `a–z 0–9` replaced by `-`), conforming to what its
    /// `sub-class-of` parents map to, with its extensions, MIME type and aliases as tags.
    /// A MIME type that the database gives first for an extension a declared type claims (all
    /// that gio sees for `x.c` is `text/x-csrc`; `public.c-source` claims `c`) merges into that
    /// declared type instead, which gains the MIME type and its aliases; its identifier and
    /// conformance stay as declared. There is no merge when the declared type's own MIME type has
    /// that extension in the database too (`*.otf` is an OpenDocument formula template first, and
    /// `font/otf` second): the extension then has two meanings, and each keeps its type.
    /// Afterwards, MIME lookups resolve aliases, and extension lookups that no declared type
    /// answers follow the database's glob rules (weights, then the longest pattern).
    ///
    /// ```swift
    /// let catalog = TypeCatalog()
    /// let summary = catalog.importMIMEDatabase()
    /// catalog.type(mimeType: "text/x-markdown")        // net.daringfireball.markdown
    /// catalog.type(filenameExtension: "blend")         // org.freedesktop.shared-mime-info.application.x-blender
    /// ```
    ///
    /// Importing again adds only the MIME types that earlier imports did not cover; the earlier
    /// import wins. Declarations registered later win tags over the imported types, but types
    /// already mapped stay as they are. ``shared`` imports the system database by itself, the
    /// first time a query needs it; calling this method on ``shared`` before that replaces that
    /// automatic import.
    ///
    /// - Parameter directories: The mime directories, highest precedence first; `nil` for the XDG
    ///   search path: `$XDG_DATA_HOME/mime` (default `~/.local/share/mime`), then `<dir>/mime` for
    ///   each directory of `$XDG_DATA_DIRS` (default `/usr/local/share:/usr/share`). Missing
    ///   directories and files contribute nothing; with no database at all the catalog is unchanged.
    /// - Returns: What was read and added.
    @discardableResult
    public func importMIMEDatabase(directories: [URL]? = nil) -> MIMEImportSummary {
        guard let lazy = lazyMIMEImport else {
            return performMIMEImport(directories: directories)
        }
        let summary = lazy.state.withLock { done in
            done = true
            return performMIMEImport(directories: directories)
        }
        lazy.finished.store(true, ordering: .releasing)
        lazy.forgetParsedDatabase()
        return summary
    }

    /// Imports the system database into ``shared`` once, the first time a caller needs it; the
    /// callers that come while it runs wait for it. A long-running process that must answer fast
    /// later (the clipboard keeper, whose restore races the next owner) calls it at its start.
    package func importSystemMIMEDatabaseIfNeeded() {
        guard let lazy = lazyMIMEImport, !lazy.finished.load(ordering: .acquiring) else {
            return
        }
        lazy.state.withLock { done in
            if !done {
                done = true
                let clock = ContinuousClock()
                let start = clock.now
                _ = importMIMEDatabase(lazy.database(), directories: lazy.paths, since: start, clock: clock)
            }
        }
        lazy.finished.store(true, ordering: .releasing)
    }

    /// Whether this catalog imports the system MIME database lazily and has not yet done so.
    var isMIMEImportPending: Bool {
        // Read in place, not bound: binding the import retained and released it, two atomic operations on every
        // warm query (see `mayNeedMIMEDatabase`) for a question that is over once the import has finished.
        lazyMIMEImport?.finished.load(ordering: .acquiring) == false
    }

    /// Whether answering a question about `type` may need the MIME database: only identifiers in
    /// the database's domain can be declared by an import.
    func mayNeedMIMEDatabase(_ type: UniformType) -> Bool {
        isMIMEImportPending && type.canonical.hasPrefix(MIMEImporter.identifierPrefix)
    }

    private func performMIMEImport(directories: [URL]?) -> MIMEImportSummary {
        let clock = ContinuousClock()
        let start = clock.now
        let paths = LazyMIMEImport.paths(of: directories)
        return importMIMEDatabase(MIMEDatabase(directories: paths), directories: paths, since: start, clock: clock)
    }

    /// Imports a database already parsed (from ``MIMEDatabase/init(files:)``, for the fuzzer), as
    /// ``importMIMEDatabase(directories:)`` imports the one it reads.
    package func importMIMEDatabase(_ database: MIMEDatabase) -> MIMEImportSummary {
        let clock = ContinuousClock()
        return importMIMEDatabase(database, directories: [], since: clock.now, clock: clock)
    }

    private func importMIMEDatabase(
        _ database: MIMEDatabase, directories paths: [String], since start: ContinuousClock.Instant,
        clock: ContinuousClock
    ) -> MIMEImportSummary {
        var imported = 0
        var mapped = 0
        var already = 0
        var problem: String?
        if !database.isEmpty {
            try? update { snapshot in
                let result = MIMEImporter.importing(database, into: snapshot)
                imported = result.importedTypeCount
                mapped = result.mappedToDeclaredTypeCount
                already = result.alreadyImportedCount
                problem = result.problem?.description
                return result.snapshot
            }
        }
        return MIMEImportSummary(
            directories: paths.map { URL(fileURLWithPath: $0, isDirectory: true) },
            mimeTypeCount: database.mimeTypes.count, importedTypeCount: imported, mappedToDeclaredTypeCount: mapped,
            alreadyImportedCount: already, aliasCount: database.aliasCount, globCount: database.globs.count,
            skippedLineCount: database.skippedLineCount, unreadableFiles: database.unreadableFiles, problem: problem,
            duration: clock.now - start)
    }
}

/// The state of ``TypeCatalog/shared``'s automatic import of the system MIME database.
final class LazyMIMEImport: Sendable {
    /// The directories to import; `nil` for the XDG search path.
    let directories: [URL]?
    /// Set once the import has run; lets queries skip the lock afterwards.
    let finished = Atomic<Bool>(false)
    /// Whether the import has started (or was replaced by an explicit one); the lock makes
    /// callers that need the database wait until it is in.
    let state = SanitizedMutex(false)
    /// The database of ``directories``, parsed once by whoever needs it first: ``TypeCatalog/tags(of:)`` before the
    /// import, or the import, which then keeps it in the catalog's index.
    private let parsed = SanitizedMutex<MIMEDatabase?>(nil)

    /// What ``mergedMIMETypes(into:in:)`` worked out, for the one snapshot it was worked out over (held weakly: a
    /// newer snapshot, after a registration, starts afresh).
    private struct Merges {
        weak var snapshot: CatalogSnapshot?
        var byType: [UniformType: [String]] = [:]
    }

    /// The most types whose merges are kept for one snapshot (each is a declared type, so this is rarely reached).
    static let mergesCapacity = 4096

    private let merges = SanitizedMutex(Merges())

    /// An index over the parsed database alone, for sniffing before the import (``sniffingIndex()``).
    private let sniffing = SanitizedMutex<MIMEIndex??>(nil)

    init(directories: [URL]? = nil) {
        self.directories = directories
    }

    /// The paths of `directories`, or of the XDG search path for `nil`.
    static func paths(of directories: [URL]?) -> [String] {
        directories.map { $0.map(\.path) }
            ?? MIMEDatabase.searchDirectories(environment: Syscall.environment())
    }

    /// The paths the import reads.
    var paths: [String] { Self.paths(of: directories) }

    /// Lets the parsed database go, once an import of other directories has replaced this one.
    func forgetParsedDatabase() {
        parsed.withLock { $0 = nil }
        sniffing.withLock { $0 = nil }
    }

    /// An index over the database of ``directories`` without its types, made on the first call: what
    /// ``TypeCatalog/type(forFileNamed:contents:)`` and its siblings read while the import is pending. `nil` when
    /// there is no database, as the catalogue then has no index after the import either. Its parsed magic is its
    /// own: a sniff after the import parses the magic files again, once.
    func sniffingIndex() -> MIMEIndex? {
        sniffing.withLock { made in
            if let made { return made }
            let database = database()
            let index =
                database.isEmpty ? nil : MIMEIndex(databases: [database], typeForMIME: [:], mimeForIdentifier: [:])
            made = .some(index)
            return index
        }
    }

    /// The MIME types that importing the database now would merge into the declared `type`
    /// (``MIMEImporter/mergedMIMETypes(into:database:in:)``), kept for `snapshot`: working them out looks at every
    /// type of the database, about 160 µs, and ``TypeCatalog/tags(of:)`` is asked the same few types again and again.
    func mergedMIMETypes(into type: UniformType, in snapshot: CatalogSnapshot) -> [String] {
        if let known = merges.withLock({ $0.snapshot === snapshot ? $0.byType[type] : nil }) {
            return known
        }
        let merged = MIMEImporter.mergedMIMETypes(into: type, database: database(), in: snapshot)
        merges.withLock { kept in
            if kept.snapshot !== snapshot {
                kept = Merges(snapshot: snapshot)
            }
            if kept.byType.count < Self.mergesCapacity {
                kept.byType[type] = merged
            }
        }
        return merged
    }

    /// Whether ``database()`` has parsed the database yet (for tests that check a lookup did without it).
    var hasParsedDatabase: Bool {
        parsed.withLock { $0 != nil }
    }

    /// The database of ``directories``, parsed on the first call.
    func database() -> MIMEDatabase {
        parsed.withLock { parsed in
            if let parsed { return parsed }
            let database = MIMEDatabase(directories: paths)
            parsed = database
            return database
        }
    }
}
