import Testing
import TransferKitCLI

/// A command for exercising the tool's dispatch, help and error reporting.
private struct EchoCommand: Command {
    struct Failure: Error, CustomStringConvertible {
        var description: String { "the input is unusable" }
    }

    var name: String { "echo" }
    var abstract: String { "Print the arguments." }
    var discussion: String { "EXAMPLES:\n  transferkit echo a b" }
    var signature: CommandSignature {
        CommandSignature(
            options: [
                .init(names: ["--fail"], help: "Throw an input error."),
                .init(names: ["--missing"], help: "Throw a command failure."),
            ],
            positionals: .init(name: "WORD", help: "Words to print."))
    }

    func run(_ arguments: ParsedArguments, in context: CommandContext) async throws -> ExitCode {
        if arguments.flag("--fail") { throw Failure() }
        if arguments.flag("--missing") { throw CommandFailure(code: .notFound, message: "there is no such word") }
        try context.standardOutput.writeLine(arguments.positionals.joined(separator: " "))
        return arguments.positionals.isEmpty ? .failure : .success
    }
}

/// The table `--help` and the README show.
let exitStatusTable = """
    EXIT STATUS (every command):
      0    success
      1    what was asked for is not there (an item, a type, something on the clipboard), or a check failed
      2    a usage error, or input that cannot be read or output that cannot be written
      141  standard output was closed before the end (as by 'head'): the tool stops quietly, as 'cat' does

    """

@Suite("Tool dispatch", .timeLimit(.minutes(5)))
struct ToolTests {
    let tool = TransferKitTool(commands: [EchoCommand()])

    @Test func runsTheCommand() async {
        let run = await runInProcess(tool, ["echo", "a", "b"])
        #expect(run.status == 0)
        #expect(run.output == "a b\n")
        #expect(run.error.isEmpty)
    }

    @Test func commandExitCodeIsPassedThrough() async {
        #expect(await runInProcess(tool, ["echo"]).status == 1)
    }

    @Test func topLevelHelpListsCommandsAndTheExitStatuses() async {
        for arguments in [["--help"], ["-h"], ["help"]] {
            let run = await runInProcess(tool, arguments)
            #expect(run.status == 0)
            #expect(run.output.contains("USAGE: transferkit <command> [options]"))
            #expect(run.output.contains("  echo  Print the arguments."))
            #expect(run.output.hasSuffix(exitStatusTable), "\(run.output)")
        }
    }

    @Test func noArgumentsIsAUsageErrorWithTheUsageOnStandardError() async {
        let run = await runInProcess(tool, [])
        #expect(run.status == 2)
        #expect(run.output.isEmpty)
        #expect(run.error.contains("USAGE: transferkit <command> [options]"))
    }

    @Test func aCommandFailureExitsOne() async {
        let run = await runInProcess(tool, ["echo", "--missing"])
        #expect(run.status == 1)
        #expect(run.error == "transferkit echo: there is no such word (notFound)\n")
    }

    @Test func commandHelpShowsOptionsAndDiscussion() async {
        let run = await runInProcess(tool, ["echo", "--help"])
        #expect(run.status == 0)
        #expect(run.output.contains("USAGE: transferkit echo [--fail] [--missing] [WORD...]"))
        #expect(run.output.contains("  --fail"))
        #expect(run.output.contains("-h, --help"))
        #expect(run.output.hasSuffix("EXAMPLES:\n  transferkit echo a b\n"))
        #expect(await runInProcess(tool, ["help", "echo"]).output == run.output)
    }

    @Test func unknownCommandIsAUsageErrorOnOneLine() async {
        let run = await runInProcess(tool, ["nope"])
        #expect(run.status == 2)
        #expect(run.output.isEmpty)
        #expect(run.error == "transferkit: unknown command 'nope' (usage: see 'transferkit --help')\n")
    }

    @Test func badOptionIsAUsageErrorWithTheCommandsHint() async {
        let run = await runInProcess(tool, ["echo", "--bogus"])
        #expect(run.status == 2)
        #expect(run.error == "transferkit echo: unknown option '--bogus' (usage: see 'transferkit echo --help')\n")
    }

    @Test func otherErrorsAreInputErrors() async {
        let run = await runInProcess(tool, ["echo", "--fail"])
        #expect(run.status == 2)
        #expect(run.error == "transferkit echo: the input is unusable (failed)\n")
    }
}
