#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    @preconcurrency import Darwin
#endif

extension Syscall {
    /// Who owns an open file, and its permission bits.
    package struct Ownership: Sendable, Equatable {
        /// `st_uid`.
        package var owner: UInt32
        /// `st_mode & 0o7777`.
        package var permissions: UInt32
        /// Whether it is a regular file.
        package var isRegularFile: Bool

        /// Whether the file is this process's user's and neither its group nor every user may write it: what a
        /// file that holds this user's private data must be, when others could have planted it.
        package var isPrivateToThisUser: Bool {
            owner == Syscall.userID && permissions & 0o022 == 0
        }
    }

    /// The owner and permission bits of an open descriptor (`fstat(2)`).
    package static func ownership(_ descriptor: Int32) throws(SystemError) -> Ownership {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw SystemError(call: "fstat", errorNumber: errno) }
        return Ownership(
            owner: UInt32(status.st_uid), permissions: UInt32(status.st_mode) & 0o7777,
            isRegularFile: UInt32(status.st_mode) & UInt32(S_IFMT) == UInt32(S_IFREG))
    }

    /// Sets an open file's permission bits (`fchmod(2)`), such as `0o600` for a file only its user may read.
    package static func setPermissions(_ descriptor: Int32, _ permissions: UInt32) throws(SystemError) {
        guard fchmod(descriptor, mode_t(permissions)) == 0 else {
            throw SystemError(call: "fchmod", errorNumber: errno)
        }
    }

    /// Opens `path` for reading without following a symbolic link in its last component (`O_NOFOLLOW`: a link
    /// fails with `ELOOP`), retrying on `EINTR`.
    package static func openForReadingNoFollow(_ path: String) throws(SystemError) -> Int32 {
        while true {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
            if descriptor >= 0 { return descriptor }
            let code = errno
            if code != EINTR { throw SystemError(call: "open", errorNumber: code, path: path) }
        }
    }
}
