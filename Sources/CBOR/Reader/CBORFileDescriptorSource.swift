#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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
    /// - Throws: ``CBORError/Code/readFailed`` with the `errno` in the message.
    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            #if canImport(Glibc)
                let result = Glibc.read(fileDescriptor, base, buffer.count)
            #elseif canImport(Musl)
                let result = Musl.read(fileDescriptor, base, buffer.count)
            #else
                let result = Darwin.read(fileDescriptor, base, buffer.count)
            #endif
            if result >= 0 {
                return result
            }
            let code = errno
            if code != EINTR {
                throw CBORError(.readFailed, "read(2) on descriptor \(fileDescriptor) failed with errno \(code)")
            }
        }
    }
}
