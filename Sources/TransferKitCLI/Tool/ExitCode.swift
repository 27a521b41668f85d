/// The status a command ends with.
///
/// The `transferkit` conventions: 0 success, 1 a check failed (or the answer to a yes/no
/// question such as `types --conforms` is no), 2 a usage or input error.
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

    /// The numeric status.
    public var description: String { String(rawValue) }
}
