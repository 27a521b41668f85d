/// A uniform type identifier, such as `public.png` or `com.example.note`: the name of a kind of
/// data, file or directory.
///
/// A `UniformType` is a small value: the identifier as written, plus a canonical (ASCII-lowercased)
/// form used for equality and hashing, so `PUBLIC.PNG` equals `public.png` while
/// ``identifier`` keeps the original spelling. What a type conforms to, its tags and its
/// description come from the declarations in a ``TypeCatalog``; the instance members of this type
/// ask ``TypeCatalog/shared``.
///
/// Identifiers are at most 255 UTF-8 bytes of `A–Z a–z 0–9 - .` and Unicode letters and digits
/// above U+007F, with no empty component and no leading or trailing dot. Identifiers starting with
/// `dyn.` name dynamic types, which the library makes for tags that no declaration claims (see
/// ``isDynamic``).
///
/// ```swift
/// let png = UniformType("public.png")          // Optional(public.png)
/// png?.conforms(to: .image)                     // true
/// UniformType(filenameExtension: "JPG")         // public.jpeg
/// try UniformType(validating: "bad id")         // throws .invalidIdentifier
/// ```
public struct UniformType: Sendable {
    /// The key of an identifier that the process-wide identifier table had no room for.
    static let unkeyed: Int32 = -1

    /// The identifier's process-wide key (see `IdentifierTable`), or `unkeyed`. Kept inline so
    /// that equality and catalog lookups need not follow the storage reference.
    let key: Int32
    /// Everything else, behind one reference, so copying a type costs a single retain.
    private let storage: Storage

    private final class Storage: Sendable {
        let identifier: String
        let canonical: String
        let canonicalHash: Int
        let dynamic: DynamicTypeName.Decoded?

        init(identifier: String, canonical: String, dynamic: DynamicTypeName.Decoded?) {
            self.identifier = identifier
            self.canonical = canonical
            canonicalHash = canonical.hashValue
            self.dynamic = dynamic
        }
    }

    /// The identifier as it was written, e.g. `com.Example.Note`.
    public var identifier: String { storage.identifier }
    /// The identifier with ASCII letters lowercased: the form that equality and hashing use.
    var canonical: String { storage.canonical }
    /// `canonical.hashValue`, computed once.
    var canonicalHash: Int { storage.canonicalHash }
    /// What a `dyn.` identifier encodes; `nil` for other identifiers.
    var dynamic: DynamicTypeName.Decoded? { storage.dynamic }

    /// Creates a type from an identifier already known to be valid.
    init(trusted identifier: String) {
        let canonical = TextRules.asciiLowercased(identifier)
        let (key, earlier) = IdentifierTable.shared.lookUp(canonical, spelledAs: identifier)
        if let earlier {
            self = earlier
            return
        }
        self.key = key
        let dynamic = DynamicTypeName.isDynamic(canonical) ? DynamicTypeName.decode(canonical) : nil
        storage = Storage(identifier: identifier, canonical: canonical, dynamic: dynamic)
        IdentifierTable.shared.remember(self)
    }

    private init(key: Int32, storage: Storage) {
        self.key = key
        self.storage = storage
    }

    /// This type with `key`, the key its canonical identifier has been given since it was made (see
    /// `CatalogSnapshot`, which forces keys for declared identifiers).
    func withKey(_ key: Int32) -> UniformType {
        UniformType(key: key, storage: storage)
    }

    /// Creates a type from an identifier, or returns `nil` when the identifier is not valid.
    ///
    /// The type need not be declared: `UniformType("com.example.unknown")` succeeds, and
    /// ``isDeclared`` tells whether a declaration exists.
    /// - Parameter identifier: A type identifier such as `public.json`.
    public init?(_ identifier: String) {
        guard IdentifierSyntax.problem(with: identifier) == nil else {
            return nil
        }
        self.init(trusted: identifier)
    }

    /// Creates a type from an identifier, throwing an error that says why it is not valid.
    /// - Parameter identifier: A type identifier such as `public.json`.
    /// - Throws: ``UniformTypeError`` with code `UniformTypeError.Code.invalidIdentifier`.
    public init(validating identifier: String) throws(UniformTypeError) {
        if let problem = IdentifierSyntax.problem(with: identifier) {
            throw UniformTypeError(
                code: .invalidIdentifier,
                message: "'\(identifier)' is not a valid type identifier: \(problem).",
                source: identifier
            )
        }
        self.init(trusted: identifier)
    }

    /// Whether the identifier is in the `public.` domain, which Apple reserves for the types it
    /// declares on behalf of everyone.
    public var isPublic: Bool {
        canonical.hasPrefix("public.")
    }

    /// Whether this is a dynamic type: one the library made up for a tag that no declaration
    /// claims, or for an invalid identifier given to ``init(exportedAs:conformingTo:)``.
    ///
    /// Every identifier with the `dyn.` prefix is dynamic. Dynamic identifiers have the form
    /// `dyn.<class>.<tag>[.<parent>…]`, every part escaped so it contains only `[a-z0-9-]`:
    /// each byte outside `[a-z0-9]` becomes `-` and two lowercase hex digits. `<class>` is `ext`
    /// for filename extensions, `mime` for MIME types, `x` followed by the escaped tag class
    /// identifier for any other tag class, and `id` for an invalid identifier given to
    /// ``init(exportedAs:conformingTo:)`` or ``init(importedAs:conformingTo:)``. The tag is in its
    /// normalized form (extensions without a leading dot and ASCII-lowercased; MIME types reduced
    /// to a lowercased `type/subtype`). The parents are the escaped identifiers the type conforms
    /// to; none are written when the only parent is `public.data`.
    ///
    /// For example, the extension `foo` gives `dyn.ext.foo`, the MIME type
    /// `application/x-thing` gives `dyn.mime.application-2fx-2dthing`, and the extension `foo`
    /// conforming to `public.text` gives `dyn.ext.foo.public-2etext`.
    public var isDynamic: Bool {
        dynamic != nil
    }
}

extension UniformType: Hashable {
    /// Whether two types have the same identifier, ignoring the case of ASCII letters.
    public static func == (lhs: UniformType, rhs: UniformType) -> Bool {
        if lhs.key != unkeyed && rhs.key != unkeyed {
            return lhs.key == rhs.key
        }
        return lhs.canonicalHash == rhs.canonicalHash && lhs.canonical == rhs.canonical
    }

    /// Feeds the hash of the canonical identifier, computed once when the value was made.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(canonicalHash)
    }
}

extension UniformType: LosslessStringConvertible, CustomDebugStringConvertible {
    /// The identifier as it was written.
    public var description: String {
        identifier
    }

    /// The identifier in a form that shows it is a type, e.g. `UniformType(public.png)`.
    public var debugDescription: String {
        "UniformType(\(identifier))"
    }
}

extension UniformType: Codable {
    /// Decodes a type from a single string holding its identifier.
    /// - Throws: `DecodingError.dataCorrupted` when the string is not a valid identifier.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        if let problem = IdentifierSyntax.problem(with: text) {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "'\(text)' is not a valid type identifier: \(problem)."
            )
        }
        self.init(trusted: text)
    }

    /// Encodes the type as a single string: its identifier as it was written.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(identifier)
    }
}
