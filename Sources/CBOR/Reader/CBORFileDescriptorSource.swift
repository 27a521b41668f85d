import TransferKitPlatform

/// A byte source that reads a POSIX file descriptor (a file, a pipe, a socket) with `read(2)`.
///
/// The source neither owns nor closes the descriptor. With Foundation, pass
/// `fileHandle.fileDescriptor`.
///
/// ```swift
/// var reader = CBORReader(source: CBORFileDescriptorSource(fileDescriptor: handle.fileDescriptor))
/// let header = try reader.readValue()
/// ```
public struct CBORFileDescriptorSource: CBORByteSource, Sendable {
    /// The descriptor read from.
    public let fileDescriptor: Int32

    /// Creates a source over an open descriptor.
    public init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    /// Reads once from the descriptor, retrying when a signal interrupts the call.
    /// - Throws: `CBORError.Code.readFailed` with the `errno` in the message.
    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        do {
            return try Syscall.read(fileDescriptor, into: buffer)
        } catch {
            throw CBORError(
                code: .readFailed, message: "Reading descriptor \(fileDescriptor) failed: \(error.reason).",
                cause: error)
        }
    }
}
