#if !canImport(Darwin)
    import Foundation

    /// The error domain of item-provider errors, as on Apple platforms.
    public let NSItemProviderErrorDomain: String = "NSItemProviderErrorDomain"

    extension NSItemProvider {
        /// ``NSItemProviderErrorDomain``.
        public static let errorDomain: String = NSItemProviderErrorDomain

        /// Apple's item-provider error codes.
        public enum ErrorCode: Int, Sendable {
            /// An unknown problem.
            case unknownError = -1
            /// No registered representation conforms to the requested type.
            case itemUnavailableError = -1000
            /// The data could not be turned into an instance of the requested class (its reader threw, or the
            /// object is of another class).
            case unexpectedValueClassError = -1100
            /// The representation could not be coerced as asked: no representation for the requested class, or
            /// the data could not be written to or read from a file.
            case unavailableCoercionError = -1200
        }

        /// The `NSError` an Apple caller expects for an error of a native load.
        ///
        /// `TransferError` codes map to ``NSItemProviderErrorDomain``: `unavailableRepresentation` to
        /// −1000 (−1200 for an object load), `decodingFailed` to −1100, `fileCoercionFailed` to −1200, others to −1;
        /// the native error is the `NSUnderlyingErrorKey`, and its message the localized description. A load
        /// handler's own error is passed through unchanged, and a cancelled load is `NSUserCancelledError` in
        /// `NSCocoaErrorDomain`, as on Apple platforms.
        ///
        /// - Parameters:
        ///   - error: The native error.
        ///   - loadingObject: Whether the load was `loadObject(ofClass:)`.
        /// - Returns: The error to pass to the completion handler.
        public static func appleError(for error: any Error, loadingObject: Bool = false) -> any Error {
            guard let error = error as? TransferError else { return error }
            let code: ErrorCode
            switch error.code {
            case .cancelled:
                return NSError(
                    domain: NSCocoaErrorDomain, code: CocoaError.userCancelled.rawValue,
                    userInfo: [NSLocalizedDescriptionKey: error.message, NSUnderlyingErrorKey: error])
            case .loaderFailed, .encodingFailed:
                if let cause = error.cause, !(cause is TransferError) {
                    return cause
                }
                code = .unknownError
            case .unavailableRepresentation:
                code = loadingObject ? .unavailableCoercionError : .itemUnavailableError
            case .decodingFailed:
                code = .unexpectedValueClassError
            case .fileCoercionFailed:
                code = .unavailableCoercionError
            default:
                code = .unknownError
            }
            return NSError(
                domain: NSItemProviderErrorDomain, code: code.rawValue,
                userInfo: [NSLocalizedDescriptionKey: error.message, NSUnderlyingErrorKey: error])
        }
    }
#endif
