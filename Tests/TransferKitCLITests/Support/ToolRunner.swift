import Foundation
import TransferKit
import TransferKitCLI

/// What one run of the tool printed and returned.
struct ToolRun {
    var status: Int32
    var output: String
    var error: String
    var outputBytes: [UInt8]
}

/// The folder holding the built products (the test bundle sits beside the executables).
let productsDirectory: URL = {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
}()

/// The path of the built `transferkit` executable.
var transferkitPath: String {
    productsDirectory.appendingPathComponent("transferkit").path
}

/// Runs the built `transferkit` binary as a child process.
func runBinary(_ arguments: [String], input: [UInt8] = []) async throws -> ToolRun {
    let result = try await ChildProcess.run(transferkitPath, arguments: arguments, input: input)
    return ToolRun(
        status: result.status, output: result.outputText, error: result.errorText,
        outputBytes: result.standardOutput)
}

/// Runs a tool in-process with memory sinks; `terminal` makes standard error count as a terminal.
func runInProcess(_ tool: TransferKitTool, _ arguments: [String], terminal: Bool = false) async -> ToolRun {
    let output = MemoryOutput()
    let error = MemoryOutput()
    let context = CommandContext(
        standardOutput: output, standardError: error, standardErrorIsTerminal: terminal,
        executablePath: transferkitPath)
    let code = await tool.run(arguments, in: context)
    return ToolRun(status: code.rawValue, output: output.text, error: error.text, outputBytes: output.bytes)
}

/// A fresh empty directory under the system's temporary folder.
func makeTemporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("transferkit-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
