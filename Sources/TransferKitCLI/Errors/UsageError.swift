/// A command line that does not fit the command's signature, or input the command cannot use.
///
/// The tool prints it as one line and exits with ``ExitCode/usageError``, followed by a hint
/// that names the command's `--help`.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong, in one line.
    public var message: String

    /// Creates a usage error with a one-line message.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
