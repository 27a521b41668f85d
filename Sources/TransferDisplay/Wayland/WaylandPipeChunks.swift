import TransferKitPlatform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The bytes a Wayland client writes into a pipe: a thread of their own reads the pipe into a ``Mailbox`` that the
/// iterating task takes them from.
///
/// One pass only (a pipe cannot be read twice): a second iteration finds the end. The reader thread reads ahead at
/// most one chunk, then waits for the iterating task. Each wait of the task for the next bytes ends
/// by the time limit (the owner is silent: `timedOut`); cancelling the task, or dropping the iterator, ends the
/// pass: the thread closes the read end within a ``Reader/slice``, so the writer sees `EPIPE` and stops.
struct WaylandPipeChunks: AsyncSequence, Sendable {
    typealias Element = Data

    let reader: Reader

    /// Reads `descriptor`, the pipe carrying `source` (a MIME type) from `writer` (who is silent when the time
    /// limit passes: the owner of the clipboard, or a drag's source).
    init(
        descriptor: Int32, timeout: Duration, clock: WireClock = .continuous, source: String,
        writer: String = "The owner of the clipboard"
    ) {
        reader = Reader(descriptor: descriptor, timeout: timeout, clock: clock, source: source, writer: writer)
    }

    func makeAsyncIterator() -> Iterator { Iterator(lease: Lease(reader: reader)) }

    struct Iterator: AsyncIteratorProtocol {
        let lease: Lease

        mutating func next() async throws -> Data? { try await lease.reader.next() }
    }

    /// An iteration's hold on the reader: when the iterator is dropped (the consumer stopped, threw or was
    /// cancelled through its progress), the pass ends at once, even while something still holds the sequence.
    final class Lease: Sendable {
        let reader: Reader
        init(reader: Reader) { self.reader = reader }
        deinit { reader.abandon() }
    }

    /// Owns the read end (through its thread, which alone uses and closes it) and the mailbox of chunks.
    final class Reader: Sendable {
        /// The largest read.
        static let chunkSize = 1 << 20
        /// How often the reading thread, waiting for bytes, looks whether the pass was abandoned.
        static let slice = Duration.milliseconds(100)

        let timeout: Duration
        let clock: WireClock
        let source: String
        /// Who writes into the pipe, named in the error of the time limit.
        let writer: String
        /// One chunk at a time: the queue then empties at each take, so no chunk the task took stays referenced by
        /// the mailbox's storage (which keeps taken elements until it empties or compacts: with a deeper queue that
        /// a fast pipe keeps full, 64 MiB read grew the peak RSS by 43 MiB).
        private let chunks = Mailbox<Data, ClipboardError>(capacity: 1)
        /// Whether the pass was given up; the thread then stops and closes the read end.
        private let abandoned = Abandonment()

        init(descriptor: Int32, timeout: Duration, clock: WireClock, source: String, writer: String) {
            self.timeout = timeout
            self.clock = clock
            self.source = source
            self.writer = writer
            DedicatedThread.start { [chunks, abandoned] in
                Self.readAll(descriptor, into: chunks, until: { abandoned.isMarked }, source: source)
            }
        }

        deinit { abandon() }

        /// The next chunk; `nil` at the end.
        /// - Throws: ``ClipboardError``: `timedOut` when the owner sent nothing within the time limit, `cancelled`
        ///   when the task was cancelled, `transferFailed` when the pipe failed.
        func next() async throws(ClipboardError) -> Data? {
            do {
                return try await chunks.receive(until: .after(timeout, on: clock))
            } catch {
                switch error {
                case .finished:
                    return nil
                case .closed(let failure):
                    throw failure
                case .cancelled:
                    abandon()
                    throw ClipboardError(code: .cancelled, message: "Reading \(source) was cancelled.", source: source)
                case .timedOut:
                    abandon()
                    throw ClipboardError(
                        code: .timedOut,
                        message: "\(writer) sent no bytes of \(source) for \(timeout); it may hang.",
                        source: source)
                }
            }
        }

        /// Ends the pass: the thread stops within a slice and closes the read end; what it read is dropped.
        func abandon() {
            abandoned.mark()
            chunks.discard(nil)
        }

        /// The reading thread: reads `descriptor` to its end (or a failure, or until `isAbandoned`), posting each
        /// chunk as it came (a pipe gives at most its buffer per read), then closes it.
        private static func readAll(
            _ descriptor: Int32, into chunks: Mailbox<Data, ClipboardError>, until isAbandoned: () -> Bool,
            source: String
        ) {
            defer { Syscall.close(descriptor) }
            var buffer = [UInt8](repeating: 0, count: chunkSize)
            while !isAbandoned() {
                let count: Int
                do {
                    guard try Syscall.waitUntilReadable(descriptor, timeout: slice) else { continue }
                    count = try Syscall.read(descriptor, into: &buffer)
                } catch {
                    chunks.close(
                        ClipboardError(
                            code: .transferFailed, message: "Cannot read \(source) from the owner: \(error.reason).",
                            cause: error, source: source))
                    return
                }
                guard count > 0 else {
                    chunks.close(nil)
                    return
                }
                // The wait for room ends when the iterating task takes a chunk or gives the pass up (both its
                // waits have the time limit, and dropping the iterator abandons the pass).
                guard chunks.post(Data(buffer[..<count])) == .posted else { return }
            }
        }
    }

    /// A flag shared by the iterating task and the reading thread.
    final class Abandonment: Sendable {
        private let flag = SanitizedMutex(false)

        /// Whether ``mark()`` was called.
        var isMarked: Bool { flag.withLock { $0 } }

        /// Sets the flag.
        func mark() { flag.withLock { $0 = true } }
    }
}
