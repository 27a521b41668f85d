@_exported public import TransferKitErrors

/// An error from the `UniformTypes` library: a bad identifier or tag, a rejected declaration, or a
/// declaration file that cannot be read or parsed.
///
/// Check `code` to react to a specific problem; `message` says what went wrong and what to do,
/// `source` names where it was found.
///
/// ```swift
/// do {
///     try catalog.register([declaration], as: .exported)
/// } catch let error as UniformTypeError where error.code == .unknownParent {
///     print(error.message)
/// }
/// ```
public typealias UniformTypeError = DomainError<UniformTypeErrorDomain>

/// The domain of ``UniformTypeError``.
public enum UniformTypeErrorDomain: ErrorDomain {}

extension ErrorCode where Domain == UniformTypeErrorDomain {
    /// An identifier was empty, too long, had a character that is not allowed, an empty component,
    /// or used the reserved `dyn.` prefix in a declaration.
    public static var invalidIdentifier: Self { Self("invalidIdentifier") }

    /// A tag (filename extension, MIME type, …) or a tag class was malformed.
    public static var invalidTag: Self { Self("invalidTag") }

    /// A declaration named a parent type that is neither in the catalog nor in the same batch.
    public static var unknownParent: Self { Self("unknownParent") }

    /// An identifier was declared twice in one batch, or again with the same precedence.
    public static var duplicateIdentifier: Self { Self("duplicateIdentifier") }

    /// The declarations would make a type conform to itself through its parents.
    public static var conformanceCycle: Self { Self("conformanceCycle") }

    /// A declaration file is not well-formed JSON (or not UTF-8).
    public static var invalidJSON: Self { Self("invalidJSON") }

    /// A declaration file is JSON but does not have the shape that
    /// `Schemas/type-declarations.schema.json` describes: a missing `identifier`, a field of the
    /// wrong type, an unknown key, a reference URL that is not an absolute URL, ….
    public static var invalidDeclaration: Self { Self("invalidDeclaration") }

    /// A declaration file does not exist, is not a regular file, is too large or cannot be read.
    public static var unreadableFile: Self { Self("unreadableFile") }

    /// A shared-mime-info `magic` file is malformed: no `MIME-Magic` header, a value or mask cut off, a number
    /// past its limit, a line nested without a parent, or an unknown word size. `source` names the file and
    /// `offset` the byte.
    public static var invalidMagic: Self { Self("invalidMagic") }

    /// A declaration to be installed in the desktop's MIME database claims a MIME type that is the system's (a type
    /// or alias of the system's shared-mime-info database, a built-in type's, or an `inode/` type); see
    /// ``SharedMIMEInfoPackage/Omission/claimsSystemMIMEType``.
    public static var claimsSystemMIMEType: Self { Self("claimsSystemMIMEType") }
}
