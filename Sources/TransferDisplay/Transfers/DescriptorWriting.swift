package import TransferKit
import TransferKitPlatform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Writing a stream's chunks to a descriptor (a paste's pipe, a drop's pipe): the one writer of the display layer,
/// used by Wayland's sources and by `TransferOffer`.
package enum DescriptorWriting {
    /// Writes every chunk of `stream` to `descriptor` on one thread of the transfer's own (a `DedicatedWorker`),
    /// which waits at most `timeout` for the reader to make room; `written` is told each chunk's size once it is
    /// written.
    ///
    /// The descriptor is non-blocking while the bytes are written, and its flag is put back afterwards: a blocking
    /// pipe takes only `PIPE_BUF` bytes per wait for room (so that no write outlasts the time limit), which made a
    /// 256 MiB paste 65 536 waits and writes; a non-blocking one takes whatever room the reader's pipe has.
    ///
    /// A stream whose bytes lie in a file (`TransferByteStream.fileBacking`: a copied file, a spooled archive's
    /// payload) goes into a pipe with `splice(2)`, without passing through this process's memory; into a socket, or
    /// on a system that cannot splice, it is read and written in chunks.
    ///
    /// - Throws: `CancellationError` when the task is cancelled; `SystemError` from the descriptor (`EPIPE`: the
    ///   reader has gone; `ETIMEDOUT`); the stream's and `written`'s errors.
    package static func write(
        _ stream: TransferByteStream, to descriptor: Int32, timeout: Duration?,
        written: (Int) throws -> Void = { _ in }
    ) async throws {
        let writer = DedicatedWorker()
        defer { writer.close() }
        // A descriptor whose flags cannot be read fails its first write with the reason.
        let wasNonBlocking = try? Syscall.setNonBlocking(descriptor, true)
        defer { if wasNonBlocking == false { _ = try? Syscall.setNonBlocking(descriptor, false) } }
        if let length = stream.length, let backing = stream.fileBacking,
            try await splice(backing, length: length, to: descriptor, timeout: timeout, on: writer, written: written)
        {
            return
        }
        for try await chunk in stream {
            try Task.checkCancellation()
            try await writer.run { () throws(SystemError) in
                let outcome = chunk.withUnsafeBytes { bytes in
                    Result { () throws(SystemError) in try Syscall.write(descriptor, bytes, timeout: timeout) }
                }
                try outcome.get()
            }
            try written(chunk.count)
        }
    }

    /// Moves the `length` bytes of `backing` into the pipe `descriptor` with `splice(2)`, at most 1 MiB per step on
    /// `writer`; `written` is told each step's size.
    /// - Returns: `false` when the pair cannot splice (nothing moved: write the chunks instead).
    /// - Throws: `CancellationError`; `SystemError` from the pipe (`EPIPE`, `ETIMEDOUT`) or the file;
    ///   `TransferError` when the file cannot be opened, or ended early or grew (`lengthMismatch`, as iteration
    ///   reports); `written`'s errors.
    private static func splice(
        _ backing: TransferByteStream.FileBacking, length: UInt64, to descriptor: Int32, timeout: Duration?,
        on writer: DedicatedWorker, written: (Int) throws -> Void
    ) async throws -> Bool {
        let (file, start) = try backing.open()
        defer { Syscall.close(file) }
        var moved: UInt64 = 0
        while moved < length {
            try Task.checkCancellation()
            let count = Int(min(length - moved, 1 << 20))
            let offset = start + Int64(moved)
            let step = try await writer.run { () throws(SystemError) -> Int? in
                var position = offset
                return try Syscall.splice(
                    from: file, offset: &position, toPipe: descriptor, count: count, timeout: timeout)
            }
            guard let step else {
                // Only the first move finds out; a pair that stops splicing midway has failed.
                guard moved == 0 else { throw SystemError(call: "splice", errorNumber: ErrorNumber.invalidArgument) }
                return false
            }
            guard step > 0 else {
                throw TransferByteStream.lengthMismatch(delivered: moved, length: length, ended: true)
            }
            moved += UInt64(step)
            try written(step)
        }
        if backing.isWholeFile, let size = try? Syscall.status(file).size, size > start + Int64(clamping: length) {
            throw TransferByteStream.lengthMismatch(delivered: length + 1, length: length, ended: false)
        }
        return true
    }
}
