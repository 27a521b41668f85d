import TransferKit

/// A one-line progress bar on standard error, drawn only when standard error is a terminal and
/// the payload is large enough for progress to matter.
///
/// It observes a `TransferProgress` through its coalesced `updates`, so a fast
/// transfer redraws only as often as the terminal keeps up, never once per chunk.
final class ProgressBar: Sendable {
    /// Payloads smaller than this finish too fast for a bar to help.
    static let threshold: UInt64 = 64 << 20

    private let task: Task<Void, Never>
    private let output: any OutputSink
    private let progress: TransferProgress

    private init(task: Task<Void, Never>, output: any OutputSink, progress: TransferProgress) {
        self.task = task
        self.output = output
        self.progress = progress
    }

    /// Starts drawing `progress` if the context and size call for it.
    /// - Returns: The bar, or `nil` when none is drawn.
    static func start(for progress: TransferProgress, totalBytes: UInt64, context: CommandContext) -> ProgressBar? {
        guard context.standardErrorIsTerminal, totalBytes >= threshold else { return nil }
        let output = context.standardError
        let task = Task {
            for await snapshot in progress.updates {
                let width = 30
                let fraction = min(1, max(0, snapshot.fractionCompleted))
                let filled = Int(fraction * Double(width))
                let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
                try? output.write("\r[\(bar)] \(Int(fraction * 100))% of \(ByteCount.format(totalBytes))")
            }
        }
        return ProgressBar(task: task, output: output, progress: progress)
    }

    /// Marks the transfer finished, waits for the bar to draw that state (the progress's
    /// `updates` end after a finished snapshot, so this cannot wait forever), then clears the line.
    func finish() async {
        progress.finish()
        await task.value
        try? output.write("\r\u{1B}[K")
    }

    /// Stops drawing at once, for a transfer that failed, and clears the line.
    func cancel() async {
        task.cancel()
        await task.value
        try? output.write("\r\u{1B}[K")
    }
}
