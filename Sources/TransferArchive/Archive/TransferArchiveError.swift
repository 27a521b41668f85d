@_exported public import TransferKitErrors
public import UniformTypes

/// An error from reading or writing a transfer archive, in either form.
///
/// Compare errors by `code`; `message` says what went wrong and what to do, and is for people.
/// `itemIndex`, `type` and `offset` locate the problem when it is known.
///
/// ```swift
/// do {
///     let archive = try TransferArchive(decoding: bytes)
/// } catch where error.code == .checksumMismatch {
///     print("item \(error.itemIndex ?? -1), \(error.type?.identifier ?? "?"): \(error.message)")
/// }
/// ```
public typealias TransferArchiveError = DomainError<TransferArchiveErrorDomain>

/// The domain of ``TransferArchiveError``.
public enum TransferArchiveErrorDomain: ErrorDomain {
    /// Where in an archive a problem was found.
    public struct Details: ErrorDetails, Hashable {
        /// The index of the item, if known.
        public var itemIndex: Int?
        /// The type of the representation, if known.
        public var type: UniformType?

        /// Nothing known.
        public init() {}

        /// Creates details.
        public init(itemIndex: Int? = nil, type: UniformType? = nil) {
            self.itemIndex = itemIndex
            self.type = type
        }

        /// `item N` and `type T`, when known.
        public var locationPhrases: [String] {
            (itemIndex.map { ["item \($0)"] } ?? []) + (type.map { ["type \($0.identifier)"] } ?? [])
        }
    }
}

extension ErrorCode where Domain == TransferArchiveErrorDomain {
    /// The input ended inside the archive, or a source descriptor ended before the length promised for it.
    public static var truncated: Self { Self("truncated") }

    /// The input is CBOR or JSON but does not follow the archive layout: a wrong type, a missing key, a
    /// duplicate key, bytes after the end, or (binary form) an encoding that is not deterministic.
    public static var malformed: Self { Self("malformed") }

    /// The input does not start like an archive: no self-describe tag, no JSON object, or another format name.
    public static var notAnArchive: Self { Self("notAnArchive") }

    /// The archive's major version is not one this reader knows.
    public static var unsupportedVersion: Self { Self("unsupportedVersion") }

    /// A representation's bytes do not match its CRC-32: the archive was damaged or edited.
    public static var checksumMismatch: Self { Self("checksumMismatch") }

    /// A value exceeds one of the ``TransferArchive/Limits``.
    public static var limitExceeded: Self { Self("limitExceeded") }

    /// A uniform type identifier is empty, too long or has a character outside `[A-Za-z0-9.-]`.
    public static var invalidIdentifier: Self { Self("invalidIdentifier") }

    /// A text string (an identifier, a name, a key, JSON text) is not valid UTF-8.
    public static var invalidUTF8: Self { Self("invalidUTF8") }

    /// A JSON representation's `base64` string is not standard padded base64.
    public static var invalidBase64: Self { Self("invalidBase64") }

    /// A suggested name is empty, `.`, `..`, or holds `/` or a control character: it must be a file name without
    /// folders.
    public static var invalidName: Self { Self("invalidName") }

    /// An item has two representations of the same uniform type.
    public static var duplicateType: Self { Self("duplicateType") }

    /// A type declaration the archive carries (format 1.1) breaks `Schemas/transfer-archive.md` §3.6: an identifier
    /// declared twice, a `dyn.` identifier, or a tag or description that is too long or holds a control character.
    public static var invalidDeclaration: Self { Self("invalidDeclaration") }

    /// A metadata value cannot be stored in the requested form (JSON has no NaN or infinity), a metadata number is
    /// outside `Int64` or `Double`, or a metadata key holds a character that Unicode 3.2 does not assign.
    public static var unrepresentableValue: Self { Self("unrepresentableValue") }

    /// A streaming writer was given more or fewer items or representations than it was promised, or was
    /// called out of order.
    public static var countMismatch: Self { Self("countMismatch") }

    /// Reading or writing a file descriptor or a sink failed; the error is in `cause`.
    public static var ioFailed: Self { Self("ioFailed") }

    /// A representation written in pieces received more or fewer bytes than the length promised for it.
    public static var lengthMismatch: Self { Self("lengthMismatch") }
}
