import TransferKit
import TransferKitPlatform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A command-line tool made of ``Command``s: the `transferkit` executable is one, and an
/// adopter can build another with their own model types registered.
///
/// ```swift
/// import TransferKitCLI
///
/// let tool = TransferKitTool(name: "cards", commands: TransferKitTool.standardCommands())
/// await tool.main()
/// ```
///
/// The tool handles `--help` for itself and every command and reports every error a command throws as one line,
/// `tool CMD: <what> (<code>)`: a ``UsageError`` with the command's `--help` as a hint and exit code 2 (a mistyped
/// command or option names the nearest known one: `unknown command 'pste'; did you mean 'paste'?`), a
/// ``CommandFailure`` (what was asked for is not there) with exit code 1, a write to a closed output pipe with
/// nothing and exit code 141, and any other error as unreadable input with exit code 2 (see ``ExitCode``).
public struct TransferKitTool: Sendable {
    /// The program name used in usage lines and messages.
    public var name: String
    /// One line that says what the tool does.
    public var abstract: String
    /// The subcommands, in the order `--help` lists them.
    public var commands: [any Command]
    /// What `--version` prints after the tool's name.
    public var version: String

    /// TransferKit's version and the archive format version it reads and writes, as the stock tool's
    /// `--version` prints them.
    public static let transferKitVersion =
        "0.3.0 (archive format \(TransferArchive.currentVersion.major).\(TransferArchive.currentVersion.minor))"

    /// Creates a tool.
    /// - Parameters:
    ///   - name: The program name used in messages.
    ///   - abstract: One line for the top-level help.
    ///   - commands: The subcommands.
    ///   - version: What `--version` prints after the name.
    public init(
        name: String = "transferkit",
        abstract: String = "Inspect, build and check TransferKit archives and uniform types.",
        commands: [any Command],
        version: String = transferKitVersion
    ) {
        self.name = name
        self.abstract = abstract
        self.commands = commands
        self.version = version
    }

    /// Runs the tool on `arguments` (without the program name) and returns the exit code.
    ///
    /// Never throws and never exits the process, so tests can call it in-process. It runs on the caller's actor
    /// until a command runs, so `--version` and `--help` answer without a hop to another thread.
    public nonisolated(nonsending) func run(_ arguments: [String], in context: CommandContext) async -> ExitCode {
        var context = context
        context.toolName = name
        if arguments == ["--version"] {
            return report("\(name) \(version)\n", to: context.standardOutput)
        }
        guard let first = arguments.first else {
            // No command: the usage goes to standard error, as for any other usage error.
            try? context.standardError.write(HelpText.render(self))
            return .usageError
        }
        guard first != "--help", first != "-h", first != "help" else {
            if arguments.count > 1, arguments[0] == "help", let command = command(named: arguments[1]) {
                return report(HelpText.render(command, toolName: name), to: context.standardOutput)
            }
            return report(HelpText.render(self), to: context.standardOutput)
        }
        guard let command = command(named: first) else {
            let known = commands.map(\.name) + ["help"]
            let message = "unknown command '\(first)'" + Suggestion.hint(for: first, in: known)
            return usageError(UsageError(message), in: name, context: context)
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains(where: { $0 == "--help" || $0 == "-h" }) {
            return report(HelpText.render(command, toolName: name), to: context.standardOutput)
        }
        do {
            let parsed = try ParsedArguments(parsing: rest, signature: command.signature)
            return try await command.run(parsed, in: context)
        } catch {
            return ErrorLine.report(error, invocation: "\(name) \(command.name)", context: context)
        }
    }

    /// Runs the tool on the process's command line and exits with the command's exit code.
    ///
    /// Ignores `SIGPIPE`, so that a closed pipe to another program (a clipboard client that stops reading) costs
    /// one write rather than the process; a closed standard output ends the tool quietly with status 141, as
    /// `cat` ends. Removes half-written output files on every catchable terminating signal (set up by the first file
    /// a command writes). Runs on the caller's actor until a command runs: called from a program's top-level code,
    /// `--version` and help start no thread.
    public nonisolated(nonsending) func main() async -> Never {
        let code = await runAsProcess()
        Syscall.exitProcess(code.rawValue)
    }

    /// What ``main()`` does before exiting: sets up the process, runs on its command line with the
    /// process's standard output and error, and returns the exit code.
    package nonisolated(nonsending) func runAsProcess() async -> ExitCode {
        Syscall.ignoreBrokenPipes()
        Syscall.ignoreFileSizeLimitSignal()
        AtomicFile.installInterruptCleanup()
        let context = CommandContext(
            standardOutput: FileDescriptorOutput.standardOutput,
            standardError: FileDescriptorOutput.standardError,
            standardErrorIsTerminal: FileDescriptorOutput.standardError.isTerminal,
            standardOutputIsTerminal: FileDescriptorOutput.standardOutput.isTerminal,
            toolName: name,
            executablePath: ExecutablePath.current()
        )
        return await run(Array(CommandLine.arguments.dropFirst()), in: context)
    }

    /// The command called `name`, if the tool has one.
    public func command(named name: String) -> (any Command)? {
        commands.first { $0.name == name }
    }

    private func report(_ text: String, to output: any OutputSink) -> ExitCode {
        (try? output.write(text)) == nil ? .failure : .success
    }

    /// Prints `error` as one line, with the `--help` of `invocation` as the hint.
    private func usageError(_ error: UsageError, in invocation: String, context: CommandContext) -> ExitCode {
        ErrorLine.report(error, invocation: invocation, context: context)
    }
}
