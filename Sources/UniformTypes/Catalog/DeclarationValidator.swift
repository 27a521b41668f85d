/// Checks a batch of declarations against a catalog and builds the catalog that results.
///
/// This is the one place where declarations are validated; ``TypeCatalog/register(_:as:)``
/// and the loaders are the ways in. Each error's `UniformTypeError.source` names the entry as
/// `<entry name> <identifier>`, where the entry name is `declarations[<position in the batch>]`
/// unless the caller names entries itself (a file loader writes `Cards.json: exported[2]`).
enum DeclarationValidator {
    /// The default name of the entry at a position: `declarations[<position>]`.
    static func batchEntryName(_ position: Int) -> String {
        "declarations[\(position)]"
    }

    /// The snapshot with `batch` applied, or the same snapshot when every declaration in it is
    /// outranked by an existing one (and `mimeIndex` is `nil`).
    /// - Parameters:
    ///   - batch: The declarations.
    ///   - origin: Their origin.
    ///   - snapshot: The catalog they are added to.
    ///   - alsoKnown: Types that another batch of the same transaction declares, so they count
    ///     as known parents; the transaction's last `apply` sees all of them and links them.
    ///   - mimeIndex: A MIME database index that replaces the snapshot's, if any.
    ///   - entryName: Names the entry at a position in `batch`, for errors.
    /// - Throws: ``UniformTypeError``; the batch is then not applied at all.
    static func apply(
        _ batch: [UniformTypeDeclaration],
        as origin: UniformTypeDeclaration.Origin,
        to snapshot: CatalogSnapshot,
        alsoKnown: Set<UniformType> = [],
        mimeIndex: MIMEIndex? = nil,
        entryName: (Int) -> String = batchEntryName
    ) throws(UniformTypeError) -> CatalogSnapshot {
        var taken = batch
        return try apply(
            taking: &taken, as: origin, to: snapshot, alsoKnown: alsoKnown, mimeIndex: mimeIndex, entryName: entryName)
    }

    /// ``apply(_:as:to:alsoKnown:mimeIndex:entryName:)`` for a caller that gives its batch up: the declarations
    /// move into the snapshot's entries, and `cleaned` is left holding placeholders (or partly so, when it throws).
    ///
    /// A copy of each declaration retained each of its parts, and freeing the batch released them again: for a large
    /// file, whose parts are cold in the cache by then, a tenth of loading it. A batch that the caller still holds
    /// elsewhere is copied once, at the first change, as a copy would have been.
    ///
    /// A batch that a reader checked declaration by declaration with ``checked(_:)`` as it made them (`isChecked`),
    /// while their parts were still in the cache, is not checked again: that was a tenth of loading a large file.
    static func apply(
        taking cleaned: inout [UniformTypeDeclaration],
        isChecked: Bool = false,
        as origin: UniformTypeDeclaration.Origin,
        to snapshot: CatalogSnapshot,
        alsoKnown: Set<UniformType> = [],
        mimeIndex: MIMEIndex? = nil,
        entryName: (Int) -> String = batchEntryName
    ) throws(UniformTypeError) -> CatalogSnapshot {
        func source(_ position: Int, _ declaration: UniformTypeDeclaration) -> String {
            "\(entryName(position)) \(declaration.identifier)"
        }
        guard !cleaned.isEmpty || mimeIndex != nil else {
            // Nothing to add: not even a copy of the entries to add nothing to.
            return snapshot
        }
        var positionInBatch: [UniformType: Int] = [:]
        positionInBatch.reserveCapacity(cleaned.count)
        for position in cleaned.indices {
            // The entry's name is made only for an error: a string per entry was a tenth of loading a large file.
            if !isChecked,
                let normalized = try check(cleaned[position], source: { source(position, cleaned[position]) })
            {
                cleaned[position] = normalized
            }
            let identifier = cleaned[position].identifier
            if let first = positionInBatch.updateValue(position, forKey: identifier) {
                throw UniformTypeError(
                    code: .duplicateIdentifier,
                    message: "'\(identifier)' is declared twice (also as "
                        + "\(entryName(first))); keep one declaration per identifier and origin.",
                    source: source(position, cleaned[position])
                )
            }
        }

        var entries = snapshot.entries
        entries.reserveCapacity(snapshot.entries.count + cleaned.count)
        var applied = false
        var replaced = false
        // Each appended entry's parents, found once here for both the check and the index: an existing entry's
        // index, or for a parent in the batch `-1 - its position` (see `appending`).
        var appendedParents: [[Int32]] = []
        appendedParents.reserveCapacity(cleaned.count)
        // Where each declaration of the batch went among the entries, or -1 where an existing entry outranks it.
        var indexOfPosition: [Int32] = []
        indexOfPosition.reserveCapacity(cleaned.count)
        for position in cleaned.indices {
            let conformsTo = cleaned[position].conformsTo
            var parents: [Int32] = []
            parents.reserveCapacity(conformsTo.count)
            for parent in conformsTo {
                let existing = snapshot.index(of: parent)
                if existing >= 0 {
                    parents.append(Int32(existing))
                    continue
                }
                if let inBatch = positionInBatch[parent] {
                    parents.append(Int32(-1 - inBatch))
                    continue
                }
                if alsoKnown.contains(parent) {
                    continue
                }
                throw UniformTypeError(
                    code: .unknownParent,
                    message: "'\(cleaned[position].identifier)' conforms to '\(parent)', which is not declared; "
                        + "declare '\(parent)' first, or in the same batch or file (as an imported type if "
                        + "someone else owns it).",
                    source: source(position, cleaned[position])
                )
            }
            let identifier = cleaned[position].identifier
            let index = snapshot.index(of: identifier)
            guard index >= 0 else {
                indexOfPosition.append(Int32(entries.count))
                entries.append(CatalogSnapshot.Entry(declaration: take(&cleaned[position]), origin: origin))
                appendedParents.append(parents)
                applied = true
                continue
            }
            indexOfPosition.append(-1)
            let existing = snapshot.entries[index].origin
            if existing.rank == origin.rank {
                throw UniformTypeError(
                    code: .duplicateIdentifier,
                    message: "'\(identifier)' is already declared as \(existing); "
                        + "a type can be declared only once per origin.",
                    source: source(position, cleaned[position])
                )
            }
            if existing.rank > origin.rank {
                entries[index] = CatalogSnapshot.Entry(declaration: take(&cleaned[position]), origin: origin)
                applied = true
                replaced = true
            }
        }
        guard applied || mimeIndex != nil else {
            return snapshot
        }
        // Appending is exact only when no existing entry can name a new one as a parent: nothing
        // was replaced, and no earlier batch of this transaction left parents to link now. A new MIME
        // index changes no entry (its merged tags are read at query time), so an import appends too:
        // rebuilding every index after a large declaration file cost a sixth of loading it.
        if !replaced, alsoKnown.isEmpty,
            let appended = appending(
                &entries, parents: appendedParents, indexOfPosition: indexOfPosition, to: snapshot,
                mimeIndex: mimeIndex ?? snapshot.mimeIndex)
        {
            return appended
        }
        return try build(
            entries, batchPositions: positionInBatch, mimeIndex: mimeIndex ?? snapshot.mimeIndex, entryName: entryName)
    }

    /// What stands in a batch for a declaration moved out of it.
    private static let placeholder = UniformTypeDeclaration(identifier: .item)

    /// The declaration in `slot`, moved out of it without a copy; ``placeholder`` takes its place.
    private static func take(_ slot: inout UniformTypeDeclaration) -> UniformTypeDeclaration {
        var taken = placeholder
        swap(&taken, &slot)
        return taken
    }

    /// The snapshot of `declarations` alone, built without checking them: for the built-in table,
    /// which a test validates instead. Parents that are not in `declarations` are left out, and
    /// the result is `nil` when the declarations make a conformance cycle.
    static func trustedSnapshot(
        _ declarations: [UniformTypeDeclaration], as origin: UniformTypeDeclaration.Origin
    ) -> CatalogSnapshot? {
        let entries = declarations.map { CatalogSnapshot.Entry(declaration: $0, origin: origin) }
        return try? build(entries, batchPositions: [:], mimeIndex: nil, entryName: batchEntryName)
    }

    /// `declaration` with its tags checked and normalized and its parents deduplicated, as `apply` checks each
    /// declaration of a batch by itself; for a reader that checks each declaration as it makes it.
    /// - Throws: ``UniformTypeError`` when the declaration is not valid on its own, with an empty `source`.
    static func checked(_ declaration: UniformTypeDeclaration) throws(UniformTypeError) -> UniformTypeDeclaration {
        try check(declaration, source: { "" }) ?? declaration
    }

    /// The declaration with its tags checked and normalized and its parents deduplicated, or `nil` when it is so
    /// already (nearly every declaration), so that the caller keeps it without a copy.
    /// - Parameter source: Names the entry, for an error.
    private static func check(
        _ original: UniformTypeDeclaration,
        source: () -> String
    ) throws(UniformTypeError) -> UniformTypeDeclaration? {
        if original.identifier.isDynamic {
            throw UniformTypeError(
                code: .invalidIdentifier,
                message: "'\(original.identifier)' starts with 'dyn.', which is reserved for dynamic types; "
                    + "use a reverse-DNS identifier of your own, such as com.example.format.",
                source: source()
            )
        }
        let repeatsParent = hasRepeatedParent(original.conformsTo)
        guard repeatsParent || original.tags.contains(where: needsChecking) else {
            return nil
        }
        var declaration = original
        if repeatsParent {
            var seenParents: Set<UniformType> = []
            declaration.conformsTo = declaration.conformsTo.filter { seenParents.insert($0).inserted }
        }
        for (tagClass, tags) in declaration.tags where needsChecking(tagClass, tags) {
            var normalizedTags: [String] = []
            for tag in tags {
                switch TagSyntax.normalize(tag, as: tagClass) {
                case .failure(let problem):
                    throw UniformTypeError(
                        code: .invalidTag,
                        message:
                            "'\(declaration.identifier)' has an invalid \(tagClass.rawValue) tag: \(problem.message).",
                        source: source()
                    )
                case .success(let normalized) where normalized.isWildcard:
                    throw UniformTypeError(
                        code: .invalidTag,
                        message:
                            "'\(declaration.identifier)' claims the wildcard '\(tag)'; declare concrete MIME types.",
                        source: source()
                    )
                case .success:
                    normalizedTags.append(
                        tagClass == .filenameExtension && tag.hasPrefix(".") ? String(tag.dropFirst()) : tag)
                }
            }
            declaration.tags[tagClass] = normalizedTags
        }
        return declaration
    }

    /// Whether `tags` of `tagClass` must go through the general tag rules: all but plain filename extensions, which are
    /// nearly every tag and valid as they are (the general rules' Unicode checks were most of checking a declaration).
    private static func needsChecking(_ tagClass: UniformTypeTagClass, _ tags: [String]) -> Bool {
        tagClass != .filenameExtension || !tags.allSatisfy(isPlainExtension)
    }

    /// Whether `parents` names a type twice; a linear search for the few parents a declaration has.
    private static func hasRepeatedParent(_ parents: [UniformType]) -> Bool {
        guard parents.count > 1 else {
            return false
        }
        guard parents.count <= 16 else {
            return Set(parents).count != parents.count
        }
        for index in parents.indices.dropFirst() where parents[..<index].contains(parents[index]) {
            return true
        }
        return false
    }

    /// Whether `tag` is a filename extension that `TagSyntax.normalize` accepts and that `check` keeps as it is:
    /// 1–255 bytes of printable ASCII other than `/` and `\`, neither starting nor ending with `.`.
    private static func isPlainExtension(_ tag: String) -> Bool {
        let bytes = tag.utf8
        guard let first = bytes.first, let last = bytes.last, bytes.count <= TagSyntax.maximumLength,
            first != UInt8(ascii: "."), last != UInt8(ascii: ".")
        else {
            return false
        }
        return bytes.allSatisfy { byte in
            byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "/") && byte != UInt8(ascii: "\\")
        }
    }

    /// `snapshot` with the entries after its own in `entries`, computed from its indexes rather than from
    /// scratch, or `nil` when the new entries make a conformance cycle (``build`` reports it).
    /// - Parameters:
    ///   - entries: The snapshot's entries, then the new ones; see ``CatalogSnapshot/appending(entries:parents:order:mimeIndex:)``.
    ///   - parents: The parents of each new entry: an existing entry's index, or `-1 - p` for the declaration at
    ///     position `p` of the batch, which is among the new entries (a parent already declared is found first).
    ///   - indexOfPosition: Where each declaration of the batch went among `entries` (all are new then, as nothing
    ///     was replaced), or -1 for one that an existing entry outranks.
    private static func appending(
        _ entries: inout [CatalogSnapshot.Entry], parents: [[Int32]], indexOfPosition: [Int32],
        to snapshot: CatalogSnapshot, mimeIndex: MIMEIndex?
    ) -> CatalogSnapshot? {
        let start = snapshot.entries.count
        var resolved = parents
        for list in resolved.indices {
            for item in resolved[list].indices where resolved[list][item] < 0 {
                resolved[list][item] = indexOfPosition[Int(-1 - resolved[list][item])]
            }
        }
        // Existing entries cannot conform to new ones, so a cycle runs through new entries only.
        guard case .ordered(let order) = ConformanceGraph.order(parents: resolved, from: Int32(start)) else {
            return nil
        }
        return snapshot.appending(
            entries: &entries, parents: resolved, order: order.map { $0 + Int32(start) }, mimeIndex: mimeIndex)
    }

    private static func build(
        _ entries: [CatalogSnapshot.Entry],
        batchPositions: [UniformType: Int],
        mimeIndex: MIMEIndex?,
        entryName: (Int) -> String
    ) throws(UniformTypeError) -> CatalogSnapshot {
        var indexOf: [UniformType: Int32] = [:]
        indexOf.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() {
            indexOf[entry.declaration.identifier] = Int32(index)
        }
        let parents = entries.map { entry in entry.declaration.conformsTo.compactMap { indexOf[$0] } }
        switch ConformanceGraph.order(parents: parents) {
        case .ordered(let order):
            return CatalogSnapshot(entries: entries, parents: parents, order: order, mimeIndex: mimeIndex)
        case .cycle(let cycle):
            let names = cycle.map { entries[Int($0)].declaration.identifier }
            let culprit = names.first { batchPositions[$0] != nil } ?? names[0]
            let path = (names + [names[0]]).map(\.identifier).joined(separator: " → ")
            throw UniformTypeError(
                code: .conformanceCycle,
                message: "these declarations make a type conform to itself: \(path); remove one of these parents.",
                source: "\(entryName(batchPositions[culprit] ?? 0)) \(culprit)"
            )
        }
    }
}
