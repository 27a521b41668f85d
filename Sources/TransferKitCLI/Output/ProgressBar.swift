import TransferKit

/// A one-line progress bar on standard error, drawn only when standard error is a terminal and
/// the payload is large enough for progress to matter.
final class ProgressBar: Sendable {
    /// Payloads smaller than this finish too fast for a bar to help.
    static let threshold: UInt64 = 64 << 20

    private let task: Task<Void, Never>

    private init(task: Task<Void, Never>) {
        self.task = task
    }

    /// Starts drawing `progress` if the context and size call for it.
    static func start(for progress: TransferProgress, totalBytes: UInt64, context: CommandContext) -> ProgressBar? {
        guard context.standardErrorIsTerminal, totalBytes >= threshold else { return nil }
        let output = context.standardError
        let task = Task {
            for await snapshot in progress.updates {
                let width = 30
                let filled = Int(snapshot.fractionCompleted * Double(width))
                let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
                let percent = Int(snapshot.fractionCompleted * 100)
                try? output.write("\r[\(bar)] \(percent)%")
                if Task.isCancelled { break }
            }
        }
        return ProgressBar(task: task)
    }

    /// Stops drawing and clears the line.
    func stop() {
        task.cancel()
    }
}
