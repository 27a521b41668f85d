/// Checks a batch of declarations against a catalog and builds the catalog that results.
///
/// This is the one place where declarations are validated; ``TypeCatalog/register(_:as:)``
/// is the one way in. Each error's ``UniformTypeError/source`` names the entry as
/// `declarations[<position in the batch>] <identifier>`, so a loader can prefix a file name.
enum DeclarationValidator {
    /// The snapshot with `batch` applied, or the same snapshot when every declaration in it is
    /// outranked by an existing one.
    /// - Throws: ``UniformTypeError``; the batch is then not applied at all.
    static func apply(
        _ batch: [UniformTypeDeclaration],
        as origin: UniformTypeDeclaration.Origin,
        to snapshot: CatalogSnapshot
    ) throws(UniformTypeError) -> CatalogSnapshot {
        var cleaned: [UniformTypeDeclaration] = []
        var positionInBatch: [UniformType: Int] = [:]
        for (position, declaration) in batch.enumerated() {
            let declaration = try check(declaration, source: source(position, declaration))
            if let first = positionInBatch[declaration.identifier] {
                throw UniformTypeError(
                    code: .duplicateIdentifier,
                    message: "'\(declaration.identifier)' is declared twice in this batch (also as "
                        + "declarations[\(first)]); keep one declaration per identifier.",
                    source: source(position, declaration)
                )
            }
            positionInBatch[declaration.identifier] = position
            cleaned.append(declaration)
        }

        var entries = snapshot.entries
        var applied = false
        for (position, declaration) in cleaned.enumerated() {
            for parent in declaration.conformsTo
            where snapshot.index(of: parent) < 0 && positionInBatch[parent] == nil {
                throw UniformTypeError(
                    code: .unknownParent,
                    message: "'\(declaration.identifier)' conforms to '\(parent)', which is not declared; "
                        + "declare '\(parent)' first or in the same batch.",
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
            }
        }
        guard applied else {
            return snapshot
        }
        return try build(entries, batchPositions: positionInBatch)
    }

    private static func source(_ position: Int, _ declaration: UniformTypeDeclaration) -> String {
        "declarations[\(position)] \(declaration.identifier)"
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
        var parents: [UniformType] = []
        for parent in declaration.conformsTo where !parents.contains(parent) {
            parents.append(parent)
        }
        declaration.conformsTo = parents
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

    private static func build(
        _ entries: [CatalogSnapshot.Entry],
        batchPositions: [UniformType: Int]
    ) throws(UniformTypeError) -> CatalogSnapshot {
        var indexOf: [UniformType: Int32] = [:]
        for (index, entry) in entries.enumerated() {
            indexOf[entry.declaration.identifier] = Int32(index)
        }
        let parents = entries.map { entry in entry.declaration.conformsTo.compactMap { indexOf[$0] } }
        switch ConformanceGraph.order(parents: parents) {
        case .ordered(let order):
            return CatalogSnapshot(entries: entries, parents: parents, order: order)
        case .cycle(let cycle):
            let names = cycle.map { entries[Int($0)].declaration.identifier }
            let culprit = names.first { batchPositions[$0] != nil } ?? names[0]
            let path = (names + [names[0]]).map(\.identifier).joined(separator: " → ")
            throw UniformTypeError(
                code: .conformanceCycle,
                message: "these declarations make a type conform to itself: \(path); remove one of these parents.",
                source: "declarations[\(batchPositions[culprit] ?? 0)] \(culprit)"
            )
        }
    }
}
