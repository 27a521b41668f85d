/// A kind of tag that names a type in another system: a filename extension, a MIME type, ….
///
/// A tag class is itself identified by a type identifier (``rawValue``); classes compare without
/// regard to the case of ASCII letters. Tags of ``filenameExtension`` and ``mimeType`` match
/// case-insensitively; tags of any other class match exactly.
///
/// ```swift
/// UniformType.png.tags[.filenameExtension]   // ["png"]
/// ```
public struct UniformTypeTagClass: Hashable, Sendable, RawRepresentable, Codable, CodingKeyRepresentable {
    /// The identifier of the tag class, e.g. `public.filename-extension`.
    public let rawValue: String
    private let canonical: String

    /// Creates a tag class from its identifier.
    ///
    /// Any string is accepted here; ``TypeCatalog/register(_:as:)`` rejects a class whose raw value
    /// is not a valid type identifier.
    /// - Parameter rawValue: The identifier of the tag class.
    public init(rawValue: String) {
        self.rawValue = rawValue
        canonical = TextRules.asciiLowercased(rawValue)
    }

    /// Filename extensions without the leading dot, such as `png` (`public.filename-extension`).
    public static let filenameExtension = Self(rawValue: "public.filename-extension")

    /// MIME types, such as `image/png` (`public.mime-type`).
    public static let mimeType = Self(rawValue: "public.mime-type")

    /// Whether two classes have the same identifier, ignoring the case of ASCII letters.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.canonical == rhs.canonical
    }

    /// Feeds the canonical (ASCII-lowercased) identifier.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(canonical)
    }

    /// Decodes a tag class from a single string.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the tag class as a single string, its identifier.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The coding key that stands for this class in a dictionary keyed by tag class.
    public var codingKey: any CodingKey {
        TagClassKey(stringValue: rawValue)
    }

    /// Creates a tag class from a dictionary key.
    /// - Parameter codingKey: A key whose string value is the class identifier.
    public init?<T: CodingKey>(codingKey: T) {
        self.init(rawValue: codingKey.stringValue)
    }

    /// Whether the class has a valid identifier, so it can be used in declarations.
    var isValid: Bool {
        IdentifierSyntax.problem(with: rawValue) == nil
    }
}

private struct TagClassKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }

    init(stringValue: String) {
        self.stringValue = stringValue
    }

    init?(intValue: Int) {
        nil
    }
}
