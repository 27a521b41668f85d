import UniformTypes

/// An error from loading, encoding, decoding or registering a transferable item.
///
/// Compare errors by ``code``; read ``message`` for what went wrong and what to do, and ``cause`` for the
/// underlying error (a `DecodingError` for ``Code/decodingFailed``, the loader's error for ``Code/loaderFailed``).
///
/// ```swift
/// do {
///     let card = try await provider.loadObject(ofClass: Card.self)
/// } catch let error as TransferError where error.code == .unavailableRepresentation {
///     print(error.message)
/// }
/// ```
public struct TransferError: Error, Sendable, CustomStringConvertible {
    /// An extensible error code; new codes do not break switch statements of users.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: Hashable, Sendable {
            case unavailableRepresentation
            case noReader
            case decodingFailed
            case encodingFailed
            case cancelled
            case loaderFailed
            case fileCoercionFailed
            case registryConflict
        }

        private let wrapped: Wrapped

        /// The provider has no representation that conforms to the requested type.
        public static var unavailableRepresentation: Self { Self(wrapped: .unavailableRepresentation) }
        /// No reader is registered for the type of the data.
        public static var noReader: Self { Self(wrapped: .noReader) }
        /// The data could not be decoded into the requested type; the cause is usually a `DecodingError`.
        public static var decodingFailed: Self { Self(wrapped: .decodingFailed) }
        /// A value could not be encoded; the cause is usually an `EncodingError`.
        public static var encodingFailed: Self { Self(wrapped: .encodingFailed) }
        /// The load was cancelled through its progress or its task.
        public static var cancelled: Self { Self(wrapped: .cancelled) }
        /// A registered load handler threw; the cause is what it threw.
        public static var loaderFailed: Self { Self(wrapped: .loaderFailed) }
        /// Data could not be written to, or read from, a file while converting between data and file.
        public static var fileCoercionFailed: Self { Self(wrapped: .fileCoercionFailed) }
        /// Two readers claimed the same type with the same priority in a registry.
        public static var registryConflict: Self { Self(wrapped: .registryConflict) }

        /// The code's name, such as `decodingFailed`.
        public var description: String {
            switch wrapped {
            case .unavailableRepresentation: "unavailableRepresentation"
            case .noReader: "noReader"
            case .decodingFailed: "decodingFailed"
            case .encodingFailed: "encodingFailed"
            case .cancelled: "cancelled"
            case .loaderFailed: "loaderFailed"
            case .fileCoercionFailed: "fileCoercionFailed"
            case .registryConflict: "registryConflict"
            }
        }
    }

    /// What kind of error this is.
    public var code: Code
    /// What went wrong and what to do about it.
    public var message: String
    /// The underlying error, if any.
    public var cause: (any Error)?
    /// Where the problem was found (a type identifier, a file path, …), if known.
    public var source: String?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The kind of error.
    ///   - message: What went wrong and what to do about it.
    ///   - cause: The underlying error, if any.
    ///   - source: Where the problem was found, if known.
    public init(code: Code, message: String, cause: (any Error)? = nil, source: String? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
        self.source = source
    }

    /// The code, the message, the source and the cause on one line.
    public var description: String {
        var text = "TransferError.\(code): \(message)"
        if let source {
            text += " (source: \(source))"
        }
        if let cause {
            text += " (cause: \(cause))"
        }
        return text
    }
}

extension TransferError {
    /// Wraps `error` as the given code unless it already is a ``TransferError`` or a cancellation.
    static func wrapping(
        _ error: any Error, as code: Code, message: @autoclosure () -> String, source: String? = nil
    ) -> TransferError {
        if let error = error as? TransferError {
            return error
        }
        if error is CancellationError {
            return .cancelled(source: source, cause: error)
        }
        return TransferError(code: code, message: message(), cause: error, source: source)
    }

    /// A decoding failure of `reader` on `byteCount` bytes of `type`, naming the coding path of a `DecodingError`.
    static func decodingFailed(
        _ error: any Error, reader: Any.Type, type: UniformType, byteCount: Int
    ) -> TransferError {
        wrapping(
            error, as: .decodingFailed,
            message: "\(reader) could not read \(byteCount) bytes of \(type): \(describe(error)). "
                + "Check that the sender wrote this type and version.",
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
