/// The status a command ends with.
///
/// The `transferkit` conventions, for every command: 0 success; 1 what was asked for is not there (an item, a
/// type, something on the clipboard: a ``CommandFailure``), a check failed, or the answer to a yes/no question
/// such as `types --conforms` is no; 2 a usage error or input that cannot be read; 141 standard output's reader
/// went away (nothing is printed, as `cat` ends under `SIGPIPE`).
public struct ExitCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The process exit status.
    public var rawValue: Int32

    /// Creates an exit code from a process exit status.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Everything worked.
    public static let success = ExitCode(rawValue: 0)
    /// A check failed, or the answer to a yes/no question is no.
    public static let failure = ExitCode(rawValue: 1)
    /// The command line or its input could not be used.
    public static let usageError = ExitCode(rawValue: 2)
    /// Standard output is a pipe whose reader has gone (128 + `SIGPIPE`, the status a shell shows for `cat`
    /// killed by it); the tool ends quietly.
    public static let brokenPipe = ExitCode(rawValue: 141)

    /// The numeric status.
    public var description: String { String(rawValue) }
}
