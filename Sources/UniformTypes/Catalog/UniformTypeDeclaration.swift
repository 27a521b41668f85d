#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// What a catalog knows about one type: its identifier, the types it conforms to, its tags and
/// a description. The equivalent of an entry in `UTExportedTypeDeclarations` of an Info.plist.
///
/// ```swift
/// let note = UniformTypeDeclaration(
///     identifier: UniformType("com.example.note")!,
///     conformsTo: [.json],
///     tags: [.filenameExtension: ["note"], .mimeType: ["application/vnd.example.note+json"]],
///     description: "Example note"
/// )
/// try TypeCatalog.shared.register([note], as: .exported)
/// ```
///
/// In `Codable` form, the keys are `identifier`, `conformsTo`, `tags` (an object keyed by tag
/// class identifier), `description`, `referenceURL` and `version`; only `identifier` is required.
public struct UniformTypeDeclaration: Sendable, Hashable, Codable {
    /// The declared type.
    public var identifier: UniformType
    /// The direct parents: the types this type conforms to. Conformance is transitive.
    public var conformsTo: [UniformType]
    /// The tags of the type by class; the first tag of each class is the preferred one.
    public var tags: [UniformTypeTagClass: [String]]
    /// A short English description, e.g. "PNG image".
    public var description: String?
    /// A page that documents the format.
    public var referenceURL: URL?
    /// The version of the declaration.
    public var version: Int?

    /// Creates a declaration.
    /// - Parameters:
    ///   - identifier: The declared type.
    ///   - conformsTo: The direct parents.
    ///   - tags: The tags by class, the preferred tag first.
    ///   - description: A short English description.
    ///   - referenceURL: A page that documents the format.
    ///   - version: The version of the declaration.
    public init(
        identifier: UniformType,
        conformsTo: [UniformType] = [],
        tags: [UniformTypeTagClass: [String]] = [:],
        description: String? = nil,
        referenceURL: URL? = nil,
        version: Int? = nil
    ) {
        self.identifier = identifier
        self.conformsTo = conformsTo
        self.tags = tags
        self.description = description
        self.referenceURL = referenceURL
        self.version = version
    }

    private enum CodingKeys: String, CodingKey {
        case identifier, conformsTo, tags, description, referenceURL, version
    }

    /// Decodes a declaration; every key but `identifier` may be missing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try container.decode(UniformType.self, forKey: .identifier)
        conformsTo = try container.decodeIfPresent([UniformType].self, forKey: .conformsTo) ?? []
        tags = try container.decodeIfPresent([UniformTypeTagClass: [String]].self, forKey: .tags) ?? [:]
        description = try container.decodeIfPresent(String.self, forKey: .description)
        referenceURL = try container.decodeIfPresent(URL.self, forKey: .referenceURL)
        version = try container.decodeIfPresent(Int.self, forKey: .version)
    }

    /// Encodes the declaration, leaving out empty and missing values.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(identifier, forKey: .identifier)
        if !conformsTo.isEmpty {
            try container.encode(conformsTo, forKey: .conformsTo)
        }
        if !tags.isEmpty {
            try container.encode(tags, forKey: .tags)
        }
        try container.encodeIfPresent(description, forKey: .description)
        try container.encodeIfPresent(referenceURL, forKey: .referenceURL)
        try container.encodeIfPresent(version, forKey: .version)
    }
}

extension UniformTypeDeclaration {
    /// Where a declaration came from, which decides which one wins when two declare the same
    /// identifier or claim the same tag.
    ///
    /// A lower ``rank`` wins: ``system`` (0) beats ``exported`` (100), which beats ``imported``
    /// (200), which beats ``carried`` (250), which beats ``mimeDatabase`` (300). A declaration for an identifier that a stronger origin already declares is ignored;
    /// one from a stronger origin replaces a weaker one; two from the same origin are a
    /// `UniformTypeError.Code.duplicateIdentifier` error. When several types claim one tag,
    /// lookups prefer the stronger origin, then the earlier registration.
    public struct Origin: Hashable, Sendable, CustomStringConvertible {
        /// A short name, e.g. `exported`.
        public let name: String
        /// The precedence: lower ranks win.
        public let rank: Int

        /// New origins are added here, with a rank that places them among the others.
        init(name: String, rank: Int) {
            self.name = name
            self.rank = rank
        }

        /// The built-in declarations of the public.* hierarchy and other well-known types.
        public static let system = Origin(name: "system", rank: 0)
        /// Types a program or library owns and declares (like `UTExportedTypeDeclarations`).
        public static let exported = Origin(name: "exported", rank: 100)
        /// Types owned by someone else that a program declares so it can use them (like
        /// `UTImportedTypeDeclarations`); an exported declaration of the same type replaces it.
        public static let imported = Origin(name: "imported", rank: 200)

        /// Types declared by data the program received rather than by the program: the declarations an
        /// archive carries (``TypeCatalog/addingCarriedDeclarations(_:)``). They never replace a
        /// system, exported or imported declaration, and win only over the MIME database's types.
        public static let carried = Origin(name: "carried", rank: 250)

        /// Types made from the Linux shared-mime-info database by
        /// ``TypeCatalog/importMIMEDatabase(directories:)``; every declared type wins over them.
        public static let mimeDatabase = Origin(name: "mimeDatabase", rank: 300)

        /// The name.
        public var description: String { name }
    }
}
