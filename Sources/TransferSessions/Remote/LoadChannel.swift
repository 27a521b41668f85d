import Foundation
import TransferKit
import TransferKitPlatform

/// The bytes of one remote load on their way from the connection's reader thread to the task that reads them.
///
/// Memory stays bounded: when more than ``bufferLimit`` bytes wait unread, the reader thread waits (at most the
/// connection's time limit, then the load fails) instead of buffering more. Cancelling the reading task, or
/// dropping the iterator before the end (as a consumer does when its progress is cancelled), stops the load at
/// the source.
final class LoadChannel: Sendable {
    /// The most bytes held for a reader that has not taken them yet.
    static let bufferLimit = 4 << 20

    private let timeout: Duration
    private let condition = NSCondition()
    // Guarded by `condition`; `nonisolated(unsafe)` because NSCondition is the lock here (a Mutex cannot wait).
    nonisolated(unsafe) private var queue: [Data] = []
    nonisolated(unsafe) private var queuedBytes = 0
    nonisolated(unsafe) private var end: Result<Void, any Error>?
    nonisolated(unsafe) private var descriptor: (Int32, UInt64)?
    nonisolated(unsafe) private var isCancelled = false
    nonisolated(unsafe) private var waiter: CheckedContinuation<Void, Never>?
    nonisolated(unsafe) private var cancelHandler: (@Sendable () -> Void)?
    nonisolated(unsafe) private var start: Result<UInt64?, any Error>?
    nonisolated(unsafe) private var startWaiter: CheckedContinuation<Result<UInt64?, any Error>, Never>?

    init(timeout: Duration) {
        self.timeout = timeout
    }

    deinit {
        if let (descriptor, _) = descriptor { Syscall.close(descriptor) }
    }

    /// What to do when the reader gives the load up: tell the source.
    var onCancel: (@Sendable () -> Void)? {
        get { locked { cancelHandler } }
        set { locked { cancelHandler = newValue } }
    }

    /// Waits for the source's first answer.
    /// - Returns: The number of bytes to come, if the source knows it.
    /// - Throws: The load's failure, if that was the answer.
    func started() async throws -> UInt64? {
        let result = await withCheckedContinuation { continuation in
            let ready = locked { () -> Result<UInt64?, any Error>? in
                if let start { return start }
                startWaiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
        return try result.get()
    }

    /// Records the source's first answer and wakes ``started()``.
    private func answer(_ result: Result<UInt64?, any Error>) {
        let waiter = locked { () -> CheckedContinuation<Result<UInt64?, any Error>, Never>? in
            guard start == nil else { return nil }
            start = result
            defer { startWaiter = nil }
            return startWaiter
        }
        waiter?.resume(returning: result)
    }

    /// The load started; `length` bytes will come if known.
    func begin(length: UInt64?) {
        answer(.success(length))
    }

    /// The next bytes; waits while the reader is behind by more than ``bufferLimit``.
    func push(_ bytes: Data) {
        condition.lock()
        let (seconds, attoseconds) = timeout.components
        let deadline = Date().addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
        while queuedBytes > Self.bufferLimit && !isCancelled && end == nil {
            if !condition.wait(until: deadline) { break }
        }
        guard !isCancelled, end == nil else {
            condition.unlock()
            return
        }
        if queuedBytes > Self.bufferLimit {
            end = .failure(
                TransferError(code: .loaderFailed, message: "The reader of a remote load stopped taking its bytes."))
        } else {
            queue.append(bytes)
            queuedBytes += bytes.count
        }
        let waiter = takeWaiter()
        condition.unlock()
        waiter?.resume()
    }

    /// The bytes are in `descriptor`, `length` of them.
    func file(_ descriptor: Int32, length: UInt64) {
        answer(.success(length))
        let waiter = locked { () -> CheckedContinuation<Void, Never>? in
            self.descriptor = (descriptor, length)
            end = .success(())
            return takeWaiter()
        }
        waiter?.resume()
    }

    /// Every byte came.
    func finish() {
        let waiter = locked { () -> CheckedContinuation<Void, Never>? in
            if end == nil { end = .success(()) }
            return takeWaiter()
        }
        waiter?.resume()
    }

    /// The load failed.
    func fail(_ error: any Error) {
        answer(.failure(error))
        let waiter = locked { () -> CheckedContinuation<Void, Never>? in
            if end == nil { end = .failure(error) }
            return takeWaiter()
        }
        waiter?.resume()
    }

    /// The reader gave up: stop the source, drop what is held.
    func cancel() {
        answer(.failure(TransferError(code: .cancelled, message: "The load was cancelled.")))
        let (waiter, handler) = locked { () -> (CheckedContinuation<Void, Never>?, (@Sendable () -> Void)?) in
            guard !isCancelled, end == nil || !queue.isEmpty || descriptor != nil else { return (nil, nil) }
            isCancelled = true
            queue = []
            queuedBytes = 0
            condition.broadcast()
            return (takeWaiter(), cancelHandler)
        }
        waiter?.resume()
        handler?()
    }

    /// The chunks, as the reader takes them.
    var chunks: Chunks { Chunks(channel: self) }

    /// The chunks of a load; one pass (a second one finds the end at once).
    struct Chunks: AsyncSequence, Sendable {
        let channel: LoadChannel

        func makeAsyncIterator() -> Iterator {
            Iterator(reader: Reader(channel: channel))
        }

        struct Iterator: AsyncIteratorProtocol {
            let reader: Reader

            mutating func next() async throws -> Data? {
                try await reader.channel.next()
            }
        }
    }

    /// Cancels the load when the consumer drops its iterator before the end.
    final class Reader: Sendable {
        let channel: LoadChannel

        init(channel: LoadChannel) {
            self.channel = channel
        }

        deinit {
            channel.cancel()
        }
    }

    fileprivate func next() async throws -> Data? {
        while true {
            let step = locked { () -> Step in
                if isCancelled { return .cancelled }
                if !queue.isEmpty {
                    let chunk = queue.removeFirst()
                    queuedBytes -= chunk.count
                    condition.broadcast()
                    return .chunk(chunk)
                }
                if let (descriptor, length) = descriptor {
                    self.descriptor = nil
                    return .file(descriptor, length)
                }
                if let end { return .end(end) }
                return .wait
            }
            switch step {
            case .cancelled:
                throw TransferError(code: .cancelled, message: "The load was cancelled.")
            case .chunk(let chunk):
                return chunk
            case .file(let descriptor, let length):
                return try readFile(descriptor, length: length)
            case .end(let end):
                try end.get()
                return nil
            case .wait:
                await withTaskCancellationHandler {
                    await withCheckedContinuation { continuation in
                        let ready = locked { () -> Bool in
                            if isCancelled || !queue.isEmpty || end != nil || descriptor != nil { return true }
                            waiter = continuation
                            return false
                        }
                        if ready { continuation.resume() }
                    }
                } onCancel: {
                    cancel()
                }
            }
        }
    }

    private enum Step {
        case cancelled, wait
        case chunk(Data)
        case file(Int32, UInt64)
        case end(Result<Void, any Error>)
    }

    /// A passed file's bytes: read whole when small, else as one chunk of at most the buffer limit at a time,
    /// through the descriptor, which stays queued until its end.
    private func readFile(_ descriptor: Int32, length: UInt64) throws -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while data.count < Self.bufferLimit {
            let count: Int
            do {
                count = try Syscall.read(descriptor, into: &buffer)
            } catch {
                Syscall.close(descriptor)
                throw TransferError(code: .loaderFailed, message: "The passed file cannot be read.", cause: error)
            }
            if count == 0 {
                Syscall.close(descriptor)
                return data
            }
            data.append(contentsOf: buffer[0..<count])
        }
        // More to come: keep the descriptor for the next call.
        locked { self.descriptor = (descriptor, length) }
        return data
    }

    private func takeWaiter() -> CheckedContinuation<Void, Never>? {
        defer { waiter = nil }
        return waiter
    }

    private func locked<R>(_ body: () -> R) -> R {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }
}
