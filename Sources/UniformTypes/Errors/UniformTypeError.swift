/// An error from the `UniformTypes` library: a bad identifier or tag, a rejected declaration, or a
/// declaration file that cannot be read or parsed.
///
/// Check ``code`` to react to a specific problem; ``message`` says what went wrong and what to do,
/// ``source`` names where it was found.
///
/// ```swift
/// do {
///     try catalog.register([declaration], as: .exported)
/// } catch let error as UniformTypeError where error.code == .unknownParent {
///     print(error.message)
/// }
/// ```
public struct UniformTypeError: Error, Sendable, CustomStringConvertible {
    /// An extensible error code; new codes do not break switch statements of users.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: String, Hashable, Sendable {
            case invalidIdentifier
            case invalidTag
            case unknownParent
            case duplicateIdentifier
            case conformanceCycle
            case invalidJSON
            case invalidDeclaration
            case unreadableFile
        }

        private let wrapped: Wrapped

        private init(_ wrapped: Wrapped) {
            self.wrapped = wrapped
        }

        /// An identifier was empty, too long, had a character that is not allowed, an empty component,
        /// or used the reserved `dyn.` prefix in a declaration.
        public static var invalidIdentifier: Self { Self(.invalidIdentifier) }

        /// A tag (filename extension, MIME type, …) or a tag class was malformed.
        public static var invalidTag: Self { Self(.invalidTag) }

        /// A declaration named a parent type that is neither in the catalog nor in the same batch.
        public static var unknownParent: Self { Self(.unknownParent) }

        /// An identifier was declared twice in one batch, or again with the same precedence.
        public static var duplicateIdentifier: Self { Self(.duplicateIdentifier) }

        /// The declarations would make a type conform to itself through its parents.
        public static var conformanceCycle: Self { Self(.conformanceCycle) }

        /// A declaration file is not well-formed JSON (or not UTF-8).
        public static var invalidJSON: Self { Self(.invalidJSON) }

        /// A declaration file is JSON but does not have the shape that
        /// `Schemas/type-declarations.schema.json` describes: a missing `identifier`, a field of the
        /// wrong type, an unknown key, a reference URL that is not an absolute URL, ….
        public static var invalidDeclaration: Self { Self(.invalidDeclaration) }

        /// A declaration file does not exist, is not a regular file, is too large or cannot be read.
        public static var unreadableFile: Self { Self(.unreadableFile) }

        /// The code's name, e.g. `unknownParent`.
        public var description: String { wrapped.rawValue }
    }

    /// What kind of problem this is.
    public var code: Code
    /// What went wrong and what to do about it.
    public var message: String
    /// The underlying error, if any.
    public var cause: (any Error)?
    /// Where the problem was found (a file path and entry, a type identifier, …), if known.
    public var source: String?

    /// Creates an error.
    /// - Parameters:
    ///   - code: The kind of problem.
    ///   - message: What went wrong and what to do about it.
    ///   - cause: The underlying error, if any.
    ///   - source: Where the problem was found, if known.
    public init(code: Code, message: String, cause: (any Error)? = nil, source: String? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
        self.source = source
    }

    /// The code, the source when known, the message and the cause when there is one.
    public var description: String {
        var text = "UniformTypeError.\(code)"
        if let source {
            text += " (\(source))"
        }
        text += ": \(message)"
        if let cause {
            text += " (cause: \(cause))"
        }
        return text
    }
}
