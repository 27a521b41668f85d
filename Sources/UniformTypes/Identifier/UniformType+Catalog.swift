#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Queries answered by ``TypeCatalog/shared``.
extension UniformType {
    /// Declares a type that this program owns and returns it.
    ///
    /// Registers `UniformTypeDeclaration(identifier: identifier, conformsTo: [parent])` in
    /// ``TypeCatalog/shared`` as ``UniformTypeDeclaration/Origin/exported`` unless the type is
    /// already declared there as exported or system; an imported declaration is replaced.
    ///
    /// This initializer never fails, so it can back a `static let`:
    /// - When `identifier` is not a valid identifier, or uses the `dyn.` prefix reserved for
    ///   dynamic types, the result is a dynamic type (``isDynamic``) whose identifier encodes that
    ///   string (`dyn.id.…`) and that conforms to `parent`.
    /// - When the catalog rejects the declaration (because `parent` is not declared, or it would
    ///   make a cycle), the type is returned undeclared and conforms only to itself.
    ///
    /// ```swift
    /// extension UniformType {
    ///     static let note = UniformType(exportedAs: "com.example.note", conformingTo: .json)
    /// }
    /// ```
    /// - Parameters:
    ///   - identifier: A reverse-DNS identifier in a domain you own.
    ///   - parent: The type it conforms to; `public.data` by default.
    public init(exportedAs identifier: String, conformingTo parent: UniformType = .data) {
        self.init(declaring: identifier, conformingTo: parent, as: .exported)
    }

    /// Declares a type owned by someone else that this program uses, and returns it.
    ///
    /// Like ``init(exportedAs:conformingTo:)``, but registers an
    /// ``UniformTypeDeclaration/Origin/imported`` declaration, and only when the type is not
    /// declared at all: exported and system declarations win over imported ones.
    /// - Parameters:
    ///   - identifier: The identifier its owner declares.
    ///   - parent: The type it conforms to; `public.data` by default.
    public init(importedAs identifier: String, conformingTo parent: UniformType = .data) {
        self.init(declaring: identifier, conformingTo: parent, as: .imported)
    }

    private init(
        declaring identifier: String, conformingTo parent: UniformType, as origin: UniformTypeDeclaration.Origin
    ) {
        guard let type = UniformType(identifier), !type.isDynamic else {
            self = DynamicTypeName.type(invalidIdentifier: identifier, parents: [parent])
            return
        }
        self = type
        TypeCatalog.shared.declareIfNeeded(type, conformingTo: parent, as: origin)
    }

    /// The type for a filename extension; see ``TypeCatalog/type(filenameExtension:conformingTo:)``.
    /// - Parameters:
    ///   - filenameExtension: An extension such as `png`; one leading `.` is allowed.
    ///   - supertype: A type the result must conform to; `public.data` by default.
    public init?(filenameExtension: String, conformingTo supertype: UniformType = .data) {
        guard let type = TypeCatalog.shared.type(filenameExtension: filenameExtension, conformingTo: supertype) else {
            return nil
        }
        self = type
    }

    /// The type for a MIME type; see ``TypeCatalog/type(mimeType:conformingTo:)``.
    /// - Parameters:
    ///   - mimeType: A MIME type such as `image/png`, parameters allowed.
    ///   - supertype: A type the result must conform to; `public.data` by default.
    public init?(mimeType: String, conformingTo supertype: UniformType = .data) {
        guard let type = TypeCatalog.shared.type(mimeType: mimeType, conformingTo: supertype) else {
            return nil
        }
        self = type
    }

    /// The type for a tag of any class; see ``TypeCatalog/type(tag:tagClass:conformingTo:)``.
    /// - Parameters:
    ///   - tag: The tag.
    ///   - tagClass: The class of the tag.
    ///   - supertype: A type the result must conform to, or `nil` for no filter.
    public init?(tag: String, tagClass: UniformTypeTagClass, conformingTo supertype: UniformType?) {
        guard let type = TypeCatalog.shared.type(tag: tag, tagClass: tagClass, conformingTo: supertype) else {
            return nil
        }
        self = type
    }

    /// The types a tag names, the preferred one first; see
    /// ``TypeCatalog/types(tag:tagClass:conformingTo:)``.
    /// - Parameters:
    ///   - tag: The tag; MIME wildcards such as `image/*` are allowed.
    ///   - tagClass: The class of the tag.
    ///   - supertype: A type every result must conform to, or `nil` for no filter.
    public static func types(
        tag: String, tagClass: UniformTypeTagClass, conformingTo supertype: UniformType?
    )
        -> [UniformType]
    {
        TypeCatalog.shared.types(tag: tag, tagClass: tagClass, conformingTo: supertype)
    }

    /// Whether this type is `other` or a subtype of it, directly or through any of its parents.
    public func conforms(to other: UniformType) -> Bool {
        TypeCatalog.shared.conforms(self, to: other)
    }

    /// Whether this type conforms to `other` and is not `other` itself.
    public func isSubtype(of other: UniformType) -> Bool {
        self != other && conforms(to: other)
    }

    /// Whether `other` conforms to this type and is not this type itself.
    public func isSupertype(of other: UniformType) -> Bool {
        other.isSubtype(of: self)
    }

    /// Every type this type conforms to, directly or indirectly, not counting itself.
    public var supertypes: Set<UniformType> {
        TypeCatalog.shared.supertypes(of: self)
    }

    /// Whether ``TypeCatalog/shared`` has a declaration for this type.
    public var isDeclared: Bool {
        TypeCatalog.shared.isDeclared(self)
    }

    /// The declared description in English (there is no localization on Linux), or `nil`.
    public var localizedDescription: String? {
        TypeCatalog.shared.declaration(for: self)?.description
    }

    /// The tags by class, the preferred tag first; for a dynamic type, the tag it encodes.
    public var tags: [UniformTypeTagClass: [String]] {
        TypeCatalog.shared.tags(of: self)
    }

    /// The preferred filename extension, without the dot, e.g. `jpeg` for ``jpeg``.
    public var preferredFilenameExtension: String? {
        TypeCatalog.shared.preferredTag(of: self, tagClass: .filenameExtension)
    }

    /// The preferred MIME type, e.g. `image/jpeg` for ``jpeg``.
    public var preferredMIMEType: String? {
        TypeCatalog.shared.preferredTag(of: self, tagClass: .mimeType)
    }

    /// The declared reference URL: a page that documents the format.
    public var referenceURL: URL? {
        TypeCatalog.shared.declaration(for: self)?.referenceURL
    }

    /// The declared version of the type's declaration.
    public var version: Int? {
        TypeCatalog.shared.declaration(for: self)?.version
    }
}
