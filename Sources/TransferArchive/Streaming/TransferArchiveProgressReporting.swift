/// Follows one payload as the streaming reader or writer moves it, chunk by chunk, and can stop it.
///
/// `TransferProgress` (from TransferKit) conforms, so `import TransferKit` code passes one as before. Conform your
/// own type to drive a progress bar or to cancel from elsewhere; calls come on the thread that reads or writes,
/// once per chunk (at most ``TransferArchiveReader/chunkSize`` bytes), never per byte.
///
/// ```swift
/// final class Meter: TransferArchiveProgressReporting {
///     var total: UInt64 = 0, done: UInt64 = 0
///     func willTransfer(byteCount: UInt64) { total = byteCount }
///     func didTransfer(byteCount: Int) { done += UInt64(byteCount) }
///     var isCancelled: Bool { false }
/// }
/// try reader.readPayload(progress: Meter()) { chunk in try output.write(chunk) }
/// ```
public protocol TransferArchiveProgressReporting {
    /// Called once before the first chunk with the payload's length in bytes.
    func willTransfer(byteCount: UInt64)
    /// Called after each chunk with the number of bytes it held.
    func didTransfer(byteCount: Int)
    /// Checked before each chunk: `true` stops the read or write with ``TransferArchiveError``'s
    /// `cancelled` code.
    var isCancelled: Bool { get }
}
