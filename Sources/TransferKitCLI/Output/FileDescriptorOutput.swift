import TransferKitPlatform

/// An ``OutputSink`` that writes straight to a POSIX file descriptor, unbuffered.
///
/// Writes retry on `EINTR` and after short writes. A closed pipe (`EPIPE`, as when output is
/// piped into `head`) surfaces as ``ToolIOError`` with code ``ErrorCode/writeFailed`` rather than
/// killing the process, because the tool ignores `SIGPIPE`.
package struct FileDescriptorOutput: OutputSink {
    /// The descriptor written to.
    package let fileDescriptor: Int32

    /// Creates a sink over an open descriptor; the sink does not close it.
    package init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    /// The process's standard output.
    package static let standardOutput = FileDescriptorOutput(fileDescriptor: 1)
    /// The process's standard error.
    package static let standardError = FileDescriptorOutput(fileDescriptor: 2)

    /// Whether the descriptor is a terminal.
    package var isTerminal: Bool { Syscall.isTerminal(fileDescriptor) }

    /// Writes all of `bytes`, retrying after interrupts and short writes.
    /// - Throws: ``ToolIOError`` (``ErrorCode/writeFailed``) with the failed call as its cause.
    package func write(_ bytes: UnsafeRawBufferPointer) throws {
        do {
            try Syscall.write(fileDescriptor, bytes)
        } catch {
            throw ToolIOError.system(.writeFailed, "cannot write output", source: nil, cause: error)
        }
    }
}
