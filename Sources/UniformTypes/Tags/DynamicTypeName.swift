/// Writes and reads the identifiers of dynamic types: `dyn.<class>.<tag>[.<parent>…]`.
///
/// See ``UniformType/isDynamic`` for the scheme. Every part is escaped with
/// `TextRules.escape(_:)`, so it holds only `[a-z0-9-]` and the identifier is valid and already
/// canonical.
enum DynamicTypeName {
    static let prefix = "dyn."
    private static let extensionClass = "ext"
    private static let mimeClass = "mime"
    private static let identifierClass = "id"
    private static let otherClassMarker = "x"

    /// What a dynamic identifier says: the tag it stands for (if any) and the types it conforms to.
    final class Decoded: Sendable {
        let tagClass: UniformTypeTagClass?
        let tag: String?
        let parents: [UniformType]

        init(tagClass: UniformTypeTagClass?, tag: String?, parents: [UniformType]) {
            self.tagClass = tagClass
            self.tag = tag
            self.parents = parents
        }

        /// A `dyn.` identifier this library did not write: no tag, no parents.
        static let unknown = Decoded(tagClass: nil, tag: nil, parents: [])
    }

    static func isDynamic(_ canonical: String) -> Bool {
        canonical.hasPrefix(prefix)
    }

    /// The dynamic type for a normalized tag, or `nil` when the identifier would be too long.
    static func type(tag: String, tagClass: UniformTypeTagClass, parents: [UniformType]) -> UniformType? {
        let classPart: String
        if tagClass == .filenameExtension {
            classPart = extensionClass
        } else if tagClass == .mimeType {
            classPart = mimeClass
        } else {
            classPart = otherClassMarker + TextRules.escape(TextRules.asciiLowercased(tagClass.rawValue))
        }
        return make(classPart: classPart, tagPart: TextRules.escape(tag), parents: parents)
    }

    /// The dynamic type for an invalid identifier. When the escaped string would make the
    /// identifier too long, a stable 64-bit hash of it stands in (`h` and 16 hex digits); if even
    /// that is too long with the parents, the parents are dropped.
    static func type(invalidIdentifier: String, parents: [UniformType]) -> UniformType {
        if let type = make(classPart: identifierClass, tagPart: TextRules.escape(invalidIdentifier), parents: parents) {
            return type
        }
        let hashed = "h" + String(TextRules.stableHash(invalidIdentifier), radix: 16)
        return make(classPart: identifierClass, tagPart: hashed, parents: parents)
            ?? UniformType(trusted: prefix + identifierClass + "." + hashed)
    }

    private static func make(classPart: String, tagPart: String, parents: [UniformType]) -> UniformType? {
        var identifier = prefix + classPart + "." + tagPart
        if parents != [UniformType.data] {
            for parent in parents {
                identifier += "." + TextRules.escape(parent.canonical)
            }
        }
        guard identifier.utf8.count <= IdentifierSyntax.maximumLength else {
            return nil
        }
        return UniformType(trusted: identifier)
    }

    /// Reads a canonical `dyn.` identifier. Identifiers this library could not have written
    /// decode as ``Decoded/unknown``.
    static func decode(_ canonical: String) -> Decoded {
        let parts = canonical.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 3, let tag = TextRules.unescape(parts[2]) else {
            return .unknown
        }
        var parents: [UniformType] = []
        for part in parts.dropFirst(3) {
            guard let text = TextRules.unescape(part), let parent = UniformType(text) else {
                return .unknown
            }
            parents.append(parent)
        }
        if parents.isEmpty {
            parents = [.data]
        }
        let classPart = parts[1]
        if classPart == identifierClass {
            return Decoded(tagClass: nil, tag: nil, parents: parents)
        }
        let tagClass: UniformTypeTagClass
        if classPart == extensionClass {
            tagClass = .filenameExtension
        } else if classPart == mimeClass {
            tagClass = .mimeType
        } else if classPart.hasPrefix(otherClassMarker), let raw = TextRules.unescape(classPart.dropFirst()) {
            tagClass = UniformTypeTagClass(rawValue: raw)
        } else {
            return .unknown
        }
        // Only the normalized spelling of a tag is accepted, so each tag has one identifier.
        guard case .success(let normalized) = TagSyntax.normalize(tag, as: tagClass), normalized.key == tag,
            !normalized.isWildcard
        else {
            return .unknown
        }
        return Decoded(tagClass: tagClass, tag: tag, parents: parents)
    }
}
