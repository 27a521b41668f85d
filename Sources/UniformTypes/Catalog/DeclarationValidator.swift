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
        func source(_ position: Int, _ declaration: UniformTypeDeclaration) -> String {
            "\(entryName(position)) \(declaration.identifier)"
        }
        var cleaned: [UniformTypeDeclaration] = []
        var positionInBatch: [UniformType: Int] = [:]
        for (position, declaration) in batch.enumerated() {
            let declaration = try check(declaration, source: source(position, declaration))
            if let first = positionInBatch[declaration.identifier] {
                throw UniformTypeError(
                    code: .duplicateIdentifier,
                    message: "'\(declaration.identifier)' is declared twice (also as "
                        + "\(entryName(first))); keep one declaration per identifier and origin.",
                    source: source(position, declaration)
                )
            }
            positionInBatch[declaration.identifier] = position
            cleaned.append(declaration)
        }

        var entries = snapshot.entries
        var applied = false
        var replaced = false
        for (position, declaration) in cleaned.enumerated() {
            for parent in declaration.conformsTo
            where snapshot.index(of: parent) < 0 && positionInBatch[parent] == nil && !alsoKnown.contains(parent) {
                throw UniformTypeError(
                    code: .unknownParent,
                    message: "'\(declaration.identifier)' conforms to '\(parent)', which is not declared; "
                        + "declare '\(parent)' first, or in the same batch or file (as an imported type if "
                        + "someone else owns it).",
                    source: source(position, declaration)
                )
            }
            let entry = CatalogSnapshot.Entry(declaration: declaration, origin: origin)
            let index = snapshot.index(of: declaration.identifier)
            guard index >= 0 else {
                entries.append(entry)
                applied = true
                continue
            }
            let existing = snapshot.entries[index].origin
            if existing.rank == origin.rank {
                throw UniformTypeError(
                    code: .duplicateIdentifier,
                    message: "'\(declaration.identifier)' is already declared as \(existing); "
                        + "a type can be declared only once per origin.",
                    source: source(position, declaration)
                )
            }
            if existing.rank > origin.rank {
                entries[index] = entry
                applied = true
                replaced = true
            }
        }
        guard applied || mimeIndex != nil else {
            return snapshot
        }
        // Appending is exact only when no existing entry can name a new one as a parent: nothing
        // was replaced, and no earlier batch of this transaction left parents to link now.
        if !replaced, mimeIndex == nil, alsoKnown.isEmpty,
            let appended = appending(entries[snapshot.entries.count...], to: snapshot)
        {
            return appended
        }
        return try build(
            entries, batchPositions: positionInBatch, mimeIndex: mimeIndex ?? snapshot.mimeIndex, entryName: entryName)
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

    /// The declaration with its tags checked and normalized and its parents deduplicated.
    private static func check(
        _ declaration: UniformTypeDeclaration,
        source: String
    ) throws(UniformTypeError) -> UniformTypeDeclaration {
        var declaration = declaration
        if declaration.identifier.isDynamic {
            throw UniformTypeError(
                code: .invalidIdentifier,
                message: "'\(declaration.identifier)' starts with 'dyn.', which is reserved for dynamic types; "
                    + "use a reverse-DNS identifier of your own, such as com.example.format.",
                source: source
            )
        }
        var seenParents: Set<UniformType> = []
        declaration.conformsTo = declaration.conformsTo.filter { seenParents.insert($0).inserted }
        for (tagClass, tags) in declaration.tags {
            var normalizedTags: [String] = []
            for tag in tags {
                switch TagSyntax.normalize(tag, as: tagClass) {
                case .failure(let problem):
                    throw UniformTypeError(
                        code: .invalidTag,
                        message:
                            "'\(declaration.identifier)' has an invalid \(tagClass.rawValue) tag: \(problem.message).",
                        source: source
                    )
                case .success(let normalized) where normalized.isWildcard:
                    throw UniformTypeError(
                        code: .invalidTag,
                        message:
                            "'\(declaration.identifier)' claims the wildcard '\(tag)'; declare concrete MIME types.",
                        source: source
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

    /// `snapshot` with `added` after its entries, computed from its indexes rather than from
    /// scratch, or `nil` when the new entries make a conformance cycle (``build`` reports it).
    private static func appending(
        _ added: ArraySlice<CatalogSnapshot.Entry>, to snapshot: CatalogSnapshot
    ) -> CatalogSnapshot? {
        let start = snapshot.entries.count
        var newIndex: [UniformType: Int32] = [:]
        for (index, entry) in zip(added.indices, added) {
            newIndex[entry.declaration.identifier] = Int32(index)
        }
        let parents = added.map { entry in
            entry.declaration.conformsTo.compactMap { parent -> Int32? in
                let index = snapshot.index(of: parent)
                return index >= 0 ? Int32(index) : newIndex[parent]
            }
        }
        // Existing entries cannot conform to new ones, so a cycle runs through new entries only.
        let newParents = parents.map { $0.compactMap { $0 >= start ? $0 - Int32(start) : nil } }
        guard case .ordered(let order) = ConformanceGraph.order(parents: newParents) else {
            return nil
        }
        return snapshot.appending(Array(added), parents: parents, order: order.map { $0 + Int32(start) })
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
