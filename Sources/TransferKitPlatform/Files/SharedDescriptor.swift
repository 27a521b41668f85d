/// An open file descriptor that several readers share, closed when the last of them lets go.
///
/// A stream that reads ranges of a spool file with `pread` holds one, so a paste that is still reading keeps the file
/// open after its owner (a restored archive, a kept snapshot) has been replaced, and the number can never be reused
/// for another file while a reader still has it.
package final class SharedDescriptor: Sendable {
    /// The descriptor; valid as long as this object exists.
    package let descriptor: Int32

    /// Takes ownership of `descriptor`: it is closed when this object goes.
    package init(adopting descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        Syscall.close(descriptor)
    }
}
