extension TypeCatalog {
    /// Structured-syntax suffixes (RFC 6839 and later registrations) and the types they imply.
    static let structuredSyntaxSuffixes: [String: UniformType] = [
        "json": .json,
        "xml": .xml,
        "zip": .zip,
        "gzip": .gzip,
        "yaml": .yaml,
    ]

    /// The type for a filename extension such as `png` or `.png`.
    ///
    /// Extensions match without regard to ASCII case. Among the declared types that claim the
    /// extension, the first that conforms to `supertype` wins (strongest origin first, then
    /// registration order). When none does and the catalog has imported a MIME database (see
    /// ``importMIMEDatabase(directories:)``), the database's glob rules pick: higher weight first,
    /// then the longest pattern, case-sensitive globs only for their exact case. Otherwise the
    /// result is a dynamic type for the extension that conforms to `supertype`.
    /// - Returns: The type, or `nil` when the extension is not valid (empty, or with `/`,
    ///   whitespace or control characters).
    public func type(filenameExtension: String, conformingTo supertype: UniformType = .data) -> UniformType? {
        type(tag: filenameExtension, tagClass: .filenameExtension, conformingTo: supertype)
    }

    /// The type for a MIME type such as `image/png` or `text/plain; charset=utf-8`.
    ///
    /// The MIME type is parsed: `type/subtype` selects the type, case-insensitively, and a
    /// declaration that claims a MIME type with parameters (such as `public.utf8-plain-text` with
    /// `text/plain;charset=utf-8`) is preferred when the query has those parameters. An alias
    /// from an imported MIME database (`text/x-markdown`) gives its MIME type's uniform type.
    /// When no type fits, the result is a dynamic type; if the subtype has a structured-syntax
    /// suffix (`+json`, `+xml`, `+zip`, `+gzip`, `+yaml`), the dynamic type also conforms to the
    /// type the suffix names.
    /// - Returns: The type, or `nil` when the string is not a MIME type or is a wildcard.
    public func type(mimeType: String, conformingTo supertype: UniformType = .data) -> UniformType? {
        type(tag: mimeType, tagClass: .mimeType, conformingTo: supertype)
    }

    /// The preferred type for a tag of any class; see ``types(tag:tagClass:conformingTo:)``.
    /// - Returns: The first match, or `nil` when the tag is not valid or is a wildcard.
    public func type(tag: String, tagClass: UniformTypeTagClass, conformingTo supertype: UniformType?) -> UniformType? {
        var snapshot = snapshot
        let key = TagAnswerMemo.Key(tag: tag, supertype: supertype)
        let importPending = isMIMEImportPending
        if let known = snapshot.tagAnswers.answer(key, tagClass: tagClass, anyDatabase: importPending) {
            return known
        }
        guard case .success(let normalized) = TagSyntax.normalize(tag, as: tagClass), !normalized.isWildcard else {
            return nil
        }
        // A declared type that claims the tag is the answer whatever the MIME database says, so
        // such lookups do not wait for ``shared`` to import it.
        if lazyMIMEImport != nil,
            let declared = snapshot.declaredTypes(claiming: normalized, tagClass: tagClass, conformingTo: supertype)
                .first, snapshot.entry(for: declared)?.origin != .mimeDatabase
        {
            snapshot.tagAnswers.keep(declared, for: key, tagClass: tagClass, holdsForAnyDatabase: true)
            return declared
        }
        if importPending {
            importSystemMIMEDatabaseIfNeeded()
            snapshot = self.snapshot
        }
        let answer = resolve(tag, normalized, tagClass: tagClass, conformingTo: supertype, in: snapshot).first
        if let answer {
            snapshot.tagAnswers.keep(answer, for: key, tagClass: tagClass, holdsForAnyDatabase: false)
        }
        return answer
    }

    /// The types that a tag names, the preferred one first.
    ///
    /// Declared types that claim the tag but do not conform to `supertype` are left out. When no
    /// declared type is left, the result is one dynamic type for the tag that conforms to
    /// `supertype` (or `public.data` when it is `nil`). MIME wildcards list the matching declared
    /// types: `*/*` every type with a MIME type, `image/*` every type with an `image/` MIME type;
    /// they never make a dynamic type.
    /// - Parameters:
    ///   - tag: A filename extension, a MIME type, or a tag of another class.
    ///   - tagClass: The class of `tag`.
    ///   - supertype: A type every result must conform to, or `nil` for no filter.
    /// - Returns: The matching types; empty when the tag is not valid or a wildcard matches
    ///   nothing.
    public func types(
        tag: String, tagClass: UniformTypeTagClass, conformingTo supertype: UniformType?
    )
        -> [UniformType]
    {
        guard case .success(let normalized) = TagSyntax.normalize(tag, as: tagClass) else {
            return []
        }
        importSystemMIMEDatabaseIfNeeded()
        return resolve(tag, normalized, tagClass: tagClass, conformingTo: supertype, in: snapshot)
    }

    /// The declared types for a tag, then those the MIME database gives it, or else a dynamic type.
    private func resolve(
        _ rawTag: String,
        _ tag: TagSyntax.Normalized,
        tagClass: UniformTypeTagClass,
        conformingTo supertype: UniformType?,
        in snapshot: CatalogSnapshot
    ) -> [UniformType] {
        var declared = snapshot.declaredTypes(claiming: tag, tagClass: tagClass, conformingTo: supertype)
        if let index = snapshot.mimeIndex, !tag.isWildcard {
            var fromDatabase: [UniformType] = []
            if tagClass == .filenameExtension {
                // The original spelling, so that case-sensitive globs (`*.C`) can match.
                let fileExtension = rawTag.hasPrefix(".") ? String(rawTag.dropFirst()) : rawTag
                fromDatabase = index.types(forFileName: "x." + fileExtension)
            } else if tagClass == .mimeType, declared.isEmpty, let type = index.type(forMIMEType: tag.key) {
                fromDatabase = [type]
            }
            for type in fromDatabase where !declared.contains(type) {
                if let supertype, !snapshot.conforms(type, to: supertype) {
                    continue
                }
                declared.append(type)
            }
        }
        if !declared.isEmpty || tag.isWildcard {
            return declared
        }
        var parents = [supertype ?? .data]
        if let suffix = tag.mediaType?.suffix, let implied = Self.structuredSyntaxSuffixes[String(suffix)],
            snapshot.index(of: implied) >= 0
        {
            let requested = parents[0]
            if snapshot.conforms(implied, to: requested) {
                parents = [implied]
            } else if !snapshot.conforms(requested, to: implied) {
                parents.append(implied)
            }
        }
        return DynamicTypeName.type(tag: tag.key, tagClass: tagClass, parents: parents).map { [$0] } ?? []
    }
}
