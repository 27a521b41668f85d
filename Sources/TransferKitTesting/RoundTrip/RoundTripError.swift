public import TransferKit
@_exported public import TransferKitErrors
public import UniformTypes

/// The first difference a round trip found, or the step that failed before anything could be compared.
///
/// `message` says it all in one paragraph: the archive form, the representation's type, the byte offset of the
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
    /// Where in a round trip a difference was found.
    public struct Details: ErrorDetails, Hashable {
        /// The archive form in which the difference appeared, if it was in one.
        public var format: TransferArchiveFormat?
        /// The representation's type, if the difference is in one representation.
        public var type: UniformType?

        /// Nothing known.
        public init() {}

        /// Creates details.
        public init(format: TransferArchiveFormat? = nil, type: UniformType? = nil) {
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

    /// A representation came back with other bytes; `DomainError.offset` is the first that differs.
    public static var bytesDiffer: Self { Self("bytesDiffer") }

    /// `loadObject(ofClass:)` could not decode what came back.
    public static var decodingFailed: Self { Self("decodingFailed") }

    /// The value read back is not equal (`==`) to the original.
    public static var valueDiffers: Self { Self("valueDiffers") }

    /// The child process could not be started, or exited with a non-zero status.
    public static var childProcessFailed: Self { Self("childProcessFailed") }
}
