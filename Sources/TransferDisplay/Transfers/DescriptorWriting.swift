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
    /// - Throws: `CancellationError` when the task is cancelled; `SystemError` from the descriptor (`EPIPE`: the
    ///   reader has gone; `ETIMEDOUT`); the stream's and `written`'s errors.
    package static func write(
        _ stream: TransferByteStream, to descriptor: Int32, timeout: Duration?,
        written: (Int) throws -> Void = { _ in }
    ) async throws {
        let writer = DedicatedWorker()
        defer { writer.close() }
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
}
