/// Accumulates the files of mime directories, highest precedence first, into a ``MIMEDatabase``.
///
/// Precedence, as the spec and `gio` apply it: `types` are a union; for an alias the highest-precedence
/// directory's target wins; `subclasses` are a union; globs are a union, except that a
/// `weight:type:__NOGLOBS__` line drops the globs of that type from every lower-precedence directory.
struct MIMEDatabaseBuilder {
    /// A type's pattern, lowercased, flags ignored: a glob whose key an earlier glob has is dropped.
    /// `update-mime-database` writes a case-sensitive glob twice, `50:text/x-c++src:*.C:cs` then
    /// `50:text/x-c++src:*.C`; like `gio`, only the first line of such a pair counts, otherwise `*.C` would also
    /// match `x.c` and `core` also `Core`. Lowercasing also drops `*.X` after `*.x` (both match the same names),
    /// which keeping the pattern as written did not (the fuzzer found the database then differed from itself
    /// written back).
    private struct GlobKey: Hashable {
        let type: String
        let pattern: String

        /// The pattern alone: equal keys have equal patterns, and few patterns belong to two types, so hashing the
        /// type as well cost a second string's hash per glob (about 3 % of `transferkit types public.png`) and told
        /// almost no keys apart.
        func hash(into hasher: inout Hasher) {
            hasher.combine(pattern)
        }
    }

    private var mimeTypes: [String] = []
    private var typeSpellings: [String: String] = [:]
    private var aliasTargets: [String: String] = [:]
    private var aliasesInLoadOrder: [String] = []
    /// The `subclasses` files, kept as read: the database parses them when first asked for parents.
    private var subclassFiles: [[UInt8]] = []
    private var globs: [MIMEGlob] = []
    /// Each glob's type lowercased, at the glob's index (``MIMEDatabase/globTypeKeys``).
    private var globTypeKeys: [String] = []
    private var globKeys: Set<GlobKey> = []
    /// Types whose globs a higher-precedence directory ended with `__NOGLOBS__`.
    private var closedGlobTypes: Set<String> = []
    private var skippedLineCount = 0
    private var unreadableFiles: [String] = []

    /// Reads the files of one mime directory, which has lower precedence than those added before it.
    mutating func addDirectory(_ directory: String) {
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        var files = MIMEDirectoryFiles()
        files.types = read(prefix + "types")
        files.aliases = read(prefix + "aliases")
        files.subclasses = read(prefix + "subclasses")
        files.globs2 = read(prefix + "globs2")
        if files.globs2 == nil { files.globs = read(prefix + "globs") }
        add(files)
    }

    /// Adds the files of one mime directory, already read; `globs` counts only without `globs2`.
    mutating func add(_ files: MIMEDirectoryFiles) {
        if let bytes = files.types { addTypes(bytes) }
        if let bytes = files.aliases { addAliases(bytes) }
        if let bytes = files.subclasses { subclassFiles.append(bytes) }
        if let bytes = files.globs2 {
            addGlobs(bytes, hasWeights: true)
        } else if let bytes = files.globs {
            addGlobs(bytes, hasWeights: false)
        }
    }

    /// The database holding everything added so far.
    func build(directories: [String]) -> MIMEDatabase {
        var aliasesByType: [String: [String]] = [:]
        for alias in aliasesInLoadOrder {
            if let target = aliasTargets[alias.asciiLowercased] {
                aliasesByType[target.asciiLowercased, default: []].append(alias)
            }
        }
        return MIMEDatabase(
            directories: directories, mimeTypes: mimeTypes, globs: globs, typeAndGlobSkippedLineCount: skippedLineCount,
            unreadableFiles: unreadableFiles, typeSpellings: typeSpellings, aliasTargets: aliasTargets,
            aliasesByType: aliasesByType, subclassFiles: subclassFiles, subclassCache: MIMESubclassCache(),
            globTypeKeys: globTypeKeys, globTableCache: MIMEGlobTableCache())
    }

    private mutating func read(_ path: String) -> [UInt8]? {
        switch MIMEDataFile.read(atPath: path) {
        case .contents(let bytes): return bytes
        case .missing: return nil
        case .unreadable:
            unreadableFiles.append(path)
            return nil
        }
    }

    /// `types`: one MIME type per line.
    private mutating func addTypes(_ bytes: [UInt8]) {
        let lines = MIMELineScanner.lineCount(in: bytes)
        typeSpellings.reserveCapacity(typeSpellings.count + lines)
        mimeTypes.reserveCapacity(mimeTypes.count + lines)
        MIMELineScanner.forEachLine(in: bytes) { line in
            guard let name = MIMELineScanner.mimeTypeName(in: bytes, line) else {
                skippedLineCount += 1
                return
            }
            // One hash for a new name (nearly every one); the first spelling is put back for a repeated one.
            let key = name.asciiLowercased
            if let first = typeSpellings.updateValue(name, forKey: key) {
                typeSpellings[key] = first
            } else {
                mimeTypes.append(name)
            }
        }
    }

    /// `aliases`: `alias canonical` per line.
    private mutating func addAliases(_ bytes: [UInt8]) {
        let (pairs, malformed) = MIMELineScanner.pairs(in: bytes)
        skippedLineCount += malformed
        aliasTargets.reserveCapacity(aliasTargets.count + pairs.count)
        for (alias, target) in pairs {
            let key = alias.asciiLowercased
            if let first = aliasTargets.updateValue(target, forKey: key) {
                aliasTargets[key] = first
            } else {
                aliasesInLoadOrder.append(alias)
            }
        }
    }

    /// `globs2`: `weight:type:pattern[:flags]` per line; the older `globs`: `type:pattern` with weight 50.
    private mutating func addGlobs(_ bytes: [UInt8], hasWeights: Bool) {
        var closedHere: Set<String> = []
        let lines = MIMELineScanner.lineCount(in: bytes)
        globKeys.reserveCapacity(globKeys.count + lines)
        globs.reserveCapacity(globs.count + lines)
        globTypeKeys.reserveCapacity(globTypeKeys.count + lines)
        MIMELineScanner.forEachLine(in: bytes) { line in
            guard let (glob, rawPattern) = parseGlob(bytes, line, hasWeights: hasWeights) else {
                skippedLineCount += 1
                return
            }
            let type = glob.mimeType.asciiLowercased
            if rawPattern == "__NOGLOBS__" {
                closedHere.insert(type)
                return
            }
            guard !closedGlobTypes.contains(type) else { return }
            // A case-insensitive glob's pattern is lowercased already.
            let pattern = glob.isCaseSensitive ? TextRules.lowercased(rawPattern) : glob.pattern
            let key = GlobKey(type: type, pattern: pattern)
            if globKeys.insert(key).inserted {
                globs.append(glob)
                globTypeKeys.append(type)
            }
        }
        closedGlobTypes.formUnion(closedHere)
    }

    /// The glob of one line and its pattern as written, or `nil` if the line is malformed.
    private func parseGlob(
        _ bytes: [UInt8], _ line: Range<Int>, hasWeights: Bool
    ) -> (glob: MIMEGlob, rawPattern: String)? {
        let colon = UInt8(ascii: ":")
        let fields = MIMELineScanner.fields(of: bytes, in: line, separator: colon, maximumFields: hasWeights ? 4 : 2)
        let offset = hasWeights ? 1 : 0
        guard fields.count >= 2 + offset else { return nil }
        var weight = 50
        if hasWeights {
            guard let value = MIMELineScanner.decimal(in: bytes, fields[0]), value <= 100 else { return nil }
            weight = value
        }
        guard let type = MIMELineScanner.mimeTypeName(in: bytes, fields[offset]), !fields[offset + 1].isEmpty,
            let pattern = MIMELineScanner.text(in: bytes, fields[offset + 1])
        else { return nil }
        var isCaseSensitive = false
        if fields.count > 2 + offset {
            isCaseSensitive = MIMELineScanner.list(
                bytes, fields[2 + offset], separator: UInt8(ascii: ","), contains: "cs")
        }
        return (MIMEGlob(pattern: pattern, mimeType: type, weight: weight, isCaseSensitive: isCaseSensitive), pattern)
    }
}
