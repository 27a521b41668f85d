import Foundation
import TransferKit
import TransferKitCLI
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting

/// What one run of the tool printed and returned.
struct ToolRun {
    var status: Int32
    var output: String
    var error: String
    var outputBytes: [UInt8]
}

/// The path of the built `transferkit` executable.
var transferkitPath: String {
    TransferKitExecutable.product(named: "transferkit")
}

/// Runs the built `transferkit` binary as a child process.
func runBinary(_ arguments: [String], input: [UInt8] = []) async throws -> ToolRun {
    let result = try await ChildProcess.run(transferkitPath, arguments: arguments, input: input)
    return ToolRun(
        status: result.status, output: result.outputText, error: result.errorText,
        outputBytes: result.standardOutput)
}

/// Runs a tool in-process with memory sinks; `terminal` makes standard error count as a terminal,
/// `outputTerminal` standard output.
func runInProcess(
    _ tool: TransferKitTool, _ arguments: [String], terminal: Bool = false, outputTerminal: Bool = false
) async -> ToolRun {
    let output = MemoryOutput()
    let error = MemoryOutput()
    let context = CommandContext(
        standardOutput: output, standardError: error, standardErrorIsTerminal: terminal,
        standardOutputIsTerminal: outputTerminal,
        executablePath: transferkitPath)
    let code = await tool.run(arguments, in: context)
    return ToolRun(status: code.rawValue, output: output.text, error: error.text, outputBytes: output.bytes)
}
