@_exported public import TransferKitErrors
package import TransferKitPlatform

/// A file or stream the tool could not open, read or write: an input error, not a usage error, so the tool
/// prints its message without a `--help` hint and exits with ``ExitCode/usageError`` (2, "usage or input
/// error"). The failed system call is the `DomainError.cause`; the path or stream is the `DomainError.source`.
///
/// ```swift
/// catch let error as ToolIOError where error.code == .writeFailed { … }
/// ```
public typealias ToolIOError = DomainError<ToolIOErrorDomain>

/// The domain of ``ToolIOError``.
public enum ToolIOErrorDomain: ErrorDomain {}

extension ErrorCode where Domain == ToolIOErrorDomain {
    /// An input could not be opened: it does not exist, is a directory, or permission is denied.
    public static var openFailed: Self { Self("openFailed") }

    /// Reading an input failed, or it is larger than the command can hold in memory.
    public static var readFailed: Self { Self("readFailed") }

    /// Writing an output failed: a full disk, a closed pipe (`EPIPE`), or an output file that cannot be created
    /// or renamed into place.
    public static var writeFailed: Self { Self("writeFailed") }
}

extension DomainError where Domain == ToolIOErrorDomain {
    /// A failed system call on `source`, described as `what` (`cannot open x`) with the system's reason.
    package static func system(_ code: Code, _ what: String, source: String?, cause: SystemError) -> Self {
        Self(code: code, message: "\(what): \(cause.reason)", cause: cause, source: source)
    }
}
