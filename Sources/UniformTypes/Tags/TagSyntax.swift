/// The rules for tags: what is valid, and the normalized form that lookups compare.
///
/// - Filename extensions: one leading `.` is tolerated and dropped (`.png` is `png`); the rest
///   must be non-empty, at most 255 bytes, not start or end with `.`, and contain no `/`, `\`,
///   whitespace or control characters. They match case-insensitively (ASCII).
/// - MIME types: parsed as `type/subtype` with optional parameters (see `MediaType`); `type/subtype`
///   selects the uniform type, case-insensitively. Wildcards (`*/*`, `type/*`) are valid only
///   in queries that list matching types, never in declarations.
/// - Any other tag class: non-empty, at most 255 bytes, no whitespace or control characters;
///   matched exactly.
enum TagSyntax {
    /// The longest tag, in UTF-8 bytes.
    static let maximumLength = 255

    /// A tag in the form lookups compare.
    struct Normalized: Sendable {
        /// The lookup key: the lowercased extension, the lowercased MIME essence, or the exact tag.
        var key: String
        /// For MIME types: the parsed type, whose parameters refine matches.
        var mediaType: MediaType?

        var isWildcard: Bool { mediaType?.isWildcard ?? false }
    }

    /// The normalized form of `tag`, or why it is not valid.
    static func normalize(_ tag: String, as tagClass: UniformTypeTagClass) -> Result<Normalized, TagProblem> {
        guard tagClass.isValid else {
            return .failure(TagProblem("the tag class '\(tagClass.rawValue)' is not a valid type identifier"))
        }
        if tagClass == .filenameExtension {
            return normalizeExtension(tag)
        }
        if tagClass == .mimeType {
            guard tag.utf8.count <= 1024, let mediaType = MediaType(parsing: tag) else {
                return .failure(
                    TagProblem("'\(tag)' is not a MIME type; write type/subtype with optional ;name=value parameters")
                )
            }
            return .success(Normalized(key: mediaType.essence, mediaType: mediaType))
        }
        if let problem = plainTextProblem(tag) {
            return .failure(problem)
        }
        return .success(Normalized(key: tag))
    }

    private static func normalizeExtension(_ tag: String) -> Result<Normalized, TagProblem> {
        let trimmed = tag.hasPrefix(".") ? String(tag.dropFirst()) : tag
        if let problem = plainTextProblem(trimmed) {
            return .failure(problem)
        }
        if trimmed.hasPrefix(".") || trimmed.hasSuffix(".") {
            return .failure(
                TagProblem(
                    "the filename extension '\(tag)' must not start or end with '.' (one leading '.' is allowed)"))
        }
        if let slash = trimmed.unicodeScalars.first(where: { $0 == "/" || $0 == "\\" }) {
            return .failure(
                TagProblem("the filename extension '\(tag)' must not contain \(IdentifierSyntax.describe(slash))"))
        }
        return .success(Normalized(key: TextRules.asciiLowercased(trimmed)))
    }

    private static func plainTextProblem(_ tag: String) -> TagProblem? {
        if tag.isEmpty {
            return TagProblem("a tag must not be empty")
        }
        if tag.utf8.count > maximumLength {
            return TagProblem("a tag must be at most \(maximumLength) UTF-8 bytes long")
        }
        let bad = tag.unicodeScalars.first {
            let category = $0.properties.generalCategory
            return $0.properties.isWhitespace || category == .control || category == .format
        }
        if let bad {
            return TagProblem("the tag '\(tag)' must not contain \(IdentifierSyntax.describe(bad))")
        }
        return nil
    }
}

/// Why a tag is not valid.
struct TagProblem: Error, Sendable {
    var message: String

    init(_ message: String) {
        self.message = message
    }
}
