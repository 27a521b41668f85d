extension MIMEDatabase {
    /// The MIME types whose globs match a file name, best first.
    ///
    /// The spec's order, which `gio` follows: literal names (`Makefile`) first; if none matches, suffix
    /// patterns (`*.txt`, `*.tar.gz`), of which only the longest matching suffix counts (`x.tar.gz` is
    /// `application/x-compressed-tar`, not `application/gzip`); if none matches, the other fnmatch-style
    /// patterns (`*.so.[0-9]*`). Within the winning group, higher weights come first, then longer patterns,
    /// then load order (higher-precedence directory, then file order). A case-sensitive (`cs`) glob matches
    /// only the name as given; the others match the lowercased name. Each type appears once, canonical.
    ///
    /// - Parameter fileName: A file name; anything up to the last `/` is ignored.
    /// - Returns: `["text/x-python", "text/x-python3"]` for `"setup.py"`; `[]` when nothing matches.
    func mimeTypes(forFileName fileName: String) -> [String] {
        let name = fileName.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? ""
        guard !name.isEmpty else { return [] }
        let lowercasedName = TextRules.lowercased(name)

        var matches = (literalGlobs[lowercasedName] ?? []) + (caseSensitiveLiteralGlobs[name] ?? [])
        if matches.isEmpty { matches = longestSuffixMatches(name: name, lowercasedName: lowercasedName) }
        if matches.isEmpty {
            matches = patternGlobs.filter { globs[$0].matches(name: name, lowercasedName: lowercasedName) }
        }
        return uniqueTypes(ofGlobsAt: matches.sorted(by: isBetterGlob))
    }

    /// The filename extensions of `mimeType`'s `*.ext` globs, highest weight first, without the dot
    /// (`["pkpass"]` for `application/vnd.apple.pkpass`). Aliases are resolved.
    func extensions(for mimeType: String) -> [String] {
        var seen: Set<String> = []
        return globs(for: mimeType).compactMap(\.filenameExtension).filter { seen.insert($0).inserted }
    }

    /// The globs of `mimeType`, highest weight first, then load order. Aliases are resolved.
    func globs(for mimeType: String) -> [MIMEGlob] {
        let key = canonicalKey(for: mimeType)
        return (globsByType[key] ?? []).map { globs[$0] }
    }

    /// Whether the glob at `lhs` ranks before the one at `rhs`: higher weight, longer pattern, earlier load.
    func isBetterGlob(_ lhs: Int, _ rhs: Int) -> Bool {
        let left = globs[lhs]
        let right = globs[rhs]
        if left.weight != right.weight { return left.weight > right.weight }
        let leftLength = left.pattern.unicodeScalars.count
        let rightLength = right.pattern.unicodeScalars.count
        if leftLength != rightLength { return leftLength > rightLength }
        return lhs < rhs
    }

    /// The suffix globs matching the longest possible end of the name.
    private func longestSuffixMatches(name: String, lowercasedName: String) -> [Int] {
        let insensitive = longestSuffix(of: lowercasedName, in: suffixGlobs)
        let sensitive = longestSuffix(of: name, in: caseSensitiveSuffixGlobs)
        if insensitive.length == sensitive.length { return insensitive.matches + sensitive.matches }
        return insensitive.length > sensitive.length ? insensitive.matches : sensitive.matches
    }

    private func longestSuffix(of name: String, in table: [String: [Int]]) -> (length: Int, matches: [Int]) {
        guard !table.isEmpty else { return (0, []) }
        let scalars = name.unicodeScalars
        var length = scalars.count
        var start = scalars.startIndex
        while start < scalars.endIndex {
            if let matches = table[String(scalars[start...])] { return (length, matches) }
            start = scalars.index(after: start)
            length -= 1
        }
        return (0, [])
    }

    private func uniqueTypes(ofGlobsAt indices: [Int]) -> [String] {
        var seen: Set<String> = []
        var result: [String] = []
        for index in indices {
            let type = canonical(for: globs[index].mimeType) ?? globs[index].mimeType
            if seen.insert(type.asciiLowercased).inserted { result.append(type) }
        }
        return result
    }
}
