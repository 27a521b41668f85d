public import UniformTypes

/// An error from reading or writing a transfer archive, in either form.
///
/// Compare errors by ``code``; ``message`` says what went wrong and what to do, and is for people.
/// ``itemIndex``, ``type`` and ``offset`` locate the problem when it is known.
///
/// ```swift
/// do {
///     let archive = try TransferArchive(decoding: bytes)
/// } catch where error.code == .checksumMismatch {
///     print("item \(error.itemIndex ?? -1), \(error.type?.identifier ?? "?"): \(error.message)")
/// }
/// ```
public struct TransferArchiveError: Error, Sendable, CustomStringConvertible {
    /// An extensible error code; new codes do not break switch statements of users.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: String, Hashable, Sendable {
            case truncated
            case malformed
            case notAnArchive
            case unsupportedVersion
            case checksumMismatch
            case limitExceeded
            case invalidIdentifier
            case invalidUTF8
            case invalidBase64
            case invalidName
            case duplicateType
            case unrepresentableValue
            case countMismatch
            case ioFailed
            case cancelled
        }

        private let wrapped: Wrapped

        private init(_ wrapped: Wrapped) {
            self.wrapped = wrapped
        }

        /// The input ended inside the archive, or a source descriptor ended before the length promised for it.
        public static var truncated: Self { Self(.truncated) }
        /// The input is CBOR or JSON but does not follow the archive layout: a wrong type, a missing key, a
        /// duplicate key, bytes after the end, or (binary form) an encoding that is not deterministic.
        public static var malformed: Self { Self(.malformed) }
        /// The input does not start like an archive: no self-describe tag, no JSON object, or another format name.
        public static var notAnArchive: Self { Self(.notAnArchive) }
        /// The archive's major version is not one this reader knows.
        public static var unsupportedVersion: Self { Self(.unsupportedVersion) }
        /// A representation's bytes do not match its CRC-32: the archive was damaged or edited.
        public static var checksumMismatch: Self { Self(.checksumMismatch) }
        /// A value exceeds one of the ``TransferArchive/Limits``.
        public static var limitExceeded: Self { Self(.limitExceeded) }
        /// A uniform type identifier is empty, too long or has a character outside `[A-Za-z0-9.-]`.
        public static var invalidIdentifier: Self { Self(.invalidIdentifier) }
        /// A text string (an identifier, a name, a key, JSON text) is not valid UTF-8.
        public static var invalidUTF8: Self { Self(.invalidUTF8) }
        /// A JSON representation's `base64` string is not standard padded base64.
        public static var invalidBase64: Self { Self(.invalidBase64) }
        /// A suggested name is empty, `.`, `..`, or holds `/` or NUL: it must be a file name without folders.
        public static var invalidName: Self { Self(.invalidName) }
        /// An item has two representations of the same uniform type.
        public static var duplicateType: Self { Self(.duplicateType) }
        /// A metadata value cannot be stored in the requested form (JSON has no NaN or infinity).
        public static var unrepresentableValue: Self { Self(.unrepresentableValue) }
        /// A streaming writer was given more or fewer items or representations than it was promised, or was
        /// called out of order.
        public static var countMismatch: Self { Self(.countMismatch) }
        /// Reading or writing a file descriptor or a sink failed; the error is in ``cause``.
        public static var ioFailed: Self { Self(.ioFailed) }
        /// The ``TransferProgress`` given to a streaming call was cancelled.
        public static var cancelled: Self { Self(.cancelled) }

        /// The code's name, such as `checksumMismatch`.
        public var description: String { wrapped.rawValue }
    }

    /// What kind of problem this is.
    public var code: Code
    /// What went wrong and what to do about it.
    public var message: String
    /// The underlying error (a `CBORError`, an I/O error, …), if any.
    public var cause: (any Error)?
    /// Where the input came from (a file path, …), if the caller knows; set it before showing the error.
    public var source: String?
    /// The index of the item where the problem was found, if any.
    public var itemIndex: Int?
    /// The type of the representation where the problem was found, if known.
    public var type: UniformType?
    /// The byte offset in the input where the problem was found, if known.
    public var offset: Int?

    /// Creates an error.
    /// - Parameters:
    ///   - code: What kind of problem this is.
    ///   - message: What went wrong and what to do about it.
    ///   - itemIndex: The index of the item, if known.
    ///   - type: The representation's type, if known.
    ///   - offset: The byte offset in the input, if known.
    ///   - cause: The underlying error, if any.
    ///   - source: Where the input came from, if known.
    public init(
        _ code: Code, _ message: String, itemIndex: Int? = nil, type: UniformType? = nil, offset: Int? = nil,
        cause: (any Error)? = nil, source: String? = nil
    ) {
        self.code = code
        self.message = message
        self.itemIndex = itemIndex
        self.type = type
        self.offset = offset
        self.cause = cause
        self.source = source
    }

    /// The code, the message, and where the problem was found, on one line.
    public var description: String {
        var text = "TransferArchiveError.\(code): \(message)"
        var place: [String] = []
        if let itemIndex { place.append("item \(itemIndex)") }
        if let type { place.append("type \(type.identifier)") }
        if let offset { place.append("byte offset \(offset)") }
        if let source { place.append("in \(source)") }
        if !place.isEmpty { text += " (" + place.joined(separator: ", ") + ")" }
        if let cause { text += " (cause: \(cause))" }
        return text
    }
}
