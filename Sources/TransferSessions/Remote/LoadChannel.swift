import TransferKit
import TransferKitPlatform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The bytes of one remote load on their way from the connection's reader thread to the task that reads them: two
/// ``Mailbox``es of the wire layer, one for the source's first answer and one for the bytes.
///
/// Every wait has the session's time limit: the source's first answer, each next chunk, a passed file's next bytes
/// (a pipe that never ends), and the reader thread's wait for room when more than ``bufferLimit`` bytes are unread
/// (then the load fails instead of buffering more). Cancelling the reading task, or dropping the iterator before
/// the end, stops the load at the source.
final class LoadChannel: Sendable {
    /// The most bytes held for a reader that has not taken them yet.
    static let bufferLimit = 4 << 20

    /// What the reader thread hands over.
    enum Piece: Sendable {
        /// The next bytes.
        case bytes(Data)
        /// The bytes are the first `length` bytes of this descriptor (which the channel then owns).
        case file(Int32, length: UInt64)
    }

    private let timeout: Duration
    private let clock: WireClock
    private let started = Mailbox<UInt64?, TransferError>(capacity: 1)
    private let pieces = Mailbox<Piece, TransferError>(capacity: LoadChannel.bufferLimit)
    private let state = SanitizedMutex(State())

    private struct State {
        var cancelHandler: (@Sendable () -> Void)?
        var isOver = false
        var file: (descriptor: Int32, remaining: UInt64)?
        /// The thread that reads the passed file, one for the whole file (made when the file arrives).
        var fileReader: DedicatedWorker?
    }

    init(timeout: Duration, clock: WireClock) {
        self.timeout = timeout
        self.clock = clock
    }

    deinit {
        state.withLock { state in
            if let file = state.file { Syscall.close(file.descriptor) }
            state.fileReader?.close()
        }
        while let piece = pieces.poll() {
            if case .file(let descriptor, _) = piece { Syscall.close(descriptor) }
        }
    }

    /// What to do when the reader gives the load up: tell the source.
    var onCancel: (@Sendable () -> Void)? {
        get { state.withLock { $0.cancelHandler } }
        set { state.withLock { $0.cancelHandler = newValue } }
    }

    /// Waits for the source's first answer, at most the time limit.
    /// - Returns: The number of bytes to come, if the source knows it.
    /// - Throws: The load's failure, if that was the answer; `loaderFailed` (caused by a `timedOut`
    ///   ``TransferSessionError``) when the source did not answer in time.
    func waitUntilStarted() async throws(TransferError) -> UInt64? {
        do {
            return try await started.receive(until: .after(timeout, on: clock))
        } catch {
            throw giveUp(error)
        }
    }

    /// The load started; `length` bytes will come if known.
    func begin(length: UInt64?) {
        started.post(length)
        started.close(nil)
    }

    /// The next bytes; waits while the reader is behind by more than ``bufferLimit``, at most the time limit.
    func push(_ bytes: Data) {
        switch pieces.post(.bytes(bytes), cost: bytes.count, until: .after(timeout, on: clock)) {
        case .posted, .closed:
            break
        case .timedOut:
            fail(
                TransferError(
                    code: .loaderFailed,
                    message: "The reader of a remote load took none of its bytes for \(timeout); the load stopped.",
                    cause: TransferSessionError(code: .timedOut, message: "The reader stopped taking bytes.")))
            cancelAtSource()
        }
    }

    /// The bytes are in `descriptor`, `length` of them.
    func file(_ descriptor: Int32, length: UInt64) {
        begin(length: length)
        if pieces.post(.file(descriptor, length: length)) != .posted {
            Syscall.close(descriptor)
        }
        pieces.close(nil)
    }

    /// Every byte came.
    func finish() {
        begin(length: nil)
        pieces.close(nil)
    }

    /// The load failed.
    func fail(_ error: TransferError) {
        started.close(error)
        pieces.close(error)
    }

    /// The reader gave up: stop the source, drop what is held.
    func cancel() {
        let error = TransferError(code: .cancelled, message: "The load was cancelled.")
        started.close(error)
        pieces.discard(error)
        cancelAtSource()
    }

    private func cancelAtSource() {
        let handler = state.withLock { state -> (@Sendable () -> Void)? in
            guard !state.isOver else { return nil }
            state.isOver = true
            return state.cancelHandler
        }
        handler?()
    }

    /// Turns a failed wait into the load's error, stopping the source when this side gave up.
    private func giveUp(_ failure: Mailbox<UInt64?, TransferError>.ReceiveFailure) -> TransferError {
        switch failure {
        case .closed(let error): return error
        case .finished: return TransferError(code: .loaderFailed, message: "The load ended before it began.")
        case .cancelled:
            cancel()
            return TransferError(code: .cancelled, message: "The load was cancelled.")
        case .timedOut:
            cancel()
            return Self.timedOut(timeout, what: "did not answer the load")
        }
    }

    private static func timedOut(_ timeout: Duration, what: String) -> TransferError {
        TransferError(
            code: .loaderFailed, message: "The source \(what) within \(timeout); the load stopped.",
            cause: TransferSessionError(code: .timedOut, message: "The source \(what) within \(timeout)."))
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
            channel.cancelUnlessOver()
        }
    }

    /// Cancels unless every byte was read.
    fileprivate func cancelUnlessOver() {
        if !state.withLock({ $0.isOver }) { cancel() }
    }

    fileprivate func next() async throws(TransferError) -> Data? {
        if let file = state.withLock({ $0.file }) {
            return try await readFileOffPool(file.descriptor, remaining: file.remaining)
        }
        let piece: Piece
        do {
            piece = try await pieces.receive(until: .after(timeout, on: clock))
        } catch {
            switch error {
            case .finished:
                state.withLock { $0.isOver = true }
                return nil
            case .closed(let error):
                state.withLock { $0.isOver = true }
                throw error
            case .cancelled:
                cancel()
                throw TransferError(code: .cancelled, message: "The load was cancelled.")
            case .timedOut:
                cancel()
                throw Self.timedOut(timeout, what: "sent nothing more")
            }
        }
        switch piece {
        case .bytes(let bytes):
            return bytes
        case .file(let descriptor, let length):
            state.withLock { $0.file = (descriptor, length) }
            return try await readFileOffPool(descriptor, remaining: length)
        }
    }

    /// ``readFile(_:remaining:)`` on the file's own thread (one for all its chunks): its wait for a slow pipe must not
    /// hold a pool thread.
    private func readFileOffPool(_ descriptor: Int32, remaining: UInt64) async throws(TransferError) -> Data? {
        let reader = state.withLock { state in
            if let reader = state.fileReader { return reader }
            let reader = DedicatedWorker()
            state.fileReader = reader
            return reader
        }
        let outcome = await reader.run { [self] in
            Result { () throws(TransferError) in try readFile(descriptor, remaining: remaining) }
        }
        return try outcome.get()
    }

    /// A passed file's next bytes (at most the buffer limit at a time, and never past its announced length),
    /// waiting at most the time limit for each read: the descriptor may be a pipe that never ends.
    private func readFile(_ descriptor: Int32, remaining: UInt64) throws(TransferError) -> Data? {
        guard remaining > 0 else {
            closeFile()
            return nil
        }
        // Read straight into the chunk handed on: one buffer per chunk, neither copied nor cleared first.
        let capacity = Int(min(UInt64(Self.bufferLimit), remaining))
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        let count: Int
        do {
            guard try Syscall.waitUntilReadable(descriptor, timeout: timeout) else {
                buffer.deallocate()
                closeFile()
                cancel()
                throw Self.timedOut(timeout, what: "passed a file that gave no bytes")
            }
            count = try Syscall.read(descriptor, into: UnsafeMutableRawBufferPointer(start: buffer, count: capacity))
        } catch let error as TransferError {
            throw error
        } catch {
            buffer.deallocate()
            closeFile()
            throw TransferError(code: .loaderFailed, message: "The passed file cannot be read.", cause: error)
        }
        guard count > 0 else {
            buffer.deallocate()
            closeFile()
            throw TransferError(
                code: .lengthMismatch, message: "The passed file ended \(remaining) bytes before its announced length.")
        }
        state.withLock { $0.file = (descriptor, remaining - UInt64(count)) }
        return Data(bytesNoCopy: buffer, count: count, deallocator: .custom { pointer, _ in pointer.deallocate() })
    }

    private func closeFile() {
        state.withLock { state in
            if let file = state.file { Syscall.close(file.descriptor) }
            state.file = nil
            state.isOver = true
            state.fileReader?.close()
            state.fileReader = nil
        }
    }
}
