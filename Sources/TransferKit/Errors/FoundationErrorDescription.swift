import TransferKitPlatform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The text Foundation's `error.localizedDescription` gives on Linux, for messages that quote a file system error
/// (`FileManager`'s `CocoaError`s) in a module that imports `FoundationEssentials` only, which has no
/// `localizedDescription`: "The operation could not be completed. You don’t have permission." and so on.
///
/// Matches swift-corelibs-foundation: a `LocalizedError`'s own description, else the fixed sentence followed by the
/// failure reason (the error's own, the Cocoa code's message, the POSIX error's `strerror` text) or
/// "(DOMAIN error CODE.)".
package enum FoundationErrorDescription {
    /// `error.localizedDescription`, as Foundation words it.
    package static func of(_ error: any Error) -> String {
        let localized = error as? any LocalizedError
        if let description = localized?.errorDescription { return description }
        let prefix = "The operation could not be completed. "
        if let reason = localized?.failureReason { return prefix + reason }
        if let error = error as? CocoaError {
            let info = error.userInfo
            if let description = info["NSLocalizedDescription"] as? String { return description }
            let reason = info["NSLocalizedFailureReason"] as? String ?? cocoaMessages[error.code.rawValue]
            return prefix + (reason ?? "(NSCocoaErrorDomain error \(error.code.rawValue).)")
        }
        if let error = error as? POSIXError {
            return prefix + Syscall.errorText(errorNumber(error.code))
        }
        return prefix + "(\(error._domain) error \(error._code).)"
    }

    /// The `errno` value of a POSIX error code (the C enumeration's raw value; its members are the C library's).
    private static func errorNumber<Code: RawRepresentable>(_ code: Code) -> Int32 where Code.RawValue == Int32 {
        code.rawValue
    }

    /// Foundation's messages for the Cocoa error codes (`CocoaError.errorMessages` in swift-corelibs-foundation).
    private static let cocoaMessages: [Int: String] = [
        4: "The file doesn’t exist.",
        255: "The file couldn’t be locked.",
        257: "You don’t have permission.",
        258: "The file name is invalid.",
        259: "The file isn’t in the correct format.",
        260: "The file doesn’t exist.",
        261: "The specified text encoding isn’t applicable.",
        262: "The specified URL type isn’t supported.",
        263: "The item is too large.",
        264: "The text encoding of the contents couldn’t be determined.",
        513: "You don’t have permission.",
        514: "The file name is invalid.",
        516: "A file with the same name already exists.",
        517: "The specified text encoding isn’t applicable.",
        518: "The specified URL type isn’t supported.",
        640: "There isn’t enough space.",
        642: "The volume is read only.",
        1024: "The value is invalid.",
        2048: "The value is invalid.",
        3072: "The operation was cancelled.",
        3328: "The requested operation is not supported.",
        3840: "The data is not in the correct format.",
        3841: "The data is in a format that this application doesn’t understand.",
        3842: "An error occurred in the source of the data.",
        3851: "An error occurred in the destination for the data.",
        3852: "An error occurred in the content of the data.",
        4353: "The file is not available on iCloud yet.",
        4354: "There isn’t enough space in your account.",
        4355: "The iCloud servers might be unreachable or your settings might be incorrect.",
        4864: "The data isn’t in the correct format.",
        4865: "The data is missing.",
        4866: "The data isn’t in the correct format.",
    ]
}
