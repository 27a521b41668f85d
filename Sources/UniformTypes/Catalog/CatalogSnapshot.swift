/// An immutable view of a catalog's declarations, with everything queries need precomputed.
///
/// Each declaration has a compact index. `indexByKey` maps an identifier's process-wide key to
/// that index in one array access (every declared identifier has a key, and every entry's type carries it); `conformance` answers between indexes without hashing or
/// allocating (see ``ConformanceIndex``), in memory linear in the declarations. A catalog swaps in
/// a new snapshot when declarations are added, so answers drawn from an old snapshot stay
/// consistent.
final class CatalogSnapshot: Sendable {
    /// A declaration and where it came from.
    struct Entry: Sendable {
        var declaration: UniformTypeDeclaration
        var origin: UniformTypeDeclaration.Origin
    }

    /// A type that claims a tag, with the MIME parameters the claim requires.
    struct TagClaim: Sendable {
        var index: Int32
        /// The rank of the claiming entry's origin.
        var rank: Int
        var requiredParameters: [String: String]
    }

    let entries: [Entry]
    /// What the catalog imported from shared-mime-info databases, if anything; carried from
    /// snapshot to snapshot.
    let mimeIndex: MIMEIndex?
    private let indexByKey: [Int32]
    private let conformance: ConformanceIndex
    /// The answers given to lookups by extension and MIME type; see ``TagAnswerMemo``.
    let tagAnswers = TagAnswerMemo()
    /// Claims by tag class and normalized tag, strongest origin first, then registration order.
    private let claims: [UniformTypeTagClass: [String: [TagClaim]]]

    /// An empty catalog.
    convenience init() {
        self.init(entries: [], parents: [], order: [], mimeIndex: nil)
    }

    /// Builds a snapshot.
    /// - Parameters:
    ///   - entries: The declarations; their position is their index.
    ///   - parents: The indexes of each entry's parents.
    ///   - order: Every index once, parents before children (see `ConformanceGraph`).
    ///   - mimeIndex: What the catalog imported from shared-mime-info databases.
    convenience init(entries: [Entry], parents: [[Int32]], order: [Int32], mimeIndex: MIMEIndex?) {
        var entries = entries
        var keys: [Int32] = []
        Self.indexIdentifiers(&entries, from: 0, byKey: &keys)
        let conformance = ConformanceIndex(parents: parents, order: order)
        var claims: [UniformTypeTagClass: [String: [TagClaim]]] = [:]
        Self.indexClaims(entries, from: 0, into: &claims)
        self.init(entries: entries, mimeIndex: mimeIndex, indexByKey: keys, conformance: conformance, claims: claims)
    }

    private init(
        entries: [Entry], mimeIndex: MIMEIndex?, indexByKey: [Int32], conformance: ConformanceIndex,
        claims: [UniformTypeTagClass: [String: [TagClaim]]]
    ) {
        self.entries = entries
        self.mimeIndex = mimeIndex
        self.indexByKey = indexByKey
        self.conformance = conformance
        self.claims = claims
    }

    /// This snapshot with `added` after its entries, computed from this one's indexes: the work
    /// grows with `added`, not with the catalog (bar copying), so a program that declares its
    /// types one at a time does not rebuild the catalog for each.
    ///
    /// Valid only when no existing entry changes or names a new one as a parent: the batch replaces
    /// no declaration, and no earlier batch of the same transaction left parents to link (see
    /// `DeclarationValidator.apply`).
    /// - Parameters:
    ///   - entries: This snapshot's entries, then the new ones: their indexes follow the existing ones. Their types
    ///     are given keys in place (see `indexIdentifiers`), so the array is not copied; the snapshot keeps it.
    ///   - parents: The indexes of each new entry's parents, existing or new.
    ///   - order: The indexes of the new entries, each once, parents before children.
    ///   - mimeIndex: What the catalog imported from shared-mime-info databases, this snapshot's or a new one.
    func appending(
        entries all: inout [Entry], parents: [[Int32]], order: [Int32], mimeIndex: MIMEIndex?
    ) -> CatalogSnapshot {
        let oldCount = entries.count
        var keys = indexByKey
        Self.indexIdentifiers(&all, from: oldCount, byKey: &keys)

        var conformance = conformance
        conformance.append(parents: parents, order: order)

        var claims = claims
        Self.indexClaims(all[oldCount...], from: oldCount, into: &claims)
        return CatalogSnapshot(
            entries: all, mimeIndex: mimeIndex, indexByKey: keys, conformance: conformance, claims: claims)
    }

    /// Records the index of each entry from `start` on by its identifier's key. Declared identifiers
    /// always get a key: an entry whose type was made while the identifier table was full gets one
    /// now, and the entry keeps the keyed type, so lookups by it take one array access.
    private static func indexIdentifiers(_ entries: inout [Entry], from start: Int, byKey keys: inout [Int32]) {
        for index in start..<entries.count {
            var type = entries[index].declaration.identifier
            if type.key == UniformType.unkeyed {
                type = type.withKey(IdentifierTable.shared.key(for: type.canonical, force: true))
                IdentifierTable.shared.remember(type)
                entries[index].declaration.identifier = type
            }
            let key = Int(type.key)
            if key >= keys.count {
                keys.append(contentsOf: repeatElement(-1, count: key - keys.count + 1))
            }
            keys[key] = Int32(index)
        }
    }

    /// Adds the tag claims of `entries`, the first being at index `start`, to `claims`. Each list
    /// stays in order of origin rank, then index: the entries' indexes follow every index already
    /// in `claims`, so a claim goes after the claims of the same or a stronger origin.
    private static func indexClaims(
        _ entries: some Collection<Entry>, from start: Int,
        into claims: inout [UniformTypeTagClass: [String: [TagClaim]]]
    ) {
        // Each tag class's table is taken out of `claims` while claims are added, so that it is
        // updated in place rather than looked up (and checked for sharing) once per tag.
        var tables: [(tagClass: UniformTypeTagClass, claims: [String: [TagClaim]])] = []
        // By position, not by copies of whole entries: a copy retains and releases every part of one, and the
        // parts of a large file's entries are cold in the cache.
        for (offset, position) in entries.indices.enumerated() {
            let index = Int32(start + offset)
            let origin = entries[position].origin
            let rank = origin.rank
            for (tagClass, tags) in entries[position].declaration.tags {
                // The MIME database's extensions are answered by its glob rules, which order them
                // by weight and pattern length rather than by registration.
                if tagClass == .filenameExtension && origin == .mimeDatabase {
                    continue
                }
                // A few tags (nearly every entry has one to three) are checked for repeats against the ones kept
                // so far, without hashing; past that a set, not a list searched per tag: one type with 200 000
                // extensions took over 40 s.
                let searchesList = tags.count <= Self.listedTagLimit
                var kept: [SeenTag] = []
                var seen: Set<SeenTag> = []
                if tags.count > 1 {
                    // Sized once: grown an insert at a time, the set was made again at two, three and five tags.
                    if searchesList { kept.reserveCapacity(tags.count) } else { seen.reserveCapacity(tags.count) }
                }
                var table = tables.firstIndex { $0.tagClass == tagClass } ?? -1
                for tag in tags {
                    guard let (key, required) = claimKey(tag, as: tagClass) else { continue }
                    // One tag cannot repeat: nothing to remember.
                    if tags.count > 1 {
                        let tag = SeenTag(key: key, required: required)
                        if searchesList {
                            guard !kept.contains(tag) else { continue }
                            kept.append(tag)
                        } else {
                            guard seen.insert(tag).inserted else { continue }
                        }
                    }
                    if table < 0 {
                        var existing = claims.removeValue(forKey: tagClass) ?? [:]
                        existing.reserveCapacity(existing.count + entries.count - offset)
                        tables.append((tagClass, existing))
                        table = tables.count - 1
                    }
                    let claim = TagClaim(index: index, rank: rank, requiredParameters: required)
                    tables[table].claims[key, default: []].insertInRankOrder(claim)
                }
            }
        }
        for (tagClass, table) in tables {
            claims[tagClass] = table
        }
    }

    /// The most tags of one class that `indexClaims` checks for repeats by searching the ones already kept; more
    /// go through a set.
    private static let listedTagLimit = 16

    /// A tag claim's key and required MIME parameters, for finding the repeats among one entry's tags.
    private struct SeenTag: Hashable {
        let key: String
        let required: [String: String]
    }

    /// The lookup key of a declared tag and the MIME parameters its claim requires, or `nil` if
    /// the tag is not valid. Plain lowercase extensions and MIME types, nearly all tags, skip the
    /// general rules (`TagSyntax`), whose Unicode checks cost most of building a snapshot.
    static func claimKey(_ tag: String, as tagClass: UniformTypeTagClass) -> (String, [String: String])? {
        if tagClass == .filenameExtension || tagClass == .mimeType, isPlainTag(tag, slash: tagClass == .mimeType) {
            return (tag, [:])
        }
        guard case .success(let normalized) = TagSyntax.normalize(tag, as: tagClass) else {
            return nil
        }
        return (normalized.key, normalized.mediaType?.parameters ?? [:])
    }

    /// Whether `tag` is its own normalized form: 1–127 of `a–z 0–9 + - _` for an extension;
    /// two such runs (`.` allowed too) around one `/` for a MIME type.
    private static func isPlainTag(_ tag: String, slash: Bool) -> Bool {
        // The bytes in place (a literal's or a native string's; others are made native first), not through the
        // view's iterator, which was a third of the instructions of indexing the built-in declarations' tags.
        var tag = tag
        return tag.withUTF8 { isPlainTag($0, slash: slash) }
    }

    private static func isPlainTag(_ tag: UnsafeBufferPointer<UInt8>, slash: Bool) -> Bool {
        var run = 0
        var slashes = 0
        for byte in tag {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"),
                UInt8(ascii: "-"), UInt8(ascii: "_"):
                run += 1
            case UInt8(ascii: ".") where slash:
                run += 1
            case UInt8(ascii: "/") where slash && slashes == 0 && run > 0:
                slashes = 1
                run = 0
            default:
                return false
            }
            if run > MediaType.maximumNameLength {
                return false
            }
        }
        return run > 0 && slashes == (slash ? 1 : 0)
    }
    /// How many declarations have no stored cover and are answered by search (see ``ConformanceIndex``).
    var searchedTypeCount: Int { conformance.searchedCount }

    // MARK: - Lookups by type

    /// The index of the declaration of `type`, or -1.
    @inline(__always)
    func index(of type: UniformType) -> Int {
        var key = Int(type.key)
        if key < 0 {
            // Made while the identifier table was full: the identifier has a key only if something declared it.
            key = Int(IdentifierTable.shared.existingKey(for: type.canonical))
            if key < 0 {
                return -1
            }
        }
        return key < indexByKey.count ? Int(indexByKey[key]) : -1
    }

    func entry(for type: UniformType) -> Entry? {
        let index = index(of: type)
        return index >= 0 ? entries[index] : nil
    }

    /// Whether `type` conforms to `other`: reflexive and transitive. An undeclared type
    /// conforms to itself, and a dynamic one also to what its identifier names as parents.
    func conforms(_ type: UniformType, to other: UniformType) -> Bool {
        let index = index(of: type)
        if index >= 0 {
            let otherIndex = self.index(of: other)
            guard otherIndex >= 0 else {
                return false
            }
            return conformance.conforms(index, to: otherIndex)
        }
        if type == other {
            return true
        }
        guard let dynamic = type.dynamic else {
            return false
        }
        for parent in dynamic.parents where conforms(parent, to: other) {
            return true
        }
        return false
    }

    /// The types `type` conforms to, not counting itself.
    func supertypes(of type: UniformType) -> Set<UniformType> {
        var result: Set<UniformType> = []
        let index = index(of: type)
        if index >= 0 {
            for other in conformance.supertypes(of: index) {
                result.insert(entries[Int(other)].declaration.identifier)
            }
        } else if let dynamic = type.dynamic {
            for parent in dynamic.parents {
                result.insert(parent)
                result.formUnion(supertypes(of: parent))
            }
            result.remove(type)
        }
        return result
    }

    /// The declared tags of `type` (with the MIME types of the database merged into it, after its own), or the tag a
    /// dynamic identifier encodes.
    /// Whether an import may merge MIME types into `type`: a declared type that claims a filename extension (the
    /// database's type for it may merge in) or a MIME type without required parameters (the database's aliases of
    /// it, and its canonical name, do); see ``TypeCatalog/tags(of:)``. A type whose MIME types all require parameters
    /// (`text/plain;charset=utf-8`) gains none: the import merges a database name only into a type that claims it
    /// without parameters.
    func mayGainMergedMIMETypes(_ type: UniformType) -> Bool {
        guard let entry = entry(for: type), entry.origin != .mimeDatabase else { return false }
        let tags = entry.declaration.tags
        if !(tags[.filenameExtension] ?? []).isEmpty { return true }
        return (tags[.mimeType] ?? []).contains { tag in
            guard let (_, required) = Self.claimKey(tag, as: .mimeType) else { return false }
            return required.isEmpty
        }
    }

    /// The tags of `type` (see ``TypeCatalog/tags(of:)``); `merged`, when given, stands for the MIME types an import
    /// merged into a declared type (``MIMEImporter/mergedMIMETypes(into:database:in:)`` before the import).
    func tags(of type: UniformType, merged preview: [String]? = nil) -> [UniformTypeTagClass: [String]] {
        if let entry = entry(for: type) {
            var tags = entry.declaration.tags
            // MIME types of the database merged into this declared type (MIMEImporter's extension rule).
            if let merged = preview ?? mimeIndex?.mergedMIMETypes[type.canonical], !merged.isEmpty {
                var seen = Set((tags[.mimeType] ?? []).map(\.asciiLowercased))
                tags[.mimeType, default: []].append(
                    contentsOf: merged.filter { seen.insert($0.asciiLowercased).inserted })
            }
            return tags
        }
        if let dynamic = type.dynamic, let tagClass = dynamic.tagClass, let tag = dynamic.tag {
            return [tagClass: [tag]]
        }
        return [:]
    }

    // MARK: - Lookups by tag

    /// The declared types that claim `tag`, strongest first, each once, keeping those that
    /// conform to `supertype` when one is given.
    func declaredTypes(
        claiming tag: TagSyntax.Normalized,
        tagClass: UniformTypeTagClass,
        conformingTo supertype: UniformType?
    ) -> [UniformType] {
        guard let byTag = claims[tagClass] else {
            return []
        }
        var found: [(claim: TagClaim, specificity: Int)] = []
        if let mediaType = tag.mediaType, mediaType.isWildcard {
            let prefix = mediaType.type == "*" ? "" : mediaType.type + "/"
            for (essence, claimsOfTag) in byTag where essence.hasPrefix(prefix) {
                // The MIME database lists odd aliases (`image/fits` for `application/fits`); a
                // wildcard matches the MIME type of a type made from it, not its aliases.
                found += claimsOfTag.filter { !isDatabaseAlias(essence, of: $0) }.map { ($0, 0) }
            }
            found.sort { rankOrder($0.claim, $1.claim) }
        } else if let claimsOfTag = byTag[tag.key] {
            for claim in claimsOfTag where tag.mediaType?.satisfies(claim.requiredParameters) ?? true {
                found.append((claim, claim.requiredParameters.count))
            }
            // A claim that needs more of the query's parameters is more specific and comes first.
            found.sort {
                $0.specificity != $1.specificity ? $0.specificity > $1.specificity : rankOrder($0.claim, $1.claim)
            }
        }
        var seen: Set<Int32> = []
        var result: [UniformType] = []
        for (claim, _) in found where seen.insert(claim.index).inserted {
            let type = entries[Int(claim.index)].declaration.identifier
            if let supertype, !conforms(type, to: supertype) {
                continue
            }
            result.append(type)
        }
        return result
    }

    private func isDatabaseAlias(_ essence: String, of claim: TagClaim) -> Bool {
        let entry = entries[Int(claim.index)]
        guard entry.origin == .mimeDatabase, let first = entry.declaration.tags[.mimeType]?.first else {
            return false
        }
        return TextRules.asciiLowercased(first) != essence
    }

    private func rankOrder(_ lhs: TagClaim, _ rhs: TagClaim) -> Bool {
        (lhs.rank, lhs.index) < (rhs.rank, rhs.index)
    }
}

extension [CatalogSnapshot.TagClaim] {
    /// Inserts `claim`, whose index is above all in the list, after the claims of the same or a
    /// stronger origin, keeping the list in order of rank, then index.
    fileprivate mutating func insertInRankOrder(_ claim: CatalogSnapshot.TagClaim) {
        var position = endIndex
        while position > startIndex, self[position - 1].rank > claim.rank {
            position -= 1
        }
        // Nearly always at the end: appended, not inserted through the general replacement.
        if position == endIndex {
            append(claim)
        } else {
            insert(claim, at: position)
        }
    }
}
