package import TransferKit

#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// A received stream that stops when its load's progress is cancelled and keeps the connection open while read.
package struct ReceivedChunks: AsyncSequence, Sendable {
    package typealias Element = Data
    let stream: TransferByteStream
    let progress: TransferProgress
    /// What must stay alive while the stream is read: the connection it comes through.
    let keep: any Sendable

    /// The chunks of `stream`, stopped by `progress`'s cancellation, keeping `keep` alive.
    package init(stream: TransferByteStream, progress: TransferProgress, keep: any Sendable) {
        self.stream = stream
        self.progress = progress
        self.keep = keep
    }

    package func makeAsyncIterator() -> Iterator {
        Iterator(base: stream.makeAsyncIterator(), progress: progress, keep: keep)
    }

    package struct Iterator: AsyncIteratorProtocol {
        var base: TransferByteStream.AsyncIterator
        let progress: TransferProgress
        let keep: any Sendable

        package mutating func next() async throws -> Data? {
            // The provider counts the chunks (when it collects them into data) or leaves that to the consumer of
            // `loadStream`; this only stops a cancelled load between chunks.
            try progress.checkCancellation()
            return try await base.next()
        }
    }
}
