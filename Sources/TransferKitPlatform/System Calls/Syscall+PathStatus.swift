#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    @preconcurrency import Darwin
#endif

extension Syscall {
    /// What `stat(2)` says about `path`, following symbolic links, without opening it (a socket cannot be opened, a
    /// FIFO would wait for a writer, a device may act on an open).
    /// - Throws: ``SystemError`` when there is no such file or it cannot be examined.
    package static func status(atPath path: String) throws(SystemError) -> FileStatus {
        var status = stat()
        guard stat(path, &status) == 0 else { throw SystemError(call: "stat", errorNumber: errno) }
        return FileStatus(mode: UInt32(status.st_mode), size: Int64(status.st_size))
    }
}

extension FileStatus {
    /// A character device (`/dev/null`, `/dev/zero`, a terminal).
    package var isCharacterDevice: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFCHR) }
    /// A block device (a disk).
    package var isBlockDevice: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFBLK) }
    /// A Unix-domain socket.
    package var isSocket: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFSOCK) }
}
