import TransferKitPlatform

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
    /// Lines of `types`, `aliases` and `globs2` (or `globs`) files skipped because they were malformed.
    let typeAndGlobSkippedLineCount: Int
    /// Lines that were skipped because they were malformed, over all files read: reading it parses the `subclasses`
    /// files, if nothing has yet.
    package var skippedLineCount: Int { typeAndGlobSkippedLineCount + subclasses.skippedLineCount }
    /// Files that exist but could not be read (permissions, not a regular file, too large); they were skipped.
    let unreadableFiles: [String]

    /// Lowercased type name → spelling, for the types of `types` files.
    let typeSpellings: [String: String]
    /// Lowercased alias → the canonical type's spelling; the highest-precedence directory's entry wins.
    let aliasTargets: [String: String]
    /// Lowercased canonical type → its aliases, in load order.
    let aliasesByType: [String: [String]]
    /// The `subclasses` files as read, highest-precedence directory first; parsed the first time a query of parents
    /// asks (see ``subclasses``).
    let subclassFiles: [[UInt8]]
    /// ``subclasses``, worked out on first use and shared by the copies of this database.
    let subclassCache: MIMESubclassCache

    /// The `subclasses` files' tables, worked out the first time something asks for parents: what a database is
    /// loaded for most often, the merges of one type into a declared type (`transferkit copy`'s offers), never
    /// does, and parsing those files and walking what they lead to was about a third of loading the system database.
    var subclasses: MIMESubclassTables {
        subclassCache.value { MIMESubclassTables(files: subclassFiles, canonical: canonical(for:)) }
    }
    /// Lowercased type → parents named in `subclasses` files (union over directories, without duplicates).
    var explicitParents: [String: [String]] { subclasses.explicitParents }
    /// What the explicit parents of each type lead to (see ``explicitReach(explicitParents:canonical:)``).
    var explicitReach: [String: MIMEReach] { subclasses.reach }
    /// The steps computing ``explicitReach`` took: the work count that tests bound.
    var explicitReachSteps: Int { subclasses.reachSteps }
    /// Each glob's type lowercased (as written, an alias not resolved), at the glob's index.
    let globTypeKeys: [String]
    /// The tables over ``globs`` that answer many look-ups, made once a database has been asked more than a few
    /// times (``MIMEGlobTables/scanLimit``) and shared by its copies; until then a look-up reads ``globs`` in turn.
    let globTableCache: MIMEGlobTableCache

    /// The tables over ``globs``, made now if no look-up has made them yet.
    var globTables: MIMEGlobTables {
        // Never nil: no scan is allowed first.
        globTableCache.tables(afterScans: 0, makeGlobTables) ?? makeGlobTables()
    }

    /// The tables over ``globs`` if a look-up should use them: once they are made, or once this look-up passes the
    /// limit of scans (then it makes them); `nil` while reading ``globs`` in turn is cheaper.
    var globTablesForLookUp: MIMEGlobTables? {
        globTableCache.tables(afterScans: MIMEGlobTables.scanLimit, makeGlobTables)
    }

    private func makeGlobTables() -> MIMEGlobTables {
        MIMEGlobTables(globs: globs, typeKeys: globTypeKeys, aliasTargets: aliasTargets)
    }

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

    /// ``canonical(for:)`` lowercased, or `mimeType` lowercased when the database does not know it: the key the
    /// tables use. A name that is no alias costs one table look-up (and no copy unless it has upper case).
    func canonicalKey(for mimeType: String) -> String {
        let key = mimeType.asciiLowercased
        // A known type's spelling lowercases to its key, so only an alias changes it.
        guard let target = aliasTargets[key] else { return key }
        return target.asciiLowercased
    }

    /// Every lowercased name whose ``canonicalKey(for:)`` is one of `keys`: each key that is no alias, and each
    /// alias that resolves to one. Comparing a name's lowercased spelling with these few costs less than working out
    /// its canonical key, a hash of it, and another to look that up.
    func names(canonicalizingTo keys: Set<String>) -> [String] {
        var names: [String] = []
        for key in keys {
            if aliasTargets[key] == nil { names.append(key) }
            names.append(contentsOf: (aliasesByType[key] ?? []).map(\.asciiLowercased))
        }
        return names
    }

    /// The aliases that resolve to `mimeType` (which may itself be an alias), in load order.
    func aliases(of mimeType: String) -> [String] {
        aliasesByType[canonicalKey(for: mimeType)] ?? []
    }
}

/// What the `subclasses` files of a database say: each type's explicit parents and what they lead to.
struct MIMESubclassTables: Sendable {
    /// Lowercased type → parents named in `subclasses` files (union over directories, without duplicates).
    let explicitParents: [String: [String]]
    /// What the explicit parents of each type lead to (``MIMEDatabase/explicitReach(explicitParents:canonical:)``).
    let reach: [String: MIMEReach]
    /// The steps computing ``reach`` took.
    let reachSteps: Int
    /// Malformed lines of the files, skipped.
    let skippedLineCount: Int

    /// Parses `files` (`type parent` per line; highest precedence first, though the relation is a union) and walks
    /// what they lead to, resolving aliases with `canonical`.
    init(files: [[UInt8]], canonical: (String) -> String?) {
        /// A lowercased `type parent` pair, so that a repeated line is found without a search.
        struct ParentKey: Hashable {
            let type: String
            let parent: String
        }
        var parents: [String: [String]] = [:]
        var seen: Set<ParentKey> = []
        var skipped = 0
        for bytes in files {
            let (pairs, malformed) = MIMELineScanner.pairs(in: bytes)
            skipped += malformed
            for (type, parent) in pairs {
                let key = type.asciiLowercased
                let parentKey = parent.asciiLowercased
                guard parentKey != key else { continue }
                if seen.insert(ParentKey(type: key, parent: parentKey)).inserted {
                    parents[key, default: []].append(parent)
                }
            }
        }
        explicitParents = parents
        skippedLineCount = skipped
        (reach, reachSteps) = MIMEDatabase.explicitReach(explicitParents: parents, canonical: canonical)
    }
}

/// The lazily worked-out ``MIMEDatabase/subclasses`` of one database: computed once, under a lock, by the first
/// query that needs it.
final class MIMESubclassCache: Sendable {
    private let computed = SanitizedMutex<MIMESubclassTables?>(nil)

    /// The tables, computed by `compute` if no call has yet.
    func value(_ compute: () -> MIMESubclassTables) -> MIMESubclassTables {
        computed.withLock { computed in
            if let computed { return computed }
            let value = compute()
            computed = value
            return value
        }
    }
}

/// The look-up tables over a database's globs.
struct MIMEGlobTables: Sendable, Equatable {
    /// How many look-ups a database answers by reading its globs in turn before it makes the tables. Making them
    /// hashes each glob's pattern and type three times (about a fifth of loading the system database, 1 100 globs),
    /// where reading the globs for one name costs a few microseconds: `transferkit copy` and `types` ask a handful
    /// of names, the import of the whole database thousands.
    static let scanLimit = 16

    /// Lowercased literal pattern → indices into `globs`; case-insensitive and case-sensitive globs apart.
    let literal: [String: [Int]]
    let caseSensitiveLiteral: [String: [Int]]
    /// Text after the `*` of a suffix pattern → indices into `globs`.
    let suffix: [String: [Int]]
    let caseSensitiveSuffix: [String: [Int]]
    /// Indices into `globs` of the fnmatch-style patterns.
    let pattern: [Int]
    /// Lowercased canonical type → indices into `globs`, in weight order (highest first, then load order).
    let byType: [String: [Int]]

    /// The tables of `globs`, whose lowercased types are `typeKeys`; an alias among them counts as its target.
    init(globs: [MIMEGlob], typeKeys: [String], aliasTargets: [String: String]) {
        var literal: [String: [Int]] = [:]
        var caseSensitiveLiteral: [String: [Int]] = [:]
        // Nearly every glob is a suffix (`*.ext`): room for them all up front, so that the table is not rehashed as
        // it grows.
        var suffix: [String: [Int]] = Dictionary(minimumCapacity: globs.count)
        var caseSensitiveSuffix: [String: [Int]] = [:]
        var pattern: [Int] = []
        var byType: [String: [Int]] = Dictionary(minimumCapacity: globs.count / 2)
        for (index, glob) in globs.enumerated() {
            switch (glob.kind, glob.isCaseSensitive) {
            case (.literal, false): literal[glob.pattern, default: []].append(index)
            case (.literal, true): caseSensitiveLiteral[glob.pattern, default: []].append(index)
            case (.suffix, false): suffix[String(glob.suffix), default: []].append(index)
            case (.suffix, true): caseSensitiveSuffix[String(glob.suffix), default: []].append(index)
            case (.pattern, _): pattern.append(index)
            }
            let type = typeKeys[index]
            byType[aliasTargets[type]?.asciiLowercased ?? type, default: []].append(index)
        }
        for (type, indices) in byType where indices.count > 1 {
            byType[type] = MIMEGlobTables.inWeightOrder(indices, of: globs)
        }
        self.literal = literal
        self.caseSensitiveLiteral = caseSensitiveLiteral
        self.suffix = suffix
        self.caseSensitiveSuffix = caseSensitiveSuffix
        self.pattern = pattern
        self.byType = byType
    }

    /// `indices` into `globs` by weight, highest first, then in load order.
    static func inWeightOrder(_ indices: [Int], of globs: [MIMEGlob]) -> [Int] {
        indices.sorted { left, right in
            let (leftWeight, rightWeight) = (globs[left].weight, globs[right].weight)
            return leftWeight != rightWeight ? leftWeight > rightWeight : left < right
        }
    }
}

/// The lazily made ``MIMEGlobTables`` of one database and the count of look-ups answered without them, under a
/// lock, shared by the database's copies.
final class MIMEGlobTableCache: Sendable {
    private let state = SanitizedMutex<(tables: MIMEGlobTables?, scans: Int)>((nil, 0))

    /// Whether the tables are made.
    var isMade: Bool { state.withLock { $0.tables != nil } }

    /// The tables if they are made, or made now by `make` once `limit` look-ups have read the globs in turn; else
    /// `nil`, counting this look-up as one more scan.
    func tables(afterScans limit: Int, _ make: () -> MIMEGlobTables) -> MIMEGlobTables? {
        state.withLock { state in
            if let tables = state.tables { return tables }
            guard state.scans >= limit else {
                state.scans += 1
                return nil
            }
            let tables = make()
            state.tables = tables
            return tables
        }
    }
}
