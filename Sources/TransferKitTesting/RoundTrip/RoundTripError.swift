public import TransferKit
@_exported public import TransferKitPlatform
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
///     print(error.type, error.offset)
/// }
/// ```
public typealias RoundTripError = DomainError<RoundTripErrorDomain>

/// The domain of ``RoundTripError``.
public enum RoundTripErrorDomain: ErrorDomain {
    /// `"RoundTripError"`.
    public static var name: String { "RoundTripError" }

    /// Where in a round trip a difference was found.
    public struct Details: ErrorDetails, Hashable {
        /// The archive form in which the difference appeared, if it was in one.
        public var format: TransferArchiveFormat?
        /// The representation's type, if the difference is in one representation.
        public var type: UniformType?

        /// Nothing known.
        public init() {}

        /// Creates details.
        public init(format: TransferArchiveFormat?, type: UniformType?) {
            self.format = format
            self.type = type
        }

        /// `type T`, when known; the form is already named by the error's source, the round trip's step.
        public var locationPhrases: [String] {
            type.map { ["type \($0.identifier)"] } ?? []
        }
    }
}

extension ErrorCode where Domain == RoundTripErrorDomain {
    /// The value could not hand out one of its representations (its `loadData(for:progress:)` threw).
    public static var encodingFailed: Self { Self("encodingFailed") }

    /// The archive could not be written or read back.
    public static var archiveFailed: Self { Self("archiveFailed") }

    /// A representation that went out did not come back (or came back as another type, or in another place).
    public static var missingRepresentation: Self { Self("missingRepresentation") }

    /// More representations (or items) came back than went out.
    public static var extraRepresentation: Self { Self("extraRepresentation") }

    /// A representation came back with other bytes; ``DomainError/offset`` is the first that differs.
    public static var bytesDiffer: Self { Self("bytesDiffer") }

    /// `loadObject(ofClass:)` could not decode what came back.
    public static var decodingFailed: Self { Self("decodingFailed") }

    /// The value read back is not equal (`==`) to the original.
    public static var valueDiffers: Self { Self("valueDiffers") }

    /// The child process could not be started, or exited with a non-zero status.
    public static var childProcessFailed: Self { Self("childProcessFailed") }
}

extension DomainError where Domain == RoundTripErrorDomain {
    /// Creates an error located in a round trip.
    /// - Parameters:
    ///   - code: The kind of difference.
    ///   - message: What differs, where, and what to look at.
    ///   - cause: The underlying error, if any.
    ///   - source: The step of the round trip, such as `CBOR form, archive read back`.
    ///   - offset: The first differing byte, for ``ErrorCode/bytesDiffer``.
    ///   - format: The archive form, if any.
    ///   - type: The representation's type, if any.
    public init(
        code: Code, message: String, cause: (any Error)? = nil, source: String? = nil, offset: Int? = nil,
        format: TransferArchiveFormat?, type: UniformType? = nil
    ) {
        self.init(
            code: code, message: message, cause: cause, source: source, offset: offset,
            details: .init(format: format, type: type))
    }

    /// The archive form in which the difference appeared, if it was in one.
    public var format: TransferArchiveFormat? {
        get { details.format }
        set { details.format = newValue }
    }

    /// The representation's type, if the difference is in one representation.
    public var type: UniformType? {
        get { details.type }
        set { details.type = newValue }
    }
}
