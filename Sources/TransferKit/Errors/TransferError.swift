@_exported public import TransferKitErrors
import UniformTypes

/// An error from loading, encoding, decoding or registering a transferable item.
///
/// Compare errors by `code`; read `message` for what went wrong and what to do, and `cause` for the
/// underlying error (a `DecodingError` for `decodingFailed`, the loader's error for `loaderFailed`).
///
/// ```swift
/// do {
///     let card = try await provider.loadObject(ofClass: Card.self)
/// } catch let error as TransferError where error.code == .unavailableRepresentation {
///     print(error.message)
/// }
/// ```
public typealias TransferError = DomainError<TransferErrorDomain>

/// The domain of ``TransferError``.
public enum TransferErrorDomain: ErrorDomain {}

extension ErrorCode where Domain == TransferErrorDomain {
    /// The provider has no representation that conforms to the requested type.
    public static var unavailableRepresentation: Self { Self("unavailableRepresentation") }

    /// No reader is registered for the type of the data.
    public static var noReader: Self { Self("noReader") }

    /// The data could not be decoded into the requested type; the cause is usually a `DecodingError`.
    public static var decodingFailed: Self { Self("decodingFailed") }

    /// A value could not be encoded; the cause is usually an `EncodingError`.
    public static var encodingFailed: Self { Self("encodingFailed") }

    /// A registered load handler threw; the cause is what it threw.
    public static var loaderFailed: Self { Self("loaderFailed") }

    /// Data could not be written to, or read from, a file while converting between data and file.
    public static var fileCoercionFailed: Self { Self("fileCoercionFailed") }

    /// Two readers claimed the same type with the same priority in a registry.
    public static var registryConflict: Self { Self("registryConflict") }

    /// A ``TransferByteStream`` yielded more or fewer bytes than the length it declared.
    public static var lengthMismatch: Self { Self("lengthMismatch") }

    /// A ``TransferConverter`` could not convert a representation (its input was not valid for the conversion, such
    /// as text that is not UTF-8 for a converter that reads UTF-8); the cause is what the conversion threw.
    public static var conversionFailed: Self { Self("conversionFailed") }
}

extension TransferError {
    /// Wraps `error` as the given code unless it already is a ``TransferError`` or a cancellation (a
    /// `CancellationError`, or another domain's error with the shared `cancelled` code, such as a clipboard transfer
    /// that stopped because its reader was cancelled).
    static func wrapping(
        _ error: any Error, as code: Code, message: @autoclosure () -> String, source: String? = nil
    ) -> TransferError {
        if let error = error as? TransferError {
            return error
        }
        if isCancellation(error) {
            return .cancelled(source: source, cause: error)
        }
        return TransferError(code: code, message: message(), cause: error, source: source)
    }

    /// A reader's decoding failure on `byteCount` bytes of `type`, naming the coding path of a `DecodingError`.
    ///
    /// The message names the type and the bytes, not the reader: a Swift type name means nothing to a person reading
    /// a tool's error line, and an adapter's (`ItemProviderObject<Model>`) is not even the adopter's own. A reason
    /// that ends with a period (Foundation's "The given data was not valid JSON.") does not get a second one.
    static func decodingFailed(
        _ error: any Error, type: UniformType, byteCount: Int
    ) -> TransferError {
        var reason = describe(error)
        while reason.hasSuffix(".") { reason.removeLast() }
        return wrapping(
            error, as: .decodingFailed,
            message: "Cannot read \(byteCount) bytes of \(type): \(reason). Check that the sender wrote this type and "
                + "version.",
            source: type.identifier)
    }

    static func cancelled(source: String?, cause: (any Error)? = nil) -> TransferError {
        TransferError(
            code: .cancelled,
            message: "The load was cancelled through its progress or its task; start a new load if still needed.",
            cause: cause, source: source)
    }

    /// A message describing a `DecodingError` with its coding path.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else {
            return String(describing: error)
        }
        let context: DecodingError.Context
        let what: String
        switch error {
        case .typeMismatch(let type, let errorContext):
            (context, what) = (errorContext, "type mismatch for \(type)")
        case .valueNotFound(let type, let errorContext):
            (context, what) = (errorContext, "missing value of \(type)")
        case .keyNotFound(let key, let errorContext):
            (context, what) = (errorContext, "missing key '\(key.stringValue)'")
        case .dataCorrupted(let errorContext):
            (context, what) = (errorContext, "corrupted data")
        @unknown default:
            return String(describing: error)
        }
        let path = context.codingPath.map { key in key.intValue.map { "[\($0)]" } ?? key.stringValue }
        let joined = path.isEmpty ? "<root>" : path.joined(separator: ".")
        return "\(what) at \(joined): \(context.debugDescription)"
    }
}
