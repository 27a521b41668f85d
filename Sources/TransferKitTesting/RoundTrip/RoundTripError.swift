public import TransferKit
public import UniformTypes

/// The first difference a round trip found, or the step that failed before anything could be compared.
///
/// ``message`` says it all in one paragraph: the archive form, the representation's type, the byte offset of the
/// first differing byte or both values' descriptions. The other properties hold the same facts for code that
/// wants to look at them.
///
/// ```swift
/// do {
///     try await roundTripped(card)
/// } catch let error as RoundTripError where error.code == .bytesDiffer {
///     print(error.type, error.byteOffset)
/// }
/// ```
public struct RoundTripError: Error, Sendable, CustomStringConvertible {
    /// An extensible error code; new codes do not break switch statements of users.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: Hashable, Sendable {
            case encodingFailed
            case archiveFailed
            case missingRepresentation
            case extraRepresentation
            case bytesDiffer
            case decodingFailed
            case valueDiffers
            case childProcessFailed
        }

        private let wrapped: Wrapped

        /// The value could not hand out one of its representations (its `loadData(for:progress:)` threw).
        public static var encodingFailed: Self { Self(wrapped: .encodingFailed) }
        /// The archive could not be written or read back.
        public static var archiveFailed: Self { Self(wrapped: .archiveFailed) }
        /// A representation that went out did not come back (or came back as another type, or in another place).
        public static var missingRepresentation: Self { Self(wrapped: .missingRepresentation) }
        /// More representations (or items) came back than went out.
        public static var extraRepresentation: Self { Self(wrapped: .extraRepresentation) }
        /// A representation came back with other bytes; ``RoundTripError/byteOffset`` is the first that differs.
        public static var bytesDiffer: Self { Self(wrapped: .bytesDiffer) }
        /// `loadObject(ofClass:)` could not decode what came back.
        public static var decodingFailed: Self { Self(wrapped: .decodingFailed) }
        /// The value read back is not equal (`==`) to the original.
        public static var valueDiffers: Self { Self(wrapped: .valueDiffers) }
        /// The child process could not be started, or exited with a non-zero status.
        public static var childProcessFailed: Self { Self(wrapped: .childProcessFailed) }

        /// The code's name, such as `bytesDiffer`.
        public var description: String {
            switch wrapped {
            case .encodingFailed: "encodingFailed"
            case .archiveFailed: "archiveFailed"
            case .missingRepresentation: "missingRepresentation"
            case .extraRepresentation: "extraRepresentation"
            case .bytesDiffer: "bytesDiffer"
            case .decodingFailed: "decodingFailed"
            case .valueDiffers: "valueDiffers"
            case .childProcessFailed: "childProcessFailed"
            }
        }
    }

    /// What kind of difference or failure this is.
    public var code: Code
    /// What differs, where, and what to look at.
    public var message: String
    /// The underlying error, if any (a ``TransferError``, a `TransferArchiveError`, …).
    public var cause: (any Error)?
    /// The step of the round trip, such as `CBOR form, archive read back` or `JSON form, child process`.
    public var source: String?
    /// The archive form in which the difference appeared, if it was in one.
    public var format: TransferArchiveFormat?
    /// The representation's type, if the difference is in one representation.
    public var type: UniformType?
    /// The offset of the first differing byte, for ``Code/bytesDiffer``.
    public var byteOffset: Int?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The kind of difference.
    ///   - message: What differs, where, and what to look at.
    ///   - cause: The underlying error, if any.
    ///   - source: The step of the round trip.
    ///   - format: The archive form, if any.
    ///   - type: The representation's type, if any.
    ///   - byteOffset: The first differing byte, if any.
    public init(
        code: Code, message: String, cause: (any Error)? = nil, source: String? = nil,
        format: TransferArchiveFormat? = nil, type: UniformType? = nil, byteOffset: Int? = nil
    ) {
        self.code = code
        self.message = message
        self.cause = cause
        self.source = source
        self.format = format
        self.type = type
        self.byteOffset = byteOffset
    }

    /// The code, the step and the message on one line.
    public var description: String {
        var text = "RoundTripError.\(code)"
        if let source {
            text += " (\(source))"
        }
        return text + ": " + message
    }
}
