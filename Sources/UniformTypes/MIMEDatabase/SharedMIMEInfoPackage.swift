import TransferKitPlatform

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A freedesktop.org shared-mime-info package: the XML file through which an application makes its own types known
/// to the desktop (file managers, GTK, Qt, `gio`, `xdg-mime`).
///
/// A package is installed as `<data dir>/mime/packages/<name>.xml` (for one user, under ``userMIMEDirectory(environment:)``),
/// after which `update-mime-database <data dir>/mime` must run; `transferkit types --export-mime --install` does
/// both. ``TypeCatalog/sharedMIMEInfoPackage(origins:)`` makes one from a catalogue's exported declarations, and
/// ``init(declarations:catalog:systemMIMEDirectories:)`` from any list of declarations.
///
/// Each declaration with a MIME type of its own becomes one `<mime-type>` element:
///
/// - `type`: the declaration's first MIME type (without parameters); its other MIME types are `<alias>`es;
/// - `<comment>`: the description (the identifier when there is none);
/// - `<glob pattern="*.ext"/>`: one per filename extension, in the declaration's order (the first is the one
///   applications use when saving);
/// - `<sub-class-of>`: the MIME types of the nearest supertypes that have one, found up each line of conformance
///   (`public.json` gives `application/json`, `public.plain-text` `text/plain`); `application/octet-stream` (of
///   `public.data`) only when no other is found.
///
/// A declaration is left out, with the reason in ``omissions`` and in a comment of the XML, when it has no MIME
/// type of its own (the specification has no entry without one, and a made-up `application/x-…` name would be
/// exported under a name that no other program uses), when its MIME type is not one that `update-mime-database`
/// accepts (`media/subtype` with a media type from ``mediaTypes`` and RFC 6838 characters), or when an earlier
/// declaration (by identifier) already exports the same MIME type. A declaration is left out too, with
/// ``Omission/claimsSystemMIMEType`` set, when one of its MIME types is the system's: a type or alias of the
/// system's shared-mime-info database (under `$XDG_DATA_DIRS`, not the user's own `$XDG_DATA_HOME/mime`, where an
/// earlier install of the same package lives), a MIME type of a built-in system type (`application/pdf`,
/// `text/plain`), or any `inode/` type (the kinds of file: `inode/directory`). Installed, such a package would
/// take the system's files for the declared type (every folder, or every `.txt` file); `transferkit types
/// --export-mime --install` refuses to install one. So is one whose description has more than
/// ``maximumCommentLength`` UTF-8 bytes. An extension with a glob metacharacter
/// (`*`, `?`, `[`, `]`) is left out too, and so is an alias that another element has as its type or (earlier by
/// identifier) as an alias. The output is deterministic: elements sorted by MIME type, omissions by
/// identifier, everything escaped for XML.
///
/// ```swift
/// let catalog = TypeCatalog()
/// try catalog.register([
///     UniformTypeDeclaration(identifier: UniformType("com.example.note")!, conformsTo: [.json],
///                            tags: [.filenameExtension: ["note"], .mimeType: ["application/vnd.example.note+json"]],
///                            description: "Example note")
/// ], as: .exported)
/// print(catalog.sharedMIMEInfoPackage().xml)
/// // <?xml version="1.0" encoding="UTF-8"?>
/// // <mime-info xmlns="http://www.freedesktop.org/standards/shared-mime-info">
/// //   <mime-type type="application/vnd.example.note+json">
/// //     <comment>Example note</comment>
/// //     <glob pattern="*.note"/>
/// //     <sub-class-of type="application/json"/>
/// //   </mime-type>
/// // </mime-info>
/// ```
public struct SharedMIMEInfoPackage: Sendable, Hashable {
    /// One `<mime-type>` element of the package.
    public struct Entry: Sendable, Hashable {
        /// The declared type the element describes.
        public var uniformType: UniformType
        /// The MIME type (`type` attribute), lowercased and without parameters.
        public var mimeType: String
        /// The human-readable description (`<comment>`).
        public var comment: String
        /// The filename patterns (`<glob pattern>`), such as `*.note`, the main one first.
        public var globs: [String]
        /// The MIME types of the nearest supertypes (`<sub-class-of type>`), sorted.
        public var subclassOf: [String]
        /// The other MIME types of the type (`<alias type>`), sorted.
        public var aliases: [String]
    }

    /// A declared type, or one of its tags, that the package leaves out, and why.
    public struct Omission: Sendable, Hashable {
        /// The declared type.
        public var uniformType: UniformType
        /// Why it (or one of its tags) was left out, in one sentence.
        public var reason: String
        /// Whether it was left out because one of its MIME types is the system's (a type or alias of the system's
        /// database, a built-in type's, or an `inode/` type), which a package must not claim.
        public var claimsSystemMIMEType = false
    }

    /// The longest `<comment>` (a declaration's description) a package holds, in UTF-8 bytes: 1 024.
    public static let maximumCommentLength = 1024

    /// The namespace of every element, `http://www.freedesktop.org/standards/shared-mime-info`.
    public static let namespace = "http://www.freedesktop.org/standards/shared-mime-info"

    /// The media types (the part before `/`) that `update-mime-database` accepts without a warning.
    public static let mediaTypes: Set<String> = [
        "application", "audio", "font", "image", "inode", "message", "model", "multipart", "text", "video",
        "x-content", "x-epoc", "x-scheme-handler",
    ]

    /// The elements, sorted by MIME type.
    public var entries: [Entry]
    /// What was left out, sorted by identifier.
    public var omissions: [Omission]

    /// Makes the package for `declarations`, asking `catalog` for the MIME types of their supertypes.
    /// - Parameters:
    ///   - declarations: The types to export, in any order; a declaration's own MIME tags and extensions are used
    ///     (not MIME types that an imported database merged into it: the desktop knows those already).
    ///   - catalog: Where supertypes are looked up.
    ///   - systemMIMEDirectories: The system's mime directories, whose types and aliases no declaration may claim;
    ///     `nil` for `<dir>/mime` of each directory of `$XDG_DATA_DIRS` (default `/usr/local/share:/usr/share`).
    public init(
        declarations: [UniformTypeDeclaration], catalog: TypeCatalog = .shared, systemMIMEDirectories: [URL]? = nil
    ) {
        let system = Self.systemMIMETypes(directories: systemMIMEDirectories)
        var entries: [Entry] = []
        var omissions: [Omission] = []
        var exported: [String: UniformType] = [:]
        var aliased: [String: UniformType] = [:]
        let sorted = declarations.sorted {
            $0.identifier.identifier.lowercased() < $1.identifier.identifier.lowercased()
        }
        for declaration in sorted {
            let type = declaration.identifier
            let mimeTypes = Self.essences(declaration.tags[.mimeType] ?? [])
            guard let mimeType = mimeTypes.first else {
                omissions.append(
                    Omission(
                        uniformType: type,
                        reason: "it declares no MIME type; add a public.mime-type tag such as "
                            + "application/vnd.<owner>.<name> to export it"))
                continue
            }
            if let problem = Self.problem(withMIMEType: mimeType) {
                omissions.append(
                    Omission(uniformType: type, reason: "its MIME type \(MessageExcerpt.quoted(mimeType)) \(problem)"))
                continue
            }
            if let claimed = mimeTypes.first(where: { Self.isSystem($0, in: system) }) {
                omissions.append(
                    Omission(
                        uniformType: type,
                        reason:
                            "its MIME type \(claimed) is the system's (\(Self.systemOwner(of: claimed, in: system))); "
                            + "a package that claimed it would make the desktop take the system's files for this type; "
                            + "give it a MIME type of its own, such as application/vnd.<owner>.<name>",
                        claimsSystemMIMEType: true))
                continue
            }
            if let description = declaration.description, description.utf8.count > Self.maximumCommentLength {
                omissions.append(
                    Omission(
                        uniformType: type,
                        reason: "its description has \(description.utf8.count) UTF-8 bytes, more than the "
                            + "\(Self.maximumCommentLength) a package's comment may have"))
                continue
            }
            if let owner = exported[mimeType] {
                omissions.append(
                    Omission(
                        uniformType: type,
                        reason: "its MIME type \(mimeType) is exported for \(owner.identifier) already"))
                continue
            }
            exported[mimeType] = type
            var globs: [String] = []
            for filenameExtension in declaration.tags[.filenameExtension] ?? [] {
                let trimmed =
                    filenameExtension.hasPrefix(".") ? String(filenameExtension.dropFirst()) : filenameExtension
                if trimmed.contains(where: { "*?[]".contains($0) }) {
                    omissions.append(
                        Omission(
                            uniformType: type,
                            reason: "its extension '\(filenameExtension)' has a glob metacharacter (*, ?, [ or ]) "
                                + "and is left out"))
                } else if !globs.contains("*." + trimmed) {
                    globs.append("*." + trimmed)
                }
            }
            var aliases: [String] = []
            for alias in mimeTypes.dropFirst() {
                if let problem = Self.problem(withMIMEType: alias) {
                    omissions.append(
                        Omission(
                            uniformType: type,
                            reason: "its MIME type \(MessageExcerpt.quoted(alias)) \(problem); no alias is made"))
                } else if let owner = aliased[alias] {
                    omissions.append(
                        Omission(
                            uniformType: type,
                            reason:
                                "its MIME type \(alias) is an alias of \(owner.identifier) already; no alias is made"
                        ))
                } else {
                    aliased[alias] = type
                    aliases.append(alias)
                }
            }
            let own = Set(mimeTypes)
            let parents = Self.nearestSupertypeMIMETypes(of: declaration, in: catalog).filter { !own.contains($0) }
            entries.append(
                Entry(
                    uniformType: type, mimeType: mimeType, comment: declaration.description ?? type.identifier,
                    globs: globs, subclassOf: parents.sorted(), aliases: aliases.sorted()))
        }
        // An alias of one element that is another element's type would make the database ambiguous.
        for index in entries.indices {
            let type = entries[index].uniformType
            entries[index].aliases.removeAll { alias in
                guard let owner = exported[alias], owner != type else { return false }
                omissions.append(
                    Omission(
                        uniformType: type,
                        reason: "its MIME type \(alias) is exported for \(owner.identifier); no alias is made"))
                return true
            }
        }
        self.entries = entries.sorted { $0.mimeType < $1.mimeType }
        self.omissions = omissions.enumerated().sorted {
            let (left, right) = (
                $0.element.uniformType.identifier.lowercased(), $1.element.uniformType.identifier.lowercased()
            )
            return left != right ? left < right : $0.offset < $1.offset
        }.map(\.element)
    }

    /// The package as an XML document (UTF-8, ending with a newline), omissions as comments before the elements.
    public var xml: String {
        var lines = [#"<?xml version="1.0" encoding="UTF-8"?>"#]
        lines.append(#"<mime-info xmlns="\#(Self.namespace)">"#)
        for omission in omissions {
            lines.append(
                "  <!-- left out: \(Self.commentText("\(omission.uniformType.identifier): \(omission.reason)")) -->")
        }
        for entry in entries {
            lines.append(#"  <mime-type type="\#(Self.escaped(entry.mimeType))">"#)
            lines.append("    <comment>\(Self.escaped(entry.comment))</comment>")
            for glob in entry.globs {
                lines.append(#"    <glob pattern="\#(Self.escaped(glob))"/>"#)
            }
            for parent in entry.subclassOf {
                lines.append(#"    <sub-class-of type="\#(Self.escaped(parent))"/>"#)
            }
            for alias in entry.aliases {
                lines.append(#"    <alias type="\#(Self.escaped(alias))"/>"#)
            }
            lines.append("  </mime-type>")
        }
        lines.append("</mime-info>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The MIME directory of one user's database: `$XDG_DATA_HOME/mime`, or `$HOME/.local/share/mime` when
    /// `XDG_DATA_HOME` is unset, empty or relative (as the XDG Base Directory specification says).
    ///
    /// A package for that user goes into its `packages` folder; `update-mime-database` then takes this directory.
    /// - Parameter environment: Usually `ProcessInfo.processInfo.environment`.
    /// - Returns: The directory, without a trailing `/`, or `nil` when neither variable gives an absolute path.
    public static func userMIMEDirectory(environment: [String: String]) -> String? {
        var base: Substring
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            base = Substring(dataHome)
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            var trimmed = Substring(home)
            while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
            base = trimmed + "/.local/share"
        } else {
            return nil
        }
        while base.hasSuffix("/") { base = base.dropLast() }
        return String(base) + "/mime"
    }

    // MARK: - Rules

    /// The MIME types no package may claim: the system database's types and aliases, and the built-in types' MIME
    /// types, lowercased.
    struct SystemMIMETypes {
        var database: Set<String>
        var builtIn: Set<String>
    }

    static func systemMIMETypes(directories: [URL]?) -> SystemMIMETypes {
        let paths =
            directories?.map(\.path)
            ?? MIMEDatabase.systemSearchDirectories(environment: Syscall.environment())
        let database = MIMEDatabase(directories: paths)
        var known = Set(database.mimeTypes.map(\.asciiLowercased))
        known.formUnion(database.aliasTargets.keys)
        var builtIn: Set<String> = []
        for declaration in UniformType.systemDeclarations {
            for tag in declaration.tags[.mimeType] ?? [] {
                builtIn.insert((MediaType(parsing: tag)?.essence ?? tag).asciiLowercased)
            }
        }
        return SystemMIMETypes(database: known, builtIn: builtIn)
    }

    private static func isSystem(_ mimeType: String, in system: SystemMIMETypes) -> Bool {
        let key = mimeType.asciiLowercased
        return key.hasPrefix("inode/") || system.database.contains(key) || system.builtIn.contains(key)
    }

    private static func systemOwner(of mimeType: String, in system: SystemMIMETypes) -> String {
        let key = mimeType.asciiLowercased
        if system.builtIn.contains(key) { return "a built-in type's" }
        if system.database.contains(key) { return "a type or alias of the system's shared-mime-info database" }
        return "inode/ types name kinds of file, which only the system assigns"
    }

    /// The MIME types of `tags` without parameters, lowercased, first occurrence kept.
    private static func essences(_ tags: [String]) -> [String] {
        var result: [String] = []
        for tag in tags {
            let essence = MediaType(parsing: tag)?.essence ?? tag
            if !result.contains(essence) {
                result.append(essence)
            }
        }
        return result
    }

    /// Why `mimeType` cannot be a shared-mime-info type, or `nil` when it can.
    static func problem(withMIMEType mimeType: String) -> String? {
        let parts = mimeType.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            return "is not media/subtype"
        }
        guard mediaTypes.contains(String(parts[0])) else {
            return "has a media type that update-mime-database does not know ("
                + mediaTypes.sorted().joined(separator: ", ") + ")"
        }
        // RFC 6838 §4.2: restricted-name = restricted-name-first *126restricted-name-chars.
        let subtype = parts[1].unicodeScalars
        let isAlphanumeric = { (scalar: Unicode.Scalar) in
            scalar.isASCII && (("a"..."z").contains(scalar) || ("0"..."9").contains(scalar))
        }
        guard let first = subtype.first, isAlphanumeric(first), subtype.count <= 127,
            subtype.allSatisfy({ isAlphanumeric($0) || "!#$&-^_.+".unicodeScalars.contains($0) })
        else {
            return "has a subtype that is not an RFC 6838 name (a letter or digit, then letters, digits and !#$&-^_.+)"
        }
        return nil
    }

    /// The MIME types of the nearest supertypes of `declaration` that have one: each line of conformance is
    /// followed up until a type with a valid MIME type; `application/octet-stream` counts only when nothing else
    /// is found.
    private static func nearestSupertypeMIMETypes(
        of declaration: UniformTypeDeclaration, in catalog: TypeCatalog
    ) -> Set<String> {
        var found: Set<String> = []
        var visited: Set<UniformType> = [declaration.identifier]
        var frontier = declaration.conformsTo
        while !frontier.isEmpty {
            var next: [UniformType] = []
            for parent in frontier where visited.insert(parent).inserted {
                let mimeType = essences(catalog.tags(of: parent)[.mimeType] ?? []).first {
                    problem(withMIMEType: $0) == nil
                }
                if let mimeType {
                    found.insert(mimeType)
                } else {
                    next += catalog.declaration(for: parent)?.conformsTo ?? []
                }
            }
            frontier = next
        }
        if found.count > 1 {
            found.remove("application/octet-stream")
        }
        return found
    }

    // MARK: - XML

    /// `text` escaped for an XML attribute value or element content; characters that XML 1.0 cannot hold
    /// (control characters other than tab, newline and carriage return) become U+FFFD.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default: result.unicodeScalars.append(xmlCharacter(scalar))
            }
        }
        return result
    }

    /// `scalar`, or U+FFFD when XML 1.0 cannot hold it.
    private static func xmlCharacter(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        let isInvalid =
            (scalar.value < 0x20 && !["\t", "\n", "\r"].contains(scalar)) || scalar.value == 0xFFFE
            || scalar.value == 0xFFFF
        return isInvalid ? "\u{FFFD}" : scalar
    }

    /// `text` for an XML comment, whose content is literal (no entities): without `--`, which a comment cannot
    /// contain, and not ending with `-`.
    private static func commentText(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            // A hyphen after a hyphen becomes U+2010 HYPHEN, which looks the same.
            result.unicodeScalars.append(
                scalar == "-" && result.unicodeScalars.last == "-" ? "\u{2010}" : xmlCharacter(scalar))
        }
        return result.hasSuffix("-") ? result + " " : result
    }
}
