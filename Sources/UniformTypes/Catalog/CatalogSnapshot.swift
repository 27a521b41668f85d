/// An immutable view of a catalog's declarations, with everything queries need precomputed.
///
/// Each declaration has a compact index. `indexByKey` maps an identifier's process-wide key to
/// that index in one array access; `supertypeBits` holds, for each index, a bitset of the
/// indexes it conforms to (itself included), so a warm conformance query is two array reads
/// and a bit test, with no hashing and no allocation. A catalog swaps in a new snapshot when
/// declarations are added, so answers drawn from an old snapshot stay consistent.
///
/// Memory: the bitsets take n²/8 bytes for n declarations (about 125 KB for 1 000).
final class CatalogSnapshot: Sendable {
    /// A declaration and where it came from.
    struct Entry: Sendable {
        var declaration: UniformTypeDeclaration
        var origin: UniformTypeDeclaration.Origin
    }

    /// A type that claims a tag, with the MIME parameters the claim requires.
    struct TagClaim: Sendable {
        var index: Int32
        var requiredParameters: [String: String]
    }

    let entries: [Entry]
    /// What the catalog imported from shared-mime-info databases, if anything; carried from
    /// snapshot to snapshot.
    let mimeIndex: MIMEIndex?
    private let indexByKey: [Int32]
    private let indexByCanonical: [String: Int32]
    private let wordsPerType: Int
    private let supertypeBits: [UInt64]
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
    init(entries: [Entry], parents: [[Int32]], order: [Int32], mimeIndex: MIMEIndex?) {
        self.entries = entries
        self.mimeIndex = mimeIndex
        let count = entries.count
        let words = (count + 63) / 64
        wordsPerType = words

        var byCanonical: [String: Int32] = [:]
        var keys: [Int32] = []
        for (index, entry) in entries.enumerated() {
            let type = entry.declaration.identifier
            byCanonical[type.canonical] = Int32(index)
            let key = Int(IdentifierTable.shared.key(for: type.canonical, force: true))
            if key >= keys.count {
                keys.append(contentsOf: repeatElement(-1, count: key - keys.count + 1))
            }
            keys[key] = Int32(index)
        }
        indexByCanonical = byCanonical
        indexByKey = keys

        var bits = [UInt64](repeating: 0, count: count * words)
        for node in order {
            let row = Int(node) * words
            bits[row + Int(node) / 64] |= 1 << UInt64(Int(node) % 64)
            for parent in parents[Int(node)] {
                let parentRow = Int(parent) * words
                for word in 0..<words {
                    bits[row + word] |= bits[parentRow + word]
                }
            }
        }
        supertypeBits = bits
        claims = Self.indexClaims(entries)
    }

    private static func indexClaims(_ entries: [Entry]) -> [UniformTypeTagClass: [String: [TagClaim]]] {
        let ranked = entries.indices.sorted {
            (entries[$0].origin.rank, $0) < (entries[$1].origin.rank, $1)
        }
        var claims: [UniformTypeTagClass: [String: [TagClaim]]] = [:]
        for index in ranked {
            for (tagClass, tags) in entries[index].declaration.tags {
                // The MIME database's extensions are answered by its glob rules, which order them
                // by weight and pattern length rather than by registration.
                if tagClass == .filenameExtension && entries[index].origin == .mimeDatabase {
                    continue
                }
                var seen: Set<String> = []
                for tag in tags {
                    guard case .success(let normalized) = TagSyntax.normalize(tag, as: tagClass) else {
                        continue
                    }
                    let required = normalized.mediaType?.parameters ?? [:]
                    guard seen.insert(normalized.key + "\u{0}" + required.description).inserted else {
                        continue
                    }
                    let claim = TagClaim(index: Int32(index), requiredParameters: required)
                    claims[tagClass, default: [:]][normalized.key, default: []].append(claim)
                }
            }
        }
        return claims
    }

    // MARK: - Lookups by type

    /// The index of the declaration of `type`, or -1.
    @inline(__always)
    func index(of type: UniformType) -> Int {
        let key = Int(type.key)
        if key >= 0 {
            return key < indexByKey.count ? Int(indexByKey[key]) : -1
        }
        return indexByCanonical[type.canonical].map(Int.init) ?? -1
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
            return supertypeBits[index * wordsPerType + otherIndex / 64] & (1 << UInt64(otherIndex % 64)) != 0
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
            let row = index * wordsPerType
            for other in entries.indices where other != index {
                if supertypeBits[row + other / 64] & (1 << UInt64(other % 64)) != 0 {
                    result.insert(entries[other].declaration.identifier)
                }
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

    /// The declared tags of `type`, or the tag a dynamic identifier encodes.
    func tags(of type: UniformType) -> [UniformTypeTagClass: [String]] {
        if let entry = entry(for: type) {
            return entry.declaration.tags
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
        (entries[Int(lhs.index)].origin.rank, lhs.index) < (entries[Int(rhs.index)].origin.rank, rhs.index)
    }
}
