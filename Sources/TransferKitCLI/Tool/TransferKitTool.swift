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
        await run(arguments, in: context, exitingWhenDone: false)
    }

    /// ``run(_:in:)``, or, with `exitingWhenDone`, the same with the process ending where the command ends.
    private nonisolated(nonsending) func run(
        _ arguments: [String], in context: CommandContext, exitingWhenDone: Bool
    ) async -> ExitCode {
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
        let invocation = "\(name) \(command.name)"
        let parsed: ParsedArguments
        do {
            parsed = try ParsedArguments(parsing: rest, signature: command.signature)
        } catch {
            return ErrorLine.report(error, invocation: invocation, context: context)
        }
        return await Self.run(
            command, parsed, in: context, invocation: invocation, exitingWhenDone: exitingWhenDone)
    }

    /// Runs `command` on the concurrency pool and reports what it throws. With `exitingWhenDone` the process exits
    /// there, with the command's code: the caller (the main actor, in a program's top-level code) is never resumed,
    /// for on Linux that hop back starts a thread of its own just before the exit (Dispatch runs the main queue on
    /// a new thread once the main thread waits in `dispatch_main`).
    @concurrent
    private static func run(
        _ command: any Command, _ parsed: ParsedArguments, in context: CommandContext, invocation: String,
        exitingWhenDone: Bool
    ) async -> ExitCode {
        let code: ExitCode
        do {
            code = try await command.run(parsed, in: context)
        } catch {
            code = ErrorLine.report(error, invocation: invocation, context: context)
        }
        if exitingWhenDone { Syscall.exitProcess(code.rawValue) }
        return code
    }

    /// Runs the tool on the process's command line and exits with the command's exit code.
    ///
    /// Ignores `SIGPIPE`, so that a closed pipe to another program (a clipboard client that stops reading) costs
    /// one write rather than the process; a closed standard output ends the tool quietly with status 141, as
    /// `cat` ends. Removes half-written output files on every catchable terminating signal (set up by the first file
    /// a command writes). Runs on the caller's actor until a command runs: called from a program's top-level code,
    /// `--version` and help start no thread.
    public nonisolated(nonsending) func main() async -> Never {
        let code = await runAsProcess(exitsWhenDone: true)
        Syscall.exitProcess(code.rawValue)
    }

    /// What ``main()`` does before exiting: sets up the process, runs on its command line with the
    /// process's standard output and error, and returns the exit code (or, with `exitsWhenDone`, exits with it where
    /// a command ends, without returning to the caller's actor).
    package nonisolated(nonsending) func runAsProcess(exitsWhenDone: Bool = false) async -> ExitCode {
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
        return await run(Array(CommandLine.arguments.dropFirst()), in: context, exitingWhenDone: exitsWhenDone)
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
