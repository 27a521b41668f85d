@_exported public import TransferKitErrors

/// What the command was asked for is not there: an item, a representation, a declared type, something on the
/// clipboard. The tool prints its message as `tool CMD: <what> (<code>)` and exits with ``ExitCode/failure``
/// (1), the status of a check that failed: the command line and the input were fine, the answer is no.
///
/// ```swift
/// throw CommandFailure(code: .notFound, message: "the archive has no item 3 (it has 2)")
/// ```
public typealias CommandFailure = DomainError<CommandFailureDomain>

/// The domain of ``CommandFailure``.
public enum CommandFailureDomain: ErrorDomain {}

extension ErrorCode where Domain == CommandFailureDomain {
    /// An item or a representation at the index asked for does not exist.
    public static var notFound: Self { Self("notFound") }

    /// Nothing of the type asked for is there (no representation conforms to it, or none has it exactly).
    public static var typeNotOffered: Self { Self("typeNotOffered") }

    /// The identifier, filename extension or MIME type names no declared type (only a dynamic one).
    public static var notDeclared: Self { Self("notDeclared") }

    /// The selection or the archive holds nothing.
    public static var empty: Self { Self("empty") }

    /// Something is offered, but under names that no uniform type stands for, so nothing can be read.
    public static var nothingReadable: Self { Self("nothingReadable") }

    /// No declared type can be exported to the desktop's MIME database (`types --export-mime`): none is declared, or
    /// none has a valid MIME type of its own.
    public static var nothingToExport: Self { Self("nothingToExport") }

    /// A program the command runs (such as `update-mime-database`) is not on the `PATH`.
    public static var programMissing: Self { Self("programMissing") }

    /// A program the command runs (such as `update-mime-database`) failed: it exited with a status other than 0.
    public static var programFailed: Self { Self("programFailed") }
}
