/// An error thrown while reading or writing CBOR.
///
/// Check ``code`` to tell errors apart; ``message`` is for people and may change.
///
/// ```swift
/// do {
///     _ = try CBORValue(decoding: [0x5b, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff])
/// } catch {
///     print(error.code, error.offset ?? -1)  // truncated 9
/// }
/// ```
public struct CBORError: Error, Sendable, CustomStringConvertible {
    /// An extensible error code; new codes do not break switch statements of users.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: String, Hashable, Sendable {
            case truncated
            case reservedAdditionalInfo
            case invalidIndefiniteLength
            case invalidSimpleValue
            case invalidChunk
            case unexpectedBreak
            case oddMapItemCount
            case invalidUTF8
            case nestingTooDeep
            case limitExceeded
            case duplicateMapKey
            case notDeterministic
            case unexpectedType
            case trailingBytes
            case readFailed
        }

        private let wrapped: Wrapped

        private init(_ wrapped: Wrapped) {
            self.wrapped = wrapped
        }

        /// The input ended inside a data item: in a head, a string payload, or before a
        /// container had all its items or its "break".
        public static var truncated: Self { Self(.truncated) }
        /// A head used additional information 28, 29 or 30, which RFC 8949 reserves.
        public static var reservedAdditionalInfo: Self { Self(.reservedAdditionalInfo) }
        /// Additional information 31 (indefinite length) on a major type that has no
        /// indefinite form (integers and tags).
        public static var invalidIndefiniteLength: Self { Self(.invalidIndefiniteLength) }
        /// A simple value that cannot be encoded as given: a two-byte simple value below 32 when
        /// reading, or a ``CBORValue/simple(_:)`` in 20...31 when writing.
        public static var invalidSimpleValue: Self { Self(.invalidSimpleValue) }
        /// A chunk of an indefinite-length string was not a definite-length string of the same
        /// major type.
        public static var invalidChunk: Self { Self(.invalidChunk) }
        /// A "break" stop code (0xff) appeared where no indefinite-length item was open.
        public static var unexpectedBreak: Self { Self(.unexpectedBreak) }
        /// An indefinite-length map ended after a key, without its value.
        public static var oddMapItemCount: Self { Self(.oddMapItemCount) }
        /// A text string was not valid UTF-8.
        public static var invalidUTF8: Self { Self(.invalidUTF8) }
        /// Arrays, maps and tags were nested deeper than ``CBORReader/Limits/maxNestingDepth``.
        public static var nestingTooDeep: Self { Self(.nestingTooDeep) }
        /// A collection or string was larger than ``CBORReader/Limits`` allow.
        public static var limitExceeded: Self { Self(.limitExceeded) }
        /// A map had the same key twice.
        public static var duplicateMapKey: Self { Self(.duplicateMapKey) }
        /// In deterministic mode: a non-preferred head or float, an indefinite length, or map
        /// keys out of order.
        public static var notDeterministic: Self { Self(.notDeterministic) }
        /// A well-formed item was not of the type the caller asked for.
        public static var unexpectedType: Self { Self(.unexpectedType) }
        /// Bytes followed the single data item that was expected.
        public static var trailingBytes: Self { Self(.trailingBytes) }
        /// The byte source threw; the error is in ``CBORError/cause``.
        public static var readFailed: Self { Self(.readFailed) }

        /// The code's name, such as `truncated`.
        public var description: String { wrapped.rawValue }
    }

    /// What kind of problem this is.
    public var code: Code
    /// What went wrong and what to do about it.
    public var message: String
    /// The underlying error, if any.
    public var cause: (any Error)?
    /// Where the problem was found (a file path and entry, …), if the caller knows.
    public var source: String?
    /// The byte offset in the input where the problem was found, if it comes from reading.
    public var offset: Int?

    /// Creates an error.
    /// - Parameters:
    ///   - code: What kind of problem this is.
    ///   - message: What went wrong and what to do about it.
    ///   - offset: The byte offset in the input, if any.
    ///   - cause: The underlying error, if any.
    ///   - source: Where the input came from, if known.
    public init(
        _ code: Code, _ message: String, offset: Int? = nil, cause: (any Error)? = nil, source: String? = nil
    ) {
        self.code = code
        self.message = message
        self.offset = offset
        self.cause = cause
        self.source = source
    }

    /// The code, the message, and where the problem was found.
    public var description: String {
        var text = "CBORError.\(code): \(message)"
        if let offset {
            text += " (at byte offset \(offset))"
        }
        if let source {
            text += " in \(source)"
        }
        if let cause {
            text += " (cause: \(cause))"
        }
        return text
    }
}
