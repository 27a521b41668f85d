public import Foundation

/// An endless sequence of 64 KiB chunks, each made only when the reader asks for it (so nothing piles up while a
/// reader waits or stalls), that calls `onStop` once when its iterator is dropped: how a test sees that a writer's
/// stream stopped being read.
public struct EndlessChunks: AsyncSequence, Sendable {
    /// A chunk.
    public typealias Element = Data

    private let onStop: @Sendable () -> Void

    /// The chunks; `onStop` runs when the iterator made from them goes away.
    public init(onStop: @escaping @Sendable () -> Void) {
        self.onStop = onStop
    }

    /// A new reader of the chunks; `onStop` runs when it goes away.
    public func makeAsyncIterator() -> Iterator {
        Iterator(stop: Stop(onStop))
    }

    /// Hands out the same chunk again and again.
    public struct Iterator: AsyncIteratorProtocol {
        let stop: Stop
        let chunk = Data(repeating: 7, count: 1 << 16)

        /// The next chunk, after letting other tasks run.
        public mutating func next() async -> Data? {
            await Task.yield()
            return chunk
        }
    }

    /// Calls `onStop` when the last copy of the iterator is gone.
    final class Stop: Sendable {
        let onStop: @Sendable () -> Void
        init(_ onStop: @escaping @Sendable () -> Void) { self.onStop = onStop }
        deinit { onStop() }
    }
}
