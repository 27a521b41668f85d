public import Foundation

/// Runs another program the way an app would, with Foundation's `Process`: the examples' child processes (the
/// "another app" of their scenarios) are started through this one piece, which uses nothing but Foundation.
public enum ExampleProcess {
    /// What a child printed and how it ended.
    public struct Result: Sendable {
        /// The exit status, or the signal's number when a signal ended it.
        public var status: Int32
        /// Everything the child wrote to its standard output.
        public var standardOutput: Data
        /// Everything the child wrote to its standard error.
        public var standardError: Data

        /// The standard output as UTF-8 text (invalid bytes replaced).
        public var outputText: String { String(decoding: standardOutput, as: UTF8.self) }
        /// The standard error as UTF-8 text (invalid bytes replaced).
        public var errorText: String { String(decoding: standardError, as: UTF8.self) }
    }

    /// Runs `executable` with `arguments`, gives it `input` on its standard input, and waits for it to exit.
    ///
    /// The child's standard input and output are files in a private temporary directory, not pipes, so neither side
    /// can block the other however much either writes; the directory is removed before this returns.
    /// - Throws: Foundation's error when the directory cannot be made or the program cannot be started.
    public static func run(_ executable: String, arguments: [String], input: Data = Data()) async throws -> Result {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("transferkit-example-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = ["input", "output", "error"].map { directory.appendingPathComponent($0) }
        try input.write(to: files[0])
        for file in files.dropFirst() { try Data().write(to: file) }
        let standardInput = try FileHandle(forReadingFrom: files[0])
        let standardOutput = try FileHandle(forWritingTo: files[1])
        let standardError = try FileHandle(forWritingTo: files[2])
        defer { for handle in [standardInput, standardOutput, standardError] { try? handle.close() } }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = standardInput
        process.standardOutput = standardOutput
        process.standardError = standardError
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { process in continuation.resume(returning: process.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        return Result(
            status: status, standardOutput: try Data(contentsOf: files[1]),
            standardError: try Data(contentsOf: files[2]))
    }
}
