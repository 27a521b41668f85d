/// One subcommand of the `transferkit` tool.
///
/// A command declares its ``signature``; the tool parses the command line against it, answers
/// `--help` from it, and calls ``run(_:in:)`` with the parsed arguments. Adopters can add
/// commands of their own to a ``TransferKitTool``.
public protocol Command: Sendable {
    /// The word that selects the command, such as `"types"`.
    var name: String { get }
    /// One line that says what the command does.
    var abstract: String { get }
    /// Further help shown after the options, such as examples; may be empty.
    var discussion: String { get }
    /// The options and positional arguments the command accepts.
    var signature: CommandSignature { get }

    /// Runs the command.
    /// - Parameters:
    ///   - arguments: The parsed command line.
    ///   - context: Output sinks and the tool's configuration.
    /// - Returns: The exit code.
    /// - Throws: ``UsageError`` for a bad command line or unusable input; any other error is
    ///   reported as an input error too (exit code 2).
    func run(_ arguments: ParsedArguments, in context: CommandContext) async throws -> ExitCode
}

extension Command {
    /// No further help by default.
    public var discussion: String { "" }
}
