/// Turns a shared-mime-info database into declarations of origin
/// ``UniformTypeDeclaration/Origin/mimeDatabase`` and the index a catalog snapshot keeps.
///
/// Mapping rules (documented in the DocC catalog):
/// - A MIME type that a declared type (any origin but `mimeDatabase`) claims, directly or through
///   one of the database's aliases, maps to that declared type; no type is added for it, but the declared type
///   carries the MIME type and its aliases as tags (after its own).
/// - So does a MIME type whose extension a declared type claims, by the rule of
///   ``declaredType(sharingExtensionWith:database:in:)``: `text/x-csrc` and `public.c-source` are one type.
/// - Every other MIME type becomes a type named by ``identifier(forMIMEType:)``, with the
///   canonical MIME type and its aliases as MIME tags, the extensions of its `*.ext` globs
///   (highest weight first) as filename-extension tags, and as parents its sub-class-of parents
///   and the implicit ones (`text/plain` for `text/*`, `application/octet-stream` for all but
///   `inode/*`), each mapped by the same rules. `image/*`, `audio/*`, `video/*` and `font/*`
///   types also conform to `public.image`, `public.audio`, `public.video` and `public.font`,
///   and an `inode/*` type without parents to `public.item`.
enum MIMEImporter {
    /// The domain of the identifiers of types made from the database.
    static let identifierPrefix = "org.freedesktop.shared-mime-info."

    /// What an import produced.
    struct Result {
        var snapshot: CatalogSnapshot
        var importedTypeCount = 0
        var mappedToDeclaredTypeCount = 0
        var alreadyImportedCount = 0
        var problem: UniformTypeError?
    }

    /// Parents implied by the media type, beyond what the database says.
    private static let mediaTypeParents: [String: UniformType] = [
        "image": .image, "audio": .audio, "video": .video, "font": .font,
    ]

    /// The identifier of the type made from a MIME type: the prefix, the media type, a dot, the
    /// subtype, ASCII-lowercased, with every character outside `[a-z0-9]` replaced by `-`.
    /// `application/vnd.apple.pkpass` gives `org.freedesktop.shared-mime-info.application.vnd-apple-pkpass`.
    static func identifier(forMIMEType mimeType: String) -> String {
        let lowered = mimeType.asciiLowercased
        let parts = lowered.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let bytes = parts.map { part in
            part.utf8.map { byte -> UInt8 in
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) ? byte : UInt8(ascii: "-")
            }
        }
        return identifierPrefix + bytes.map { String(decoding: $0, as: UTF8.self) }.joined(separator: ".")
    }

    /// `identifier` made unique with `-` and the 16 hex digits of the FNV-1a hash of the lowercased
    /// MIME type, shortened first if the result would exceed the identifier length limit.
    static func disambiguated(_ identifier: String, mimeType: String) -> String {
        let hash = String(TextRules.stableHash(mimeType.asciiLowercased), radix: 16)
        let suffix = "-" + String(repeating: "0", count: 16 - hash.count) + hash
        let room = IdentifierSyntax.maximumLength - suffix.utf8.count
        return String(decoding: identifier.utf8.prefix(room), as: UTF8.self) + suffix
    }

    /// Imports `database` into `snapshot`.
    static func importing(_ database: MIMEDatabase, into snapshot: CatalogSnapshot) -> Result {
        var result = Result(snapshot: snapshot)
        let previous = snapshot.mimeIndex
        var typeForMIME = previous?.typeForMIME ?? [:]
        var mimeForIdentifier = previous?.mimeForIdentifier ?? [:]
        var usedIdentifiers = Set(mimeForIdentifier.keys)
        var mergedMIMETypes = previous?.mergedMIMETypes ?? [:]

        // First pass: the uniform type of every MIME type, so parents can be mapped in any order.
        var derived: [(mimeType: String, type: UniformType)] = []
        for mimeType in database.mimeTypes {
            let key = mimeType.asciiLowercased
            if typeForMIME[key] != nil {
                result.alreadyImportedCount += 1
                continue
            }
            if let declared = declaredType(mergingWith: mimeType, database: database, in: snapshot) {
                typeForMIME[key] = declared
                mergedMIMETypes[declared.canonical, default: []].append(
                    contentsOf: mergedNames(of: mimeType, database: database))
                result.mappedToDeclaredTypeCount += 1
                continue
            }
            var identifier = identifier(forMIMEType: mimeType)
            if usedIdentifiers.contains(identifier) || identifier.utf8.count > IdentifierSyntax.maximumLength {
                identifier = disambiguated(identifier, mimeType: mimeType)
            }
            guard IdentifierSyntax.problem(with: identifier) == nil, usedIdentifiers.insert(identifier).inserted
            else {
                continue
            }
            let type = UniformType(trusted: identifier)
            typeForMIME[key] = type
            mimeForIdentifier[type.canonical] = mimeType
            derived.append((mimeType, type))
        }

        // Second pass: declarations.
        var declarations: [UniformTypeDeclaration] = []
        for (mimeType, type) in derived {
            declarations.append(
                declaration(of: type, mimeType: mimeType, database: database, typeForMIME: typeForMIME, in: snapshot))
        }
        breakCycles(in: &declarations)

        let index = MIMEIndex(
            databases: (previous?.databases ?? []) + [database], typeForMIME: typeForMIME,
            mimeForIdentifier: mimeForIdentifier, mergedMIMETypes: mergedMIMETypes)
        do {
            result.snapshot = try DeclarationValidator.apply(
                declarations, as: .mimeDatabase, to: snapshot, mimeIndex: index)
            result.importedTypeCount = declarations.count
        } catch {
            // The declarations are built to be valid; if one is not, keep the catalog as it was.
            result.problem = error
            result.mappedToDeclaredTypeCount = 0
        }
        return result
    }

    /// The declared type that `mimeType` merges into, by a MIME type the type claims (the name or one of its aliases)
    /// or else by a filename extension (``declaredType(sharingExtensionWith:database:in:)``); `nil` when the MIME type
    /// becomes a type of its own.
    private static func declaredType(
        mergingWith mimeType: String, database: MIMEDatabase, in snapshot: CatalogSnapshot
    ) -> UniformType? {
        declaredType(claiming: [mimeType] + database.aliases(of: mimeType), in: snapshot)
            ?? declaredType(sharingExtensionWith: mimeType, database: database, in: snapshot)
    }

    /// The tags a declared type gains from a MIME type merged into it: the database's name and its aliases, after the
    /// type's own (one that claims only an alias, `application/java-archive`, also gets the canonical
    /// `application/x-java-archive`).
    private static func mergedNames(of mimeType: String, database: MIMEDatabase) -> [String] {
        ([mimeType] + database.aliases(of: mimeType)).filter { isValid($0, as: .mimeType) }
    }

    /// The MIME types that importing `database` into `snapshot` (a first import) would merge into the declared `type`,
    /// as ``importing(_:into:)`` lists them for it, without importing: only the database's MIME types that could merge
    /// into `type` are looked at, each by the import's own rule. A MIME type merges by a name (its own or an alias)
    /// that `type` claims, or by being the database's first answer for an extension `type` claims; either way it has
    /// the same canonical name as a name `type` claims or as that first answer, compared as the import compares tags
    /// (normalized: MIME essences and extensions lowercased).
    static func mergedMIMETypes(
        into type: UniformType, database: MIMEDatabase, in snapshot: CatalogSnapshot
    ) -> [String] {
        guard let tags = snapshot.entry(for: type)?.declaration.tags else { return [] }
        var candidates: Set<String> = []
        for mimeType in tags[.mimeType] ?? [] {
            if case .success(let tag) = TagSyntax.normalize(mimeType, as: .mimeType) {
                candidates.insert(database.canonicalKey(for: tag.key))
            }
        }
        for filenameExtension in tags[.filenameExtension] ?? [] {
            if case .success(let tag) = TagSyntax.normalize(filenameExtension, as: .filenameExtension),
                let first = database.mimeTypes(forFileName: "x." + tag.key).first
            {
                candidates.insert(database.canonicalKey(for: first))
            }
        }
        var merged: [String] = []
        var seen: Set<String> = []
        let names = database.names(canonicalizingTo: candidates)
        // In the database's order, as the import meets them.
        for mimeType in database.mimeTypes where names.contains(mimeType.asciiLowercased) {
            guard seen.insert(mimeType.asciiLowercased).inserted,
                declaredType(mergingWith: mimeType, database: database, in: snapshot) == type
            else { continue }
            merged.append(contentsOf: mergedNames(of: mimeType, database: database))
        }
        return merged
    }

    /// The strongest declared type (not one made from a database) that claims one of `mimeTypes` without requiring
    /// parameters, preferring one that conforms to `public.data` unless the MIME type is an `inode/*` one: the
    /// database makes every other type a kind of `application/octet-stream`, so `application/vnd.apple.pkpass` is
    /// `com.apple.pkpass-data` rather than the `com.apple.pkpass` package. With `allowingParameters` (a parent named
    /// by `subclasses`), a name that carries parameters also matches the claims they satisfy, as a lookup by MIME type
    /// does.
    private static func declaredType(
        claiming mimeTypes: [String], allowingParameters: Bool = false, in snapshot: CatalogSnapshot
    ) -> UniformType? {
        var candidates: [UniformType] = []
        for mimeType in mimeTypes {
            // A database name is a bare media type (shared-mime-info's names carry no parameters); one that carries
            // parameters (a directory's `types` can list `text/plain;charset=utf-8`) matches no claim by itself, only
            // through a bare alias, as the preview (`mergedMIMETypes(into:database:in:)`) finds names by their
            // canonical key. So a declared type whose MIME types all require parameters gains no merged names
            // (`CatalogSnapshot.mayGainMergedMIMETypes`), and its tags need no database.
            guard case .success(let tag) = TagSyntax.normalize(mimeType, as: .mimeType), !tag.isWildcard,
                allowingParameters || (tag.mediaType?.parameters.isEmpty ?? true)
            else {
                continue
            }
            for type in snapshot.declaredTypes(claiming: tag, tagClass: .mimeType, conformingTo: nil)
            where snapshot.entry(for: type)?.origin != .mimeDatabase {
                candidates.append(type)
            }
        }
        let isInode = mimeTypes.first?.asciiLowercased.hasPrefix("inode/") ?? false
        return candidates.first { isInode || snapshot.conforms($0, to: .data) } ?? candidates.first
    }

    /// The declared type that `mimeType` merges into because both stand for the same filename extension, or `nil`.
    ///
    /// The rule: take `mimeType`'s case-insensitive `*.ext` globs, highest weight first, and keep those for which
    /// `mimeType` is the database's own first answer (what `gio` says for a file `x.ext`). The first such extension
    /// that a declared type (not one made from a database) claims decides: the MIME type merges into that type
    /// (`text/x-csrc` into `public.c-source`, `application/pkix-cert` into `public.x509-certificate`), so lookups by
    /// the MIME type or its aliases answer the declared type, whose identifier and conformance stay Apple's. No merge
    /// when that declared type carries a MIME type of its own that the database gives the same extension: then the
    /// extension has two meanings (`*.otf`: OpenDocument formula template in the database, OpenType font declared),
    /// and the declared type keeps the extension while the database type stays apart. A case-sensitive glob counts
    /// only when its extension is lowercase (`*.c:cs`, not `*.C:cs`), because declared extensions are matched in
    /// lowercase: `text/x-c++src` is not merged into `public.c-source` through `*.C`.
    private static func declaredType(
        sharingExtensionWith mimeType: String, database: MIMEDatabase, in snapshot: CatalogSnapshot
    ) -> UniformType? {
        let key = mimeType.asciiLowercased
        for glob in database.globs(for: mimeType)
        where !glob.isCaseSensitive || glob.pattern == TextRules.lowercased(glob.pattern) {
            // The claim is a table lookup and most extensions have none; the glob match is dearer, so it comes after.
            guard let filenameExtension = glob.filenameExtension,
                case .success(let tag) = TagSyntax.normalize(filenameExtension, as: .filenameExtension),
                let declared = snapshot.declaredTypes(claiming: tag, tagClass: .filenameExtension, conformingTo: nil)
                    .first(where: { snapshot.entry(for: $0)?.origin != .mimeDatabase }),
                database.mimeTypes(forFileName: "x." + filenameExtension).first?.asciiLowercased == key
            else { continue }
            let ownMIMETypes = snapshot.entry(for: declared)?.declaration.tags[.mimeType] ?? []
            let ownDatabaseTypes = ownMIMETypes.compactMap { database.canonical(for: $0) }
            if ownDatabaseTypes.contains(where: { database.extensions(for: $0).contains(filenameExtension) }) {
                return nil
            }
            return declared
        }
        return nil
    }

    private static func declaration(
        of type: UniformType, mimeType: String, database: MIMEDatabase, typeForMIME: [String: UniformType],
        in snapshot: CatalogSnapshot
    ) -> UniformTypeDeclaration {
        var parents: [UniformType] = []
        var added: Set<UniformType> = [type]
        func add(_ parent: UniformType) {
            if added.insert(parent).inserted {
                parents.append(parent)
            }
        }
        for parentMIMEType in database.parents(of: mimeType) {
            let key = database.canonicalKey(for: parentMIMEType)
            // A parent is looked up as any MIME type is (its parameters count), not by the merge rule.
            if let parent = typeForMIME[key]
                ?? declaredType(claiming: [parentMIMEType], allowingParameters: true, in: snapshot)
            {
                add(parent)
            }
        }
        let mediaType = String(mimeType.asciiLowercased.prefix { $0 != "/" })
        if let implied = mediaTypeParents[mediaType], snapshot.index(of: implied) >= 0 {
            add(implied)
        }
        if mediaType == "inode", parents.isEmpty, snapshot.index(of: .item) >= 0 {
            add(.item)
        }
        // Leave out a declared parent that another declared parent already leads to.
        parents = parents.filter { parent in
            !parents.contains { other in
                other != parent && snapshot.index(of: other) >= 0 && snapshot.conforms(other, to: parent)
            }
        }

        var tags: [UniformTypeTagClass: [String]] = [:]
        let mimeTags = ([mimeType] + database.aliases(of: mimeType)).filter { isValid($0, as: .mimeType) }
        if !mimeTags.isEmpty {
            tags[.mimeType] = mimeTags
        }
        let extensions = database.extensions(for: mimeType).filter { isValid($0, as: .filenameExtension) }
        if !extensions.isEmpty {
            tags[.filenameExtension] = extensions
        }
        return UniformTypeDeclaration(identifier: type, conformsTo: parents, tags: tags)
    }

    private static func isValid(_ tag: String, as tagClass: UniformTypeTagClass) -> Bool {
        guard case .success(let normalized) = TagSyntax.normalize(tag, as: tagClass) else {
            return false
        }
        return !normalized.isWildcard
    }

    /// Removes parent links among the new declarations until they form no cycle: a database may
    /// declare `a sub-class-of b` and `b sub-class-of a`, which the catalog would reject.
    private static func breakCycles(in declarations: inout [UniformTypeDeclaration]) {
        var position: [UniformType: Int32] = [:]
        for (index, declaration) in declarations.enumerated() {
            position[declaration.identifier] = Int32(index)
        }
        var parents = declarations.map { $0.conformsTo.compactMap { position[$0] } }
        while case .cycle(let cycle) = ConformanceGraph.order(parents: parents), let last = cycle.last,
            let first = cycle.first
        {
            let child = Int(last)
            parents[child].removeAll { $0 == first }
            let parent = declarations[Int(first)].identifier
            declarations[child].conformsTo.removeAll { $0 == parent }
        }
    }
}
