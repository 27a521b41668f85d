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
        mimeTypes(forFileName: fileName, in: globTablesForLookUp)
    }

    /// ``mimeTypes(forFileName:)`` through `tables`, or with `nil` by reading the globs in turn (which answers the
    /// same: the tests compare the two).
    func mimeTypes(forFileName fileName: String, in tables: MIMEGlobTables?) -> [String] {
        let name = fileName.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? ""
        guard !name.isEmpty else { return [] }
        let lowercasedName = TextRules.lowercased(name)
        // A name that is not ASCII takes the tables: a pattern matches it as the tables' `String` keys do, by
        // canonical equivalence, which a scan of the scalars would not reproduce.
        let tables = name.utf8.allSatisfy { $0 < 0x80 } ? tables : globTables
        var matches: [Int]
        if let tables {
            matches = (tables.literal[lowercasedName] ?? []) + (tables.caseSensitiveLiteral[name] ?? [])
            if matches.isEmpty { matches = longestSuffixMatches(name: name, lowercasedName: lowercasedName, tables) }
            if matches.isEmpty {
                matches = tables.pattern.filter { globs[$0].matches(name: name, lowercasedName: lowercasedName) }
            }
        } else {
            matches = scannedMatches(name: name, lowercasedName: lowercasedName)
        }
        return uniqueTypes(ofGlobsAt: matches.sorted(by: isBetterGlob))
    }

    /// ``mimeTypes(forFileName:)``'s matches for an ASCII `name`, reading every glob in turn: the literal globs
    /// equal to the name; else the suffix globs of the longest suffix that any matches (case-insensitive and
    /// case-sensitive ones together when theirs are equally long); else the other patterns that match.
    ///
    /// The tables' answer for the same name: an ASCII name's suffix of `n` characters equals a pattern's text only
    /// when that text also has `n` scalars (every scalar canonically equivalent to an ASCII character is a single
    /// one, such as the Kelvin sign for `K`), so comparing each pattern's text with the name's suffix of its length
    /// finds what the tables find at that length.
    private func scannedMatches(name: String, lowercasedName: String) -> [Int] {
        let nameLength = name.utf8.count
        var literal: [Int] = []
        var suffix: [Int] = []
        var suffixLength = 0
        var patterns: [Int] = []
        for (index, glob) in globs.enumerated() {
            let subject = glob.isCaseSensitive ? name : lowercasedName
            switch glob.kind {
            case .literal:
                if glob.pattern == subject { literal.append(index) }
            case .suffix:
                let text = glob.suffix
                let length: Int
                if glob.isASCII {
                    // Bytes are scalars: the length without counting, and the bytes compared over their storage.
                    length = text.utf8.count
                    guard length <= nameLength, length >= suffixLength,
                        Self.utf8(of: subject, endsWith: text, length: length)
                    else { continue }
                } else {
                    length = text.unicodeScalars.count
                    guard length <= nameLength, length >= suffixLength,
                        String(subject.utf8.dropFirst(nameLength - length)) == String(text)
                    else { continue }
                }
                if length > suffixLength {
                    suffix.removeAll()
                    suffixLength = length
                }
                suffix.append(index)
            case .pattern:
                if literal.isEmpty, suffix.isEmpty, glob.matches(name: name, lowercasedName: lowercasedName) {
                    patterns.append(index)
                }
            }
        }
        if !literal.isEmpty { return literal }
        return suffix.isEmpty ? patterns : suffix
    }

    /// Whether the UTF-8 of `subject` ends with that of `suffix`, `length` bytes long and no longer than `subject`.
    private static func utf8(of subject: String, endsWith suffix: Substring, length: Int) -> Bool {
        let answer = subject.utf8.withContiguousStorageIfAvailable { name in
            suffix.utf8.withContiguousStorageIfAvailable { text in
                let start = name.count - length
                for offset in 0..<length where name[start + offset] != text[offset] { return false }
                return true
            }
        }
        if let answer, let answer { return answer }
        return subject.utf8.dropFirst(subject.utf8.count - length).elementsEqual(suffix.utf8)
    }

    /// The filename extensions of `mimeType`'s `*.ext` globs, highest weight first, without the dot
    /// (`["pkpass"]` for `application/vnd.apple.pkpass`). Aliases are resolved.
    func extensions(for mimeType: String) -> [String] {
        var seen: Set<String> = []
        return globs(for: mimeType).compactMap(\.filenameExtension).filter { seen.insert($0).inserted }
    }

    /// The globs of `mimeType`, highest weight first, then load order. Aliases are resolved.
    func globs(for mimeType: String) -> [MIMEGlob] {
        globs(for: mimeType, in: globTablesForLookUp)
    }

    /// ``globs(for:)`` through `tables`, or with `nil` by reading the globs in turn (which answers the same).
    func globs(for mimeType: String, in tables: MIMEGlobTables?) -> [MIMEGlob] {
        let key = canonicalKey(for: mimeType)
        if let tables {
            return (tables.byType[key] ?? []).map { globs[$0] }
        }
        // The globs whose type resolves to `key` as the tables resolve it: a type that is no alias stands for
        // itself, an alias (one step) for its target.
        let aliasKeys = Set((aliasesByType[key] ?? []).map(\.asciiLowercased))
        let indices = globTypeKeys.indices.filter { index in
            let type = globTypeKeys[index]
            return type == key ? aliasTargets[type].map { $0.asciiLowercased == key } ?? true : aliasKeys.contains(type)
        }
        return MIMEGlobTables.inWeightOrder(indices, of: globs).map { globs[$0] }
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
    private func longestSuffixMatches(name: String, lowercasedName: String, _ tables: MIMEGlobTables) -> [Int] {
        let insensitive = longestSuffix(of: lowercasedName, in: tables.suffix)
        let sensitive = longestSuffix(of: name, in: tables.caseSensitiveSuffix)
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
