/// What a running command may use: where to write, and the tool's configuration.
public struct CommandContext: Sendable {
    /// Where results go.
    public var standardOutput: any OutputSink
    /// Where diagnostics and progress go.
    public var standardError: any OutputSink
    /// Whether standard error is a terminal (progress bars are drawn only then).
    public var standardErrorIsTerminal: Bool
    /// Whether standard output is a terminal: commands that write binary data refuse to write it there unless
    /// asked explicitly (`-o -`).
    public var standardOutputIsTerminal: Bool
    /// The name the tool was invoked as, for messages (`transferkit`).
    public var toolName: String
    /// The path of the running executable, for commands that start a child copy of the tool.
    public var executablePath: String?

    /// Creates a context.
    public init(
        standardOutput: any OutputSink,
        standardError: any OutputSink,
        standardErrorIsTerminal: Bool = false,
        standardOutputIsTerminal: Bool = false,
        toolName: String = "transferkit",
        executablePath: String? = nil
    ) {
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.standardErrorIsTerminal = standardErrorIsTerminal
        self.standardOutputIsTerminal = standardOutputIsTerminal
        self.toolName = toolName
        self.executablePath = executablePath
    }
}
