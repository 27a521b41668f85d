package import TransferKit

/// A one-line progress bar on standard error, drawn only when standard error is a terminal and
/// the payload is large enough for progress to matter; for a payload of unknown length, a running count of the
/// bytes received instead.
///
/// It observes a `TransferProgress` through its coalesced `updates`, so a fast
/// transfer redraws only as often as the terminal keeps up, never once per chunk.
package final class ProgressBar: Sendable {
    /// Payloads smaller than this finish too fast for a bar to help.
    static let threshold: UInt64 = 64 << 20

    /// Draws the line; its value is whether it drew anything (a count that never reached its threshold did not).
    private let task: Task<Bool, Never>
    private let output: any OutputSink
    private let progress: TransferProgress

    private init(task: Task<Bool, Never>, output: any OutputSink, progress: TransferProgress) {
        self.task = task
        self.output = output
        self.progress = progress
    }

    /// Transfers of unknown length show a running count once this many bytes have arrived.
    static let countThreshold: Int64 = 16 << 20

    /// Starts drawing `progress` if the context and size call for it.
    ///
    /// - Parameters:
    ///   - progress: Counts bytes; its total is `totalBytes` when that is known.
    ///   - totalBytes: The payload's length, or `nil` when the sender did not say (a clipboard owner writing into a
    ///     pipe): then the line shows the bytes received so far, from ``countThreshold`` on, without a bar.
    ///   - context: Whether standard error is a terminal, and where to draw.
    /// - Returns: The bar, or `nil` when none is drawn.
    static func start(for progress: TransferProgress, totalBytes: UInt64?, context: CommandContext) -> ProgressBar? {
        guard context.standardErrorIsTerminal else { return nil }
        let output = context.standardError
        let task: Task<Bool, Never>
        if let totalBytes {
            guard totalBytes >= threshold else { return nil }
            task = Task {
                var drew = false
                for await snapshot in progress.updates {
                    drew = true
                    let width = 30
                    let fraction = min(1, max(0, snapshot.fractionCompleted))
                    let filled = Int(fraction * Double(width))
                    let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
                    try? output.write("\r[\(bar)] \(Int(fraction * 100))% of \(ByteCount.format(totalBytes))")
                }
                return drew
            }
        } else {
            task = Task {
                var drew = false
                for await snapshot in progress.updates where snapshot.completedUnitCount >= countThreshold {
                    drew = true
                    let received = UInt64(clamping: snapshot.completedUnitCount)
                    try? output.write("\r\(ByteCount.format(received)) received\u{1B}[K")
                }
                return drew
            }
        }
        return ProgressBar(task: task, output: output, progress: progress)
    }

    /// Runs `body` with a bar for `progress` when ``start(for:totalBytes:context:)`` calls for one: finished when
    /// `body` returns, cancelled when it throws, and cleared either way.
    package static func drawing(
        _ progress: TransferProgress, totalBytes: UInt64?, context: CommandContext, while body: () async throws -> Void
    ) async throws {
        let bar = start(for: progress, totalBytes: totalBytes, context: context)
        do {
            try await body()
        } catch {
            await bar?.cancel()
            throw error
        }
        await bar?.finish()
    }

    /// Marks the transfer finished, waits for the bar to draw that state (the progress's
    /// `updates` end after a finished snapshot, so this cannot wait forever), then clears the line if it drew one:
    /// a line it never drew may be the last line of what the command printed to the same terminal.
    func finish() async {
        progress.finish()
        if await task.value { try? output.write("\r\u{1B}[K") }
    }

    /// Stops drawing at once, for a transfer that failed, and clears the line if it drew one.
    func cancel() async {
        task.cancel()
        if await task.value { try? output.write("\r\u{1B}[K") }
    }
}
