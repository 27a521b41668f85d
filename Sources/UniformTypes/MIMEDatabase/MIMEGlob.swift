/// One filename pattern of the shared-mime-info database: a line `weight:type:pattern[:flags]` of `globs2`.
struct MIMEGlob: Hashable, Sendable {
    /// How a pattern is matched; the lookup tries the kinds in this order and stops at the first that matches.
    enum Kind: Hashable, Sendable {
        /// No wildcard at all (`Makefile`, `core`): compared with the whole name.
        case literal
        /// `*` followed by literal text (`*.txt`, `*.tar.gz`, `*~`): compared with the end of the name.
        case suffix
        /// Anything else (`*.so.[0-9]*`, `readme*`): matched like `fnmatch(3)` without flags.
        case pattern
    }

    /// The pattern; lowercased unless ``isCaseSensitive`` (names are lowercased before matching those).
    let pattern: String
    /// The MIME type the pattern stands for, as spelled in the database.
    let mimeType: String
    /// 0–100; 50 is the spec's default. Higher weights sort first among equally good matches.
    let weight: Int
    /// The `cs` flag: the pattern matches only names with exactly this case.
    let isCaseSensitive: Bool
    /// How the pattern is matched.
    let kind: Kind
    /// Whether the pattern is ASCII (nearly all are): then its UTF-8 bytes are its scalars, one each.
    let isASCII: Bool

    /// Creates a glob, lowercasing a case-insensitive pattern and classifying it.
    init(pattern: String, mimeType: String, weight: Int, isCaseSensitive: Bool) {
        let normalized = isCaseSensitive ? pattern : TextRules.lowercased(pattern)
        self.pattern = normalized
        self.mimeType = mimeType
        self.weight = weight
        self.isCaseSensitive = isCaseSensitive
        (self.kind, self.isASCII) = Self.classify(normalized)
    }

    /// The text after the leading `*` of a ``Kind/suffix`` pattern.
    var suffix: Substring { pattern.dropFirst() }

    /// The filename extension this glob declares (`pkpass` for `*.pkpass`, `tar.gz` for `*.tar.gz`), if any.
    var filenameExtension: String? {
        guard kind == .suffix, pattern.utf8.count > 2, pattern.utf8.dropFirst().first == UInt8(ascii: ".") else {
            return nil
        }
        return String(pattern.dropFirst(2))
    }

    /// Whether `name` (a file name without directories) matches, honouring the case-sensitivity flag.
    ///
    /// - Parameters:
    ///   - name: The file name as given.
    ///   - lowercasedName: `name.lowercased()`, computed once by the caller.
    func matches(name: String, lowercasedName: String) -> Bool {
        let subject = isCaseSensitive ? name : lowercasedName
        switch kind {
        case .literal: return subject == pattern
        case .suffix: return subject.unicodeScalars.elementsEqualSuffix(suffix.unicodeScalars)
        case .pattern: return Self.fnmatch(Array(pattern.unicodeScalars), Array(subject.unicodeScalars))
        }
    }

    /// The pattern's kind, and whether it is ASCII.
    private static func classify(_ pattern: String) -> (Kind, isASCII: Bool) {
        // The four special characters are ASCII, so the UTF-8 bytes answer as the scalars would (a byte of a longer
        // character is never ASCII), over the string's own storage.
        func isSpecial(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: "*") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "[")
                || byte == UInt8(ascii: "\\")
        }
        func classify(_ bytes: some Collection<UInt8>) -> (Kind, isASCII: Bool) {
            let isASCII = !bytes.contains { $0 >= 0x80 }
            guard let special = bytes.firstIndex(where: isSpecial) else { return (.literal, isASCII) }
            let rest = bytes[bytes.index(after: special)...]
            if special == bytes.startIndex, bytes.first == UInt8(ascii: "*"), !rest.isEmpty,
                !rest.contains(where: isSpecial)
            {
                return (.suffix, isASCII)
            }
            return (.pattern, isASCII)
        }
        return pattern.utf8.withContiguousStorageIfAvailable(classify) ?? classify(pattern.utf8)
    }

    /// `fnmatch(3)` with no flags over Unicode scalars: `*`, `?`, `[…]` with ranges and `!`/`^` negation,
    /// and `\` escapes. Runs in O(pattern × name) at worst (one backtracking point, as for a single `*`).
    static func fnmatch(_ pattern: [Unicode.Scalar], _ name: [Unicode.Scalar]) -> Bool {
        var patternIndex = 0
        var nameIndex = 0
        var starPattern: Int?
        var starName = 0
        while nameIndex < name.count {
            if patternIndex < pattern.count {
                let scalar = pattern[patternIndex]
                if scalar == "*" {
                    starPattern = patternIndex
                    starName = nameIndex
                    patternIndex += 1
                    continue
                }
                if let next = matchOne(pattern, at: patternIndex, name[nameIndex]) {
                    patternIndex = next
                    nameIndex += 1
                    continue
                }
            }
            guard let star = starPattern else { return false }
            patternIndex = star + 1
            starName += 1
            nameIndex = starName
        }
        while patternIndex < pattern.count, pattern[patternIndex] == "*" { patternIndex += 1 }
        return patternIndex == pattern.count
    }

    /// Matches the single-character element of `pattern` at `index` against `scalar`; returns the index after
    /// the element on a match, `nil` otherwise.
    private static func matchOne(_ pattern: [Unicode.Scalar], at index: Int, _ scalar: Unicode.Scalar) -> Int? {
        switch pattern[index] {
        case "?":
            return index + 1
        case "\\" where index + 1 < pattern.count:
            return pattern[index + 1] == scalar ? index + 2 : nil
        case "[":
            guard let (matched, next) = matchClass(pattern, openingAt: index, scalar) else {
                return scalar == "[" ? index + 1 : nil
            }
            return matched ? next : nil
        default:
            return pattern[index] == scalar ? index + 1 : nil
        }
    }

    /// Evaluates the bracket expression opening at `start`; `nil` if it is not closed (then `[` is literal).
    private static func matchClass(
        _ pattern: [Unicode.Scalar], openingAt start: Int, _ scalar: Unicode.Scalar
    ) -> (matched: Bool, next: Int)? {
        var index = start + 1
        var negated = false
        if index < pattern.count, pattern[index] == "!" || pattern[index] == "^" {
            negated = true
            index += 1
        }
        var matched = false
        var first = true
        while index < pattern.count {
            var low = pattern[index]
            if low == "]", !first { return (matched != negated, index + 1) }
            first = false
            if low == "\\", index + 1 < pattern.count {
                index += 1
                low = pattern[index]
            }
            if index + 2 < pattern.count, pattern[index + 1] == "-", pattern[index + 2] != "]" {
                var high = pattern[index + 2]
                index += 3
                if high == "\\", index < pattern.count {
                    high = pattern[index]
                    index += 1
                }
                if low.value <= scalar.value, scalar.value <= high.value { matched = true }
            } else {
                if low == scalar { matched = true }
                index += 1
            }
        }
        return nil
    }
}

extension String.UnicodeScalarView {
    /// Whether the view ends with `suffix`.
    fileprivate func elementsEqualSuffix(_ suffix: Substring.UnicodeScalarView) -> Bool {
        var own = reversed().makeIterator()
        for scalar in suffix.reversed() {
            guard own.next() == scalar else { return false }
        }
        return true
    }
}
