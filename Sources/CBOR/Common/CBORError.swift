@_exported public import TransferKitErrors

/// An error thrown while reading or writing CBOR.
///
/// Check `code` to tell errors apart; `message` is for people and may change.
///
/// ```swift
/// do {
///     _ = try CBORValue(decoding: [0x5b, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff])
/// } catch {
///     print(error.code, error.offset ?? -1)  // truncated 9
/// }
/// ```
public typealias CBORError = DomainError<CBORErrorDomain>

/// The domain of ``CBORError``.
public enum CBORErrorDomain: ErrorDomain {}

extension ErrorCode where Domain == CBORErrorDomain {
    /// The input ended inside a data item: in a head, a string payload, or before a
    /// container had all its items or its "break".
    public static var truncated: Self { Self("truncated") }

    /// A head used additional information 28, 29 or 30, which RFC 8949 reserves.
    public static var reservedAdditionalInfo: Self { Self("reservedAdditionalInfo") }

    /// Additional information 31 (indefinite length) on a major type that has no
    /// indefinite form (integers and tags).
    public static var invalidIndefiniteLength: Self { Self("invalidIndefiniteLength") }

    /// A simple value that cannot be encoded as given: a two-byte simple value below 32 when
    /// reading, or a ``CBORValue/simple(_:)`` in 20...31 when writing.
    public static var invalidSimpleValue: Self { Self("invalidSimpleValue") }

    /// A chunk of an indefinite-length string was not a definite-length string of the same
    /// major type.
    public static var invalidChunk: Self { Self("invalidChunk") }

    /// A "break" stop code (0xff) appeared where no indefinite-length item was open.
    public static var unexpectedBreak: Self { Self("unexpectedBreak") }

    /// An indefinite-length map ended after a key, without its value.
    public static var oddMapItemCount: Self { Self("oddMapItemCount") }

    /// A text string was not valid UTF-8.
    public static var invalidUTF8: Self { Self("invalidUTF8") }

    /// Arrays, maps and tags were nested deeper than ``CBORReader/Limits/maxNestingDepth``.
    public static var nestingTooDeep: Self { Self("nestingTooDeep") }

    /// A collection or string was larger than ``CBORReader/Limits`` allow.
    public static var limitExceeded: Self { Self("limitExceeded") }

    /// A map had the same key twice.
    public static var duplicateMapKey: Self { Self("duplicateMapKey") }

    /// In deterministic mode: a non-preferred head or float, an indefinite length, or map
    /// keys out of order.
    public static var notDeterministic: Self { Self("notDeterministic") }

    /// A well-formed item was not of the type the caller asked for.
    public static var unexpectedType: Self { Self("unexpectedType") }

    /// Bytes followed the single data item that was expected.
    public static var trailingBytes: Self { Self("trailingBytes") }

    /// The byte source threw; the error is in `CBORError.cause`.
    public static var readFailed: Self { Self("readFailed") }
}
