import Synchronization
import TransferKitPlatform
import UniformTypes

/// An ``OutputSink`` that keeps everything written in memory, for tests and for capturing a
/// command's output in-process.
package final class MemoryOutput: OutputSink {
    private let storage = SanitizedMutex<[UInt8]>([])

    /// Creates an empty sink.
    package init() {}

    /// Appends `bytes`.
    package func write(_ bytes: UnsafeRawBufferPointer) {
        storage.withLock { $0.append(contentsOf: bytes) }
    }

    /// Everything written so far.
    package var bytes: [UInt8] { storage.withLock { $0 } }

    /// Everything written so far, decoded as UTF-8 (invalid sequences repaired).
    package var text: String { String(decoding: bytes, as: UTF8.self) }
}
