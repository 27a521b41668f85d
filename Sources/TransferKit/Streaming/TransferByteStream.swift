package import TransferKitPlatform

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// The bytes of a representation as a sequence of chunks, which may add up to more than fits in memory.
///
/// A provider hands one out from ``TransferProvider/registerStreamRepresentation(for:visibility:loadHandler:)``;
/// `TransferArchiveWriter.writeItem(from:progress:)` writes it into an archive chunk by chunk, holding one chunk at
/// a time, and ``TransferProvider/loadStream(for:progress:)`` gives any representation to a reader this way. Make one
/// from any `AsyncSequence` of `Data`, from a file, or from bytes in memory:
///
/// ```swift
/// let frames = AsyncStream<Data> { continuation in
///     for index in 0..<3 { continuation.yield(Data(repeating: UInt8(index), count: 4096)) }
///     continuation.finish()
/// }
/// let stream = TransferByteStream(length: 3 * 4096, frames)
/// for try await chunk in stream {
///     print(chunk.count)
/// }
/// ```
///
/// ## Length
/// A stream may declare its ``length``. The archive writes a payload's length before its bytes, so a stream with a
/// length goes straight into an archive; one without is first copied to an unlinked temporary file (memory stays
/// bounded either way). A declared length is a promise that iteration checks: a sequence that yields more bytes, or
/// ends with fewer, fails with ``TransferError`` and `TransferError.Code.lengthMismatch`.
///
/// ## Iteration
/// Each `makeAsyncIterator()` starts over: a stream made from a file reads it again, and one made from a sequence
/// asks the sequence for a new iterator (a single-pass sequence, such as an `AsyncStream`, yields its chunks once).
/// Errors that the sequence throws reach the consumer unchanged; a provider wraps them as
/// `TransferError.Code.loaderFailed` with the error as `cause`.
public struct TransferByteStream: AsyncSequence, Sendable {
    /// A chunk of bytes.
    public typealias Element = Data
    /// Any error of the underlying sequence or file.
    public typealias Failure = any Error

    /// The number of bytes the stream promises, or `nil` when it does not know until it ends.
    public let length: UInt64?

    let source: Source

    /// Where the bytes lie in a file, when they do; see ``FileBacking``.
    package internal(set) var fileBacking: FileBacking?

    enum Source: Sendable {
        /// A fresh iterator of the caller's sequence, type-erased to its `next()`.
        case chunks(@Sendable () -> () async throws -> Data?)
        /// A file read in chunks of `chunkSize` bytes.
        case file(path: String, chunkSize: Int)
    }

    /// A stream of the chunks that `chunks` yields.
    ///
    /// - Parameters:
    ///   - length: The number of bytes the chunks add up to, if known; iteration checks it.
    ///   - chunks: The chunks, in order; empty chunks are allowed and skipped by the archive writer.
    public init<Chunks: AsyncSequence & Sendable>(length: UInt64? = nil, _ chunks: Chunks)
    where Chunks.Element == Data {
        self.length = length
        source = .chunks {
            var iterator = chunks.makeAsyncIterator()
            return { try await iterator.next() }
        }
    }

    /// A stream of one chunk.
    ///
    /// - Parameter data: The bytes.
    public init(data: Data) {
        self.init(chunks: [data])
    }

    /// A stream of chunks already in memory, in order: a representation kept in pieces, or bytes given to a
    /// converter in the chunking of a real stream.
    ///
    /// ```swift
    /// let stream = TransferByteStream(chunks: [Data("Caf".utf8), Data([0xC3]), Data([0xA9])])
    /// ```
    ///
    /// - Parameter chunks: The chunks; the stream's ``length`` is their total.
    public init(chunks: [Data]) {
        self.init(length: UInt64(chunks.reduce(0) { $0 + $1.count }), ChunkList(chunks: chunks))
    }

    /// A stream of a file's bytes, read in chunks when iterated (each iteration opens the file anew).
    ///
    /// The archive writer copies such a stream from the file descriptor itself, without making `Data` chunks (and
    /// into a pipe with `splice(2)`).
    ///
    /// - Parameters:
    ///   - fileURL: A regular file; its size now is the stream's ``length``.
    ///   - chunkSize: The size of the chunks iteration yields; 1 MiB by default.
    /// - Throws: ``TransferError`` with `TransferError.Code.fileCoercionFailed` when the file cannot be opened or is
    ///   not a regular file.
    public init(contentsOf fileURL: URL, chunkSize: Int = 1 << 20) throws {
        let path = fileURL.path
        let descriptor = try Self.open(path)
        defer { Syscall.close(descriptor) }
        length = try Self.regularFileSize(descriptor, path: path)
        source = .file(path: path, chunkSize: Swift.max(1, chunkSize))
        fileBacking = .path(path)
    }

    /// Starts a new pass over the stream's chunks.
    public func makeAsyncIterator() -> AsyncIterator {
        switch source {
        case .chunks(let makeNext):
            AsyncIterator(length: length, next: makeNext())
        case .file(let path, let chunkSize):
            AsyncIterator(length: length, next: FileChunks(path: path, chunkSize: chunkSize).next)
        }
    }

    /// One pass over a stream's chunks, checking the declared length.
    ///
    /// Not `Sendable`: it holds the position of one pass; use it in the task that iterates.
    public struct AsyncIterator: AsyncIteratorProtocol {
        /// A chunk of bytes.
        public typealias Element = Data
        /// Any error of the underlying sequence or file.
        public typealias Failure = any Error

        let length: UInt64?
        var nextChunk: () async throws -> Data?
        var delivered: UInt64 = 0
        var isDone = false

        init(length: UInt64?, next: @escaping () async throws -> Data?) {
            self.length = length
            self.nextChunk = next
        }

        /// The next chunk, or `nil` after the last.
        ///
        /// - Returns: The chunk; `nil` once the stream has ended.
        /// - Throws: What the underlying sequence throws, or ``TransferError`` with
        ///   `TransferError.Code.lengthMismatch` when the chunks add up to more or fewer bytes than ``length``.
        public mutating func next() async throws -> Data? {
            guard !isDone else { return nil }
            let chunk: Data?
            do {
                chunk = try await nextChunk()
            } catch {
                isDone = true
                throw error
            }
            guard let chunk else {
                isDone = true
                if let length, delivered != length {
                    throw TransferByteStream.lengthMismatch(delivered: delivered, length: length, ended: true)
                }
                return nil
            }
            delivered += UInt64(chunk.count)
            if let length, delivered > length {
                isDone = true
                throw TransferByteStream.lengthMismatch(delivered: delivered, length: length, ended: false)
            }
            return chunk
        }
    }
}

extension TransferByteStream {
    /// Where a stream's bytes lie in a file, for a writer that moves them between descriptors without copying them
    /// through memory (`splice(2)` from the file into a pipe).
    ///
    /// Streams made from a file have one (``init(contentsOf:chunkSize:)``, a range of an open file), and so do
    /// wrappers that pass every byte through unchanged (``keepingFileBacking(of:)``). A writer that uses it moves
    /// ``length`` bytes from ``open()``'s offset, checks its own task's cancellation, and reports a file that ended
    /// early, or a whole file (``isWholeFile``) that grew, as iteration would (`TransferError.Code.lengthMismatch`).
    package enum FileBacking: Sendable {
        /// The whole of the regular file at a path.
        case path(String)
        /// The bytes from `offset` of an open file.
        case range(SharedDescriptor, offset: Int64)

        /// Whether the stream is the whole file, so that bytes past its length mean the file grew (a range is
        /// followed by other bytes of its file: a spool's later payloads).
        package var isWholeFile: Bool {
            if case .path = self { true } else { false }
        }

        /// A descriptor of the file of the caller's own (the caller closes it), and where the bytes start in it.
        /// - Throws: ``TransferError`` with `TransferError.Code.fileCoercionFailed` when the file cannot be opened
        ///   or is no longer a regular file, as the stream's iteration would.
        package func open() throws(TransferError) -> (descriptor: Int32, offset: Int64) {
            switch self {
            case .path(let path):
                let descriptor = try TransferByteStream.open(path)
                do {
                    _ = try TransferByteStream.regularFileSize(descriptor, path: path)
                } catch {
                    Syscall.close(descriptor)
                    throw error
                }
                return (descriptor, 0)
            case .range(let file, let offset):
                do {
                    return (try Syscall.duplicate(file.descriptor), offset)
                } catch {
                    throw TransferError(
                        code: .fileCoercionFailed, message: "Cannot open the stream's file again: \(error.reason).",
                        cause: error)
                }
            }
        }
    }

    /// This stream with `base`'s ``fileBacking``: for a wrapper of `base` that passes every byte through unchanged
    /// (mapping errors, holding a resource until the stream is let go), so a writer may still move the file's bytes
    /// without copying them.
    package func keepingFileBacking(of base: TransferByteStream) -> TransferByteStream {
        var stream = self
        stream.fileBacking = base.fileBacking
        return stream
    }

    /// The file of a stream made with ``init(contentsOf:chunkSize:)``, for copying it from a descriptor.
    var filePath: String? {
        if case .file(let path, _) = source { path } else { nil }
    }

    package static func lengthMismatch(delivered: UInt64, length: UInt64, ended: Bool) -> TransferError {
        let what = ended ? "ended after \(delivered) bytes" : "yielded \(delivered) bytes or more"
        return TransferError(
            code: .lengthMismatch,
            message: "A byte stream that declared \(length) bytes \(what); declare the length its chunks really add "
                + "up to, or none.")
    }

    /// Opens `path` for reading, as ``TransferError`` on failure.
    static func open(_ path: String) throws(TransferError) -> Int32 {
        do {
            return try Syscall.openForReading(path, nonBlocking: true)
        } catch {
            throw TransferError(
                code: .fileCoercionFailed, message: "Cannot open \(path) to stream it: \(error.reason).",
                cause: error, source: path)
        }
    }

    /// The size of the regular file open at `descriptor`.
    static func regularFileSize(_ descriptor: Int32, path: String) throws(TransferError) -> UInt64 {
        let status: FileStatus
        do {
            status = try Syscall.status(descriptor)
        } catch {
            throw TransferError(
                code: .fileCoercionFailed, message: "Cannot read the size of \(path): \(error.reason).", cause: error,
                source: path)
        }
        guard status.isRegularFile else {
            throw TransferError(
                code: .fileCoercionFailed,
                message: "\(path) is not a regular file; stream a pipe or device through an AsyncSequence instead.",
                source: path)
        }
        return UInt64(Swift.max(0, status.size))
    }

    /// Collects every chunk into one `Data`, reporting each chunk to `progress` and stopping when it or the task
    /// is cancelled.
    func collect(progress: TransferProgress) async throws -> Data {
        if let length, progress.totalUnitCount <= 0 {
            progress.totalUnitCount = Int64(clamping: length)
        }
        var data = Data()
        if let length, length <= UInt64(Int.max) {
            data.reserveCapacity(Int(length))
        }
        var iterator = makeAsyncIterator()
        while true {
            try progress.checkCancellation()
            try Task.checkCancellation()
            guard let chunk = try await iterator.next() else { return data }
            data.append(chunk)
            progress.advance(by: Int64(chunk.count))
        }
    }
}

/// The chunks of ``TransferByteStream/init(chunks:)``, in order, from the start on every pass.
private struct ChunkList: AsyncSequence, Sendable {
    typealias Element = Data
    let chunks: [Data]

    func makeAsyncIterator() -> Iterator { Iterator(chunks: chunks[...]) }

    struct Iterator: AsyncIteratorProtocol {
        var chunks: ArraySlice<Data>
        mutating func next() async -> Data? { chunks.popFirst() }
    }
}

/// Reads a file in chunks for one pass of a stream; the descriptor closes when the pass ends or is abandoned.
private final class FileChunks {
    let path: String
    let chunkSize: Int
    var descriptor: Int32?
    var isDone = false

    init(path: String, chunkSize: Int) {
        self.path = path
        self.chunkSize = chunkSize
    }

    deinit {
        if let descriptor { Syscall.close(descriptor) }
    }

    func next() async throws -> Data? {
        guard !isDone else { return nil }
        let descriptor = try self.descriptor ?? TransferByteStream.open(path)
        self.descriptor = descriptor
        var chunk = Data(count: chunkSize)
        let outcome = chunk.withUnsafeMutableBytes { bytes in
            Result { () throws(SystemError) in try Syscall.readFully(descriptor, into: bytes) }
        }
        let count: Int
        do {
            count = try outcome.get()
        } catch {
            throw TransferError(
                code: .fileCoercionFailed, message: "Cannot read \(path): \(error.reason).", cause: error,
                source: path)
        }
        if count < chunkSize {
            isDone = true
            Syscall.close(descriptor)
            self.descriptor = nil
            if count == 0 { return nil }
            chunk.count = count
        }
        return chunk
    }
}
