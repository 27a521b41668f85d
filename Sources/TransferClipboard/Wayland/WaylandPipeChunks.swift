import Foundation
import TransferKitPlatform

/// The bytes a Wayland client writes into a pipe, read in chunks on a thread of their own.
///
/// One pass only (a pipe cannot be read twice): a second iteration yields nothing. Cancelling the iterating task,
/// or dropping the iterator, closes the read end, so the writer sees `EPIPE` and stops.
struct WaylandPipeChunks: AsyncSequence, Sendable {
    typealias Element = Data

    let reader: Reader

    init(descriptor: Int32, timeout: Duration, source: String) {
        reader = Reader(descriptor: descriptor, timeout: timeout, source: source)
    }

    func makeAsyncIterator() -> Iterator { Iterator(lease: Lease(reader: reader)) }

    struct Iterator: AsyncIteratorProtocol {
        let lease: Lease

        mutating func next() async throws -> Data? { try await lease.reader.next() }
    }

    /// An iteration's hold on the reader: when the iterator is dropped (the consumer stopped, threw or was
    /// cancelled through its progress), the read end closes at once, even while something still holds the
    /// sequence, so the owner's writes fail and its loader stops.
    final class Lease: Sendable {
        let reader: Reader
        init(reader: Reader) { self.reader = reader }
        deinit { reader.abandon() }
    }

    /// The flags of a pass, shared by the iterating task and the worker thread.
    final class Status: Sendable {
        private let flags = SanitizedMutex((cancelled: false, done: false))
        func withLock<Result>(_ body: (inout (cancelled: Bool, done: Bool)) -> Result) -> Result {
            flags.withLock { flags in
                var copy = flags
                defer { flags = copy }
                return body(&copy)
            }
        }
    }

    /// Owns the read end and its thread; closes both when the last reference goes.
    final class Reader: Sendable {
        static let chunkSize = 1 << 20
        /// How often a waiting read looks whether it was cancelled.
        static let slice = Duration.milliseconds(100)

        let descriptor: Int32
        let timeout: Duration
        let source: String
        let worker = BlockingWorker(name: "TransferClipboard Wayland receive")
        /// The read buffer, used only by jobs on ``worker``, which run one at a time.
        private nonisolated(unsafe) var buffer = [UInt8](repeating: 0, count: chunkSize)
        /// `done` once the read end is closed (at the end, on an error or on cancellation): the writer learns at once.
        let status = Status()

        init(descriptor: Int32, timeout: Duration, source: String) {
            self.descriptor = descriptor
            self.timeout = timeout
            self.source = source
        }

        deinit {
            worker.stop { [descriptor, status] in
                if !status.withLock({ $0.done }) { Syscall.close(descriptor) }
            }
        }

        func next() async throws -> Data? {
            try await withTaskCancellationHandler {
                try await worker.run { [self] in try self.readChunk() }
            } onCancel: {
                status.withLock { $0.cancelled = true }
            }
        }

        /// Stops the pass: a waiting read ends within a slice, and the read end closes after it.
        func abandon() {
            status.withLock { $0.cancelled = true }
            worker.enqueue { [self] in
                if !status.withLock({ $0.done }) { finish() }
            }
        }

        /// Closes the read end (on the worker thread, so no wait is using it) and marks the pass done.
        private func finish() {
            status.withLock { $0.done = true }
            Syscall.close(descriptor)
        }

        /// Waits for bytes in slices (so a cancellation is seen) up to the time limit, then reads one chunk.
        private func readChunk() throws -> Data? {
            if status.withLock({ $0.done }) { return nil }
            var waited = Duration.zero
            while true {
                if status.withLock({ $0.cancelled }) {
                    finish()
                    throw ClipboardError(code: .cancelled, message: "Reading \(source) was cancelled.", source: source)
                }
                if try Syscall.waitUntilReadable(descriptor, timeout: Self.slice) { break }
                waited += Self.slice
                if waited >= timeout {
                    finish()
                    throw ClipboardError(
                        code: .timedOut,
                        message: "The owner of the clipboard sent no bytes of \(source) for \(timeout); it may hang.",
                        source: source)
                }
            }
            let outcome = buffer.withUnsafeMutableBytes { bytes in
                Result { () throws(SystemError) in try Syscall.read(descriptor, into: bytes) }
            }
            let count: Int
            do {
                count = try outcome.get()
            } catch {
                finish()
                throw ClipboardError(
                    code: .transferFailed, message: "Cannot read \(source) from the owner: \(error.reason).",
                    cause: error, source: source)
            }
            if count == 0 {
                finish()
                return nil
            }
            // A pipe gives at most its buffer (64 KiB by default) per read: each chunk is the size that came.
            return Data(buffer[..<count])
        }
    }
}
