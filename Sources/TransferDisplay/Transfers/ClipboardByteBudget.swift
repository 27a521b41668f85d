import Synchronization
package import TransferKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The bytes of several streams from a peer, counted together against a limit: the chunk that passes it throws
/// instead of being handed on, so a peer with an endless or huge payload costs neither memory nor disk beyond the
/// limit (`paste --archive`'s text form, the keeper's snapshots).
package final class ClipboardByteBudget: Sendable {
    /// The most bytes the streams may take together.
    package let limit: Int
    private let used = Atomic<Int>(0)
    private let makeRefusal: @Sendable (_ limit: Int) -> any Error

    /// A budget of `limit` bytes; `refusal` makes the error that the chunk passing it throws.
    package init(limit: Int, refusal: @escaping @Sendable (_ limit: Int) -> any Error) {
        self.limit = limit
        self.makeRefusal = refusal
    }

    /// Whether the streams passed the limit.
    package var isExceeded: Bool { used.load(ordering: .acquiring) > limit }

    /// The error of a stream that passed the limit.
    package var refusal: any Error { makeRefusal(limit) }

    /// `stream` counted: the chunk that passes the limit throws ``refusal`` instead of being handed on.
    @Sendable package func counting(_ stream: TransferByteStream) -> TransferByteStream {
        TransferByteStream(length: stream.length, CountedChunks(stream: stream, budget: self))
    }

    /// Counts `count` more bytes.
    /// - Throws: ``refusal`` once the total passes the limit.
    package func spend(_ count: Int) throws {
        let total = used.add(count, ordering: .acquiringAndReleasing).newValue
        guard total <= limit else { throw refusal }
    }

    /// A stream's chunks, each counted against a budget before it is handed on.
    struct CountedChunks: AsyncSequence, Sendable {
        typealias Element = Data
        let stream: TransferByteStream
        let budget: ClipboardByteBudget

        func makeAsyncIterator() -> Iterator { Iterator(base: stream.makeAsyncIterator(), budget: budget) }

        struct Iterator: AsyncIteratorProtocol {
            var base: TransferByteStream.AsyncIterator
            let budget: ClipboardByteBudget

            mutating func next() async throws -> Data? {
                guard let chunk = try await base.next() else { return nil }
                try budget.spend(chunk.count)
                return chunk
            }
        }
    }
}
