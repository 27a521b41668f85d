#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    @preconcurrency import Darwin
#endif

/// The package's one wrapper over the C library's file and descriptor calls.
///
/// Every other file of the package calls these instead of libc: the C library's module differs between Glibc,
/// Musl and Darwin (so the `#if` switch lives here once), and each call that a signal can interrupt is retried on
/// `EINTR` here, once, rather than in each caller. Failures throw ``SystemError`` carrying `errno` and the call's
/// name, which the public error types of the layers above keep as their `cause`.
package enum Syscall {
    /// Reads once into `buffer`, retrying on `EINTR`.
    /// - Returns: The number of bytes read; 0 at the end of the input.
    /// - Throws: ``SystemError`` for any other failure.
    package static func read(
        _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer
    ) throws(SystemError) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            let count = cRead(descriptor, base, buffer.count)
            if count >= 0 { return count }
            let code = errno
            if code != EINTR { throw SystemError(call: "read", errorNumber: code) }
        }
    }

    /// Calls `body` with a buffer of `byteCount` uninitialized bytes for reads to fill, and frees it after.
    ///
    /// A large buffer costs only the pages a read writes into: malloc maps it fresh and the kernel supplies a page at
    /// its first touch. A zero-filled `[UInt8]` of the same size touches and clears every page first: for a 1 MiB
    /// buffer that a 14-byte input fills one page of, 256 page faults and a megabyte of `memset` (a `transferkit copy`
    /// of a short text took about 1 450 page faults with it and 1 110 without), and a `fork` then copies their tables.
    package static func withReadBuffer<Result, Failure: Error>(
        byteCount: Int, _ body: (UnsafeMutableRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(byteCount, 1), alignment: 16)
        defer { buffer.deallocate() }
        return try body(buffer)
    }

    /// Reads once into the whole of `buffer`, retrying on `EINTR`.
    /// - Returns: The number of bytes read; 0 at the end of the input.
    package static func read(_ descriptor: Int32, into buffer: inout [UInt8]) throws(SystemError) -> Int {
        let outcome = buffer.withUnsafeMutableBytes { bytes in
            Result { () throws(SystemError) in try read(descriptor, into: bytes) }
        }
        return try outcome.get()
    }

    /// Reads until `buffer` is full or the input ends, retrying on `EINTR`.
    /// - Returns: The number of bytes read; less than `buffer.count` only at the end of the input.
    package static func readFully(
        _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer
    ) throws(SystemError) -> Int {
        var total = 0
        while total < buffer.count {
            let count = try read(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: buffer[total...]))
            if count == 0 { break }
            total += count
        }
        return total
    }

    /// Reads at `offset` without moving the descriptor's position (`pread(2)`), retrying on `EINTR`.
    package static func read(
        _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, atOffset offset: Int64
    ) throws(SystemError) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            let count = pread(descriptor, base, buffer.count, off_t(offset))
            if count >= 0 { return count }
            let code = errno
            if code != EINTR { throw SystemError(call: "pread", errorNumber: code) }
        }
    }

    /// Writes all of `bytes`, retrying on `EINTR` and after short writes.
    /// - Throws: ``SystemError``; `EPIPE` when the reading end of a pipe is closed (the tool ignores `SIGPIPE`).
    package static func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        guard var next = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let written = cWrite(descriptor, next, remaining)
            if written < 0 {
                let code = errno
                if code == EINTR { continue }
                throw SystemError(call: "write", errorNumber: code)
            }
            next += written
            remaining -= written
        }
    }

    /// Opens `path` for reading, close-on-exec, retrying on `EINTR`.
    ///
    /// With `nonBlocking`, the open itself cannot block (a FIFO with no writer would otherwise wait forever);
    /// pair it with ``FileStatus/isRegularFile`` before reading.
    package static func openForReading(_ path: String, nonBlocking: Bool = false) throws(SystemError) -> Int32 {
        try openRetrying(path, flags: O_RDONLY | O_CLOEXEC | (nonBlocking ? O_NONBLOCK : 0))
    }

    /// Opens `path` as a location only (`O_PATH`, close-on-exec): a descriptor that names the file without reading
    /// it, as the document portal's `AddFiles` takes (it checks the file through `/proc/self/fd`).
    package static func openPath(_ path: String) throws(SystemError) -> Int32 {
        #if os(Linux)
            // O_PATH is 010000000 on every Linux architecture Swift supports; Glibc's module does not export it
            // (it sits behind _GNU_SOURCE).
            try openRetrying(path, flags: 0o10_000_000 | O_CLOEXEC)
        #else
            try openRetrying(path, flags: O_RDONLY | O_CLOEXEC)
        #endif
    }

    /// Creates (or truncates) `path` for writing, close-on-exec, with permissions `0666` less the umask.
    package static func openForWriting(_ path: String) throws(SystemError) -> Int32 {
        try openRetrying(path, flags: O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC)
    }

    /// A pipe whose both ends close on exec.
    ///
    /// On Linux the flag is set atomically (`pipe2` with `O_CLOEXEC`): a child that another thread spawns at the
    /// same moment cannot inherit an end, which would keep this pipe's reader waiting for an end-of-file for as
    /// long as that child lives.
    /// - Returns: The reading and the writing end.
    package static func makePipe() throws(SystemError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        #if os(Linux)
            if let pipe2 = LinuxCalls.pipe2 {
                guard pipe2(&ends, O_CLOEXEC) == 0 else { throw SystemError(call: "pipe2", errorNumber: errno) }
                return (ends[0], ends[1])
            }
        #endif
        guard pipe(&ends) == 0 else { throw SystemError(call: "pipe", errorNumber: errno) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }

    /// `open(2)` with `flags` (and mode `0666` less the umask when it creates), retried on `EINTR`.
    private static func openRetrying(_ path: String, flags: Int32) throws(SystemError) -> Int32 {
        while true {
            let descriptor = open(path, flags, 0o666)
            if descriptor >= 0 { return descriptor }
            let code = errno
            if code != EINTR { throw SystemError(call: "open", errorNumber: code, path: path) }
        }
    }

    /// Moves up to `count` bytes of the file `input`, from `offset`, into the pipe `output` without copying them
    /// through this process's memory (`splice(2)`), retrying on `EINTR`; advances `offset` by what moved.
    ///
    /// The pipe then refers to the file's cached pages: a reader of the pipe sees the file as it is when it reads, so
    /// a file changed meanwhile arrives changed.
    /// - Returns: The number of bytes moved (0 at the end of the file), or `nil` when this system or this pair of
    ///   descriptors cannot splice (then copy the bytes instead; nothing was moved).
    /// - Throws: ``SystemError`` for any other failure, such as `EPIPE`.
    package static func splice(
        from input: Int32, offset: inout Int64, toPipe output: Int32, count: Int
    ) throws(SystemError) -> Int? {
        var position = offset
        let moved = try withUnsafeMutablePointer(to: &position) { (pointer) throws(SystemError) -> Int? in
            try splice(input, inputOffset: pointer, output, count: count)
        }
        offset = position
        return moved
    }

    /// Moves up to `count` bytes from `input` to `output`, one of which is a pipe, at the descriptors' own positions
    /// (`splice(2)` without offsets), retrying on `EINTR`: a pipe to a pipe, a file or `/dev/null`, or a file or socket
    /// into a pipe, without copying the bytes through this process's memory.
    /// - Returns: The number of bytes moved (0 at the end of the input), or `nil` when this system or this pair of
    ///   descriptors cannot splice (then copy the bytes instead; nothing was moved).
    /// - Throws: ``SystemError`` for any other failure, such as `EPIPE`.
    package static func splice(from input: Int32, to output: Int32, count: Int) throws(SystemError) -> Int? {
        try splice(input, inputOffset: nil, output, count: count)
    }

    /// `splice(2)` from `input` (at `inputOffset`, which it advances, or at the descriptor's position when `nil`) to
    /// `output` at its position, retrying on `EINTR`; `nil` when the pair cannot splice. `nonBlocking` adds
    /// `SPLICE_F_NONBLOCK`: a full pipe is then `EAGAIN` instead of a wait.
    static func splice(
        _ input: Int32, inputOffset: UnsafeMutablePointer<Int64>?, _ output: Int32, count: Int,
        nonBlocking: Bool = false
    ) throws(SystemError) -> Int? {
        #if os(Linux)
            guard let splice = LinuxCalls.splice else { return nil }
            while true {
                // SPLICE_F_MOVE (1) | SPLICE_F_MORE (4): hints only, never an error; SPLICE_F_NONBLOCK (2).
                let moved = splice(input, inputOffset, output, nil, count, 1 | 4 | (nonBlocking ? 2 : 0))
                if moved >= 0 { return moved }
                let code = errno
                switch code {
                case EINTR: continue
                case EINVAL, ENOSYS, EOPNOTSUPP, EBADF, ESPIPE: return nil
                default: throw SystemError(call: "splice", errorNumber: code)
                }
            }
        #else
            return nil
        #endif
    }

    /// Makes the pipe `descriptor` hold up to `byteCount` bytes (`F_SETPIPE_SZ`), never more than the system allows an
    /// unprivileged process (`/proc/sys/fs/pipe-max-size`); a larger pipe lets a writer and a reader take turns less
    /// often. Does nothing for a descriptor that is not a pipe, a pipe that is already as large, or a system without
    /// the call.
    /// - Returns: The pipe's capacity afterwards, or `nil` if it cannot be known (not a pipe, not Linux).
    @discardableResult
    package static func enlargePipe(_ descriptor: Int32, toAtMost byteCount: Int) -> Int? {
        #if os(Linux)
            guard let current = pipeCapacity(descriptor) else { return nil }
            let wanted = min(byteCount, LinuxCalls.pipeMaximumSize ?? byteCount)
            guard wanted > current else { return current }
            // Failure (EPERM beyond the limit, EBUSY, an old kernel) leaves the pipe as it was: fine, only slower.
            _ = fcntl(descriptor, LinuxCalls.setPipeSize, Int32(clamping: wanted))
            return pipeCapacity(descriptor)
        #else
            return nil
        #endif
    }

    /// The capacity of the pipe `descriptor` in bytes (`F_GETPIPE_SZ`), or `nil` when it is not a pipe or the
    /// system cannot say.
    package static func pipeCapacity(_ descriptor: Int32) -> Int? {
        #if os(Linux)
            let size = fcntl(descriptor, LinuxCalls.getPipeSize)
            return size > 0 ? Int(size) : nil
        #else
            return nil
        #endif
    }

    /// Tells the kernel that `descriptor` will be read front to back, so it reads ahead further
    /// (`posix_fadvise(POSIX_FADV_SEQUENTIAL)`, as `cat` does). A hint: failures are ignored.
    package static func adviseSequentialReading(_ descriptor: Int32) {
        #if os(Linux)
            _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_SEQUENTIAL)
        #endif
    }

    /// Moves the descriptor's offset to `offset` from the start.
    package static func seek(_ descriptor: Int32, to offset: Int64) throws(SystemError) {
        guard lseek(descriptor, off_t(offset), SEEK_SET) == off_t(offset) else {
            throw SystemError(call: "lseek", errorNumber: errno)
        }
    }

    /// Closes a descriptor; errors are ignored, as nothing useful can follow a failed `close` of an input.
    package static func close(_ descriptor: Int32) {
        _ = cClose(descriptor)
    }

    /// Closes a descriptor that was written to, reporting a failure (a delayed write error).
    package static func closeAfterWriting(_ descriptor: Int32) throws(SystemError) {
        let result = cClose(descriptor)
        if result != 0, errno != EINTR { throw SystemError(call: "close", errorNumber: errno) }
    }

    /// What `fstat(2)` says about an open descriptor.
    package static func status(_ descriptor: Int32) throws(SystemError) -> FileStatus {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw SystemError(call: "fstat", errorNumber: errno) }
        return FileStatus(
            mode: UInt32(status.st_mode), size: Int64(status.st_size), owner: UInt32(status.st_uid),
            linkCount: UInt64(status.st_nlink),
            identity: FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino)))
    }

    /// The descriptor's current offset, or `nil` for a pipe or socket.
    package static func currentOffset(_ descriptor: Int32) -> Int64? {
        let offset = lseek(descriptor, 0, SEEK_CUR)
        return offset < 0 ? nil : Int64(offset)
    }

    /// Moves the descriptor's offset back to the start.
    package static func rewind(_ descriptor: Int32) throws(SystemError) {
        guard lseek(descriptor, 0, SEEK_SET) == 0 else { throw SystemError(call: "lseek", errorNumber: errno) }
    }

    /// A second descriptor for the same open file.
    package static func duplicate(_ descriptor: Int32) throws(SystemError) -> Int32 {
        let copy = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else { throw SystemError(call: "fcntl", errorNumber: errno) }
        return copy
    }

    /// Whether the descriptor is a terminal.
    package static func isTerminal(_ descriptor: Int32) -> Bool {
        isatty(descriptor) == 1
    }

    /// Whether `descriptor` is the writing end of a pipe or socket whose reader has gone, so that a write to it
    /// fails with `EPIPE`: asked with `poll` (no wait, nothing written).
    package static func readerHasGone(_ descriptor: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        guard cPollOnce(&entry) == 1 else { return false }
        return entry.revents & Int16(POLLERR | POLLHUP) != 0
    }

    /// Removes a file; a missing file is not an error.
    package static func unlink(_ path: String) {
        _ = cUnlink(path)
    }

    /// Removes `path`, reporting a failure (a read-only file system, an immutable file, a folder the caller may not
    /// write) instead of ignoring it as ``unlink(_:)`` does.
    package static func removeFile(_ path: String) throws(SystemError) {
        guard cUnlink(path) == 0 else { throw SystemError(call: "unlink", errorNumber: errno, path: path) }
    }

    /// Renames `source` over `destination` atomically.
    package static func rename(_ source: String, to destination: String) throws(SystemError) {
        let result = cRename(source, destination)
        guard result == 0 else { throw SystemError(call: "rename", errorNumber: errno, path: destination) }
    }

    /// Creates a new file from a `mkstemp(3)` template (ending in `XXXXXX`), readable and writable.
    /// - Returns: The open descriptor and the file's actual path.
    package static func makeTemporaryFile(template: String) throws(SystemError) -> (descriptor: Int32, path: String) {
        var bytes = Array(template.utf8CString)
        let descriptor = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemp(base)
        }
        guard descriptor >= 0 else { throw SystemError(call: "mkstemp", errorNumber: errno, path: template) }
        // Glibc's module lacks mkostemp; children spawned meanwhile may inherit it for this moment only.
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        let path = String(decoding: bytes.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (descriptor, path)
    }

    /// Gives a file created by ``makeTemporaryFile(template:)`` the permissions an ordinary new file gets:
    /// `0666` less the process's umask (`mkstemp` creates it `0600`).
    package static func applyDefaultPermissions(_ descriptor: Int32) {
        let mask = umask(0)
        umask(mask)
        fchmod(descriptor, 0o666 & ~mask)
    }

    /// The target of a symbolic link, such as `/proc/self/exe`.
    package static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink(path, &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The value of an environment variable of this process.
    package static func environmentValue(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// This process's environment variables, read from `environ`: each `NAME=value` entry split at its first `=`,
    /// as `ProcessInfo.processInfo.environment` reads them (bytes that are not UTF-8 become U+FFFD; an entry without
    /// `=` is left out), except that a name given twice keeps its first value, the one `getenv` reads, where
    /// Foundation keeps the last.
    ///
    /// Made in a quarter of Foundation's instructions (110 000 against 410 000 for 44 variables, callgrind):
    /// Foundation splits each entry as `Character`s, and a `transferkit copy` asked for the dictionary three times.
    package static func environment() -> [String: String] {
        // The list is null after `clearenv`. glibc declares `__environ` (imported as an optional); musl declares
        // only `environ`, and Darwin has neither.
        #if canImport(Glibc)
            environment(from: __environ)
        #elseif canImport(Musl)
            environment(from: environ)
        #else
            environment(from: _NSGetEnviron()?.pointee)
        #endif
    }

    /// The variables of `list`, a null-terminated list of `NAME=value` C strings such as `environ`, as
    /// ``environment()`` reads them.
    package static func environment(
        from list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    ) -> [String: String] {
        var variables: [String: String] = [:]
        guard var entry = list else { return variables }
        while let pointer = entry.pointee {
            let bytes = UnsafeBufferPointer(
                start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer))
            if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[..<equals]), as: UTF8.self)
                if variables.index(forKey: name) == nil {
                    variables[name] = String(
                        decoding: UnsafeBufferPointer(rebasing: bytes[(equals + 1)...]), as: UTF8.self)
                }
            }
            entry += 1
        }
        return variables
    }

    /// This machine's host name as the kernel holds it (`gethostname(2)`, the node name of `uname`), without a look-up
    /// of its fully qualified name: what Xlib compares with an Xauthority entry's address and what GLib's
    /// `g_get_host_name` puts in a `file://` URI. `nil` when the call fails.
    ///
    /// Foundation's `ProcessInfo.hostName` also resolves the name (`getaddrinfo`), which reads the resolver's files
    /// and may wait for a name server.
    package static func hostName() -> String? {
        // HOST_NAME_MAX is 64 on Linux; a larger buffer also holds other systems' names, and the terminator.
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Makes `newPath` a second name of the file at `existingPath` (`link(2)`): fails with `EEXIST`, changing
    /// nothing, when `newPath` exists, which makes it a way to create a whole file under a name only once.
    package static func link(_ existingPath: String, to newPath: String) throws(SystemError) {
        guard cLink(existingPath, newPath) == 0 else {
            throw SystemError(call: "link", errorNumber: errno, path: newPath)
        }
    }

    /// Takes an exclusive advisory lock on an open file without waiting (`flock(2)`); the kernel drops it when the
    /// descriptor is closed, also when the process is killed.
    /// - Returns: `false` when another open file description holds the lock (in this process or another).
    package static func lockExclusively(_ descriptor: Int32) throws(SystemError) -> Bool {
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EWOULDBLOCK { return false }
            if code != EINTR { throw SystemError(call: "flock", errorNumber: code) }
        }
        return true
    }

    /// Opens the lock file at `path` (creating it) and takes its exclusive lock without waiting, as
    /// ``lockExclusively(_:)`` does: the lock lasts until the descriptor is closed, or the process ends.
    /// - Returns: The descriptor that holds the lock; `nil` when another open file description holds it or the file
    ///   cannot be opened.
    package static func openLocked(_ path: String) -> Int32? {
        guard let descriptor = try? openForWriting(path) else { return nil }
        guard (try? lockExclusively(descriptor)) == true else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    /// Writes the file's data through to the disk (`fsync(2)`).
    package static func synchronize(_ descriptor: Int32) throws(SystemError) {
        while fsync(descriptor) != 0 {
            let code = errno
            if code != EINTR { throw SystemError(call: "fsync", errorNumber: code) }
        }
    }

    /// The system's description of an `errno` value.
    package static func errorText(_ errorNumber: Int32) -> String {
        String(cString: strerror(errorNumber))
    }

    /// Makes writes to a closed pipe fail with `EPIPE` instead of ending the process with `SIGPIPE`.
    package static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Ignores `SIGXFSZ`, so that a write past the process's file-size limit (`ulimit -f`) fails with `EFBIG`,
    /// which the caller reports, instead of killing the process with a core dump.
    package static func ignoreFileSizeLimitSignal() {
        signal(SIGXFSZ, SIG_IGN)
    }

    /// Ends the process with `status`, without returning.
    package static func exitProcess(_ status: Int32) -> Never {
        exit(status)
    }

    /// Points each of `descriptors` at `/dev/null` (a process that serves on in the background lets go of the
    /// terminal or pipe it was started with); descriptors that cannot be redirected stay as they are.
    package static func redirectToNullDevice(_ descriptors: [Int32]) {
        guard let null = try? openRetrying("/dev/null", flags: O_RDWR | O_CLOEXEC) else { return }
        defer { close(null) }
        for descriptor in descriptors {
            _ = dup2(null, descriptor)
        }
    }

    /// The calling process's id.
    package static var processID: Int32 { getpid() }

    /// This process's real user id.
    package static var userID: UInt32 { getuid() }

    /// Whether a process with id `pid` exists (`kill(pid, 0)`: also when it belongs to another user).
    package static func processExists(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }

    /// What `lstat(2)` says about `path` (a symbolic link itself, not its target), or `nil` if it cannot be read.
    package static func linkStatus(atPath path: String) -> FileStatus? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return FileStatus(
            mode: UInt32(status.st_mode), size: Int64(status.st_size), owner: UInt32(status.st_uid),
            linkCount: UInt64(status.st_nlink),
            identity: FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino)))
    }

    /// The names in the directory at `path` (without `.` and `..`); empty if it cannot be read.
    package static func directoryEntries(atPath path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}

/// Which file a name stands for: its device and inode, stable across renames and different for a file made anew.
package struct FileIdentity: Sendable, Hashable, Codable {
    /// `st_dev`.
    package var device: UInt64
    /// `st_ino`.
    package var inode: UInt64

    /// The identity of the file on `device` with `inode`.
    package init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }
}

/// What `fstat(2)` reports about an open file.
package struct FileStatus: Sendable, Equatable {
    /// `st_mode`.
    package var mode: UInt32
    /// `st_size`: meaningful for regular files only.
    package var size: Int64
    /// `st_uid`: the user who owns it.
    package var owner: UInt32
    /// `st_nlink`: how many names the file has (1 for a file with no second hard link).
    package var linkCount: UInt64 = 1
    /// `st_dev` and `st_ino`: which file it is, whatever its name (0 and 0 where unknown).
    package var identity: FileIdentity = FileIdentity(device: 0, inode: 0)

    /// A regular file (not a FIFO, a socket, a device or a directory).
    package var isRegularFile: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFREG) }
    /// A directory.
    package var isDirectory: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFDIR) }
    /// A pipe or FIFO.
    package var isPipe: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFIFO) }
    /// A symbolic link (as ``Syscall/linkStatus(atPath:)`` sees one).
    package var isSymbolicLink: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFLNK) }
}

/// The `errno` of named error codes that callers tell apart.
package enum ErrorNumber {
    /// No such file or directory.
    package static var noSuchFile: Int32 { ENOENT }
    /// A path component is not a directory.
    package static var notADirectory: Int32 { ENOTDIR }
    /// The reading end of a pipe is closed.
    package static var brokenPipe: Int32 { EPIPE }
    /// The file system has no room left (`ENOSPC`), the user's quota is used up (`EDQUOT`), or the file would pass
    /// the process's file-size limit (`EFBIG`, with `SIGXFSZ` ignored).
    package static var noRoom: Set<Int32> { [ENOSPC, EDQUOT, EFBIG] }
    /// The file is a directory.
    package static var isADirectory: Int32 { EISDIR }
    /// A wait ran out of time.
    package static var timedOut: Int32 { ETIMEDOUT }
    /// The call does not apply to these arguments (`EINVAL`).
    package static var invalidArgument: Int32 { EINVAL }
    /// The name to create exists already (`link(2)`, `O_EXCL`).
    package static var fileExists: Int32 { EEXIST }
    /// The peer sent more than a message can carry (more file descriptors than asked for).
    package static var messageTooLarge: Int32 { EMSGSIZE }
    /// The call would have waited (a full socket, a full listen queue).
    package static var wouldBlock: Int32 { EAGAIN }
    /// The process has as many descriptors open as its limit allows.
    package static var processDescriptorLimit: Int32 { EMFILE }
    /// The system has as many files open as it allows.
    package static var systemDescriptorLimit: Int32 { ENFILE }
    /// A pending connection was given up before it was accepted.
    package static var connectionAborted: Int32 { ECONNABORTED }
    /// The kernel has no memory or buffer space for the call.
    package static var outOfResources: Set<Int32> { [ENOBUFS, ENOMEM] }
}

// The C library's calls under names that the `Syscall` methods of the same name do not shadow.
private func cClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
private func cPollOnce(_ entry: UnsafeMutablePointer<pollfd>) -> Int32 { poll(entry, 1, 0) }
private func cRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
private func cRename(_ source: String, _ destination: String) -> Int32 { rename(source, destination) }
private func cUnlink(_ path: String) -> Int32 { unlink(path) }
private func cLink(_ existing: String, _ new: String) -> Int32 { link(existing, new) }
private func cWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}

#if os(Linux)
    /// Linux calls and constants that the Glibc module does not import (they are `_GNU_SOURCE` declarations).
    private enum LinuxCalls {
        /// `F_SETPIPE_SZ` and `F_GETPIPE_SZ` (`F_LINUX_SPECIFIC_BASE` + 7 and + 8), fixed in the kernel's ABI.
        static let setPipeSize: Int32 = 1031
        static let getPipeSize: Int32 = 1032

        typealias Offset = UnsafeMutablePointer<Int64>?
        typealias SpliceFunction = @convention(c) (Int32, Offset, Int32, Offset, Int, UInt32) -> Int

        /// `splice(2)` from the C library, looked up once by name: the module map hides its declaration.
        static let splice = CLibrary.function("splice", as: SpliceFunction.self)

        typealias Pipe2Function = @convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32

        /// `pipe2(2)` from the C library, looked up once by name: the module map hides its declaration too.
        static let pipe2 = CLibrary.function("pipe2", as: Pipe2Function.self)

        /// The largest pipe an unprivileged process may ask for, from `/proc/sys/fs/pipe-max-size`.
        static let pipeMaximumSize: Int? = {
            guard let descriptor = try? Syscall.openForReading("/proc/sys/fs/pipe-max-size") else { return nil }
            defer { Syscall.close(descriptor) }
            var bytes = [UInt8](repeating: 0, count: 32)
            guard let count = try? Syscall.read(descriptor, into: &bytes), count > 0 else { return nil }
            let digits = bytes[..<count].prefix { (0x30...0x39).contains($0) }
            return Int(String(decoding: digits, as: UTF8.self))
        }()
    }
#endif

// MARK: - Calls relative to an open folder (issue 35: a file promise written only as a new file)

extension Syscall {
    /// Opens the folder `name` inside the open folder `parent` (`nil`: `name` is a path from the current folder, or
    /// absolute), close-on-exec, without following a symbolic link at `name` (`O_NOFOLLOW`): a link, or anything but
    /// a folder, fails (`ELOOP`, `ENOTDIR`).
    package static func openFolderWithoutFollowing(_ name: String, in parent: Int32?) throws(SystemError) -> Int32 {
        let flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
        while true {
            let descriptor = openat(parent ?? AT_FDCWD, name, flags)
            if descriptor >= 0 { return descriptor }
            let code = errno
            if code != EINTR { throw SystemError(call: "openat", errorNumber: code, path: name) }
        }
    }

    /// Creates the folder `name` inside the open folder `parent` with permissions `mode` (less the umask): fails
    /// with `EEXIST` when anything has that name, a symbolic link included.
    package static func makeFolder(_ name: String, in parent: Int32, mode: UInt32) throws(SystemError) {
        guard mkdirat(parent, name, mode_t(mode)) == 0 else {
            throw SystemError(call: "mkdirat", errorNumber: errno, path: name)
        }
    }

    /// What `fstatat(2)` says about `name` inside the open folder `parent`, not following a symbolic link there,
    /// or why it cannot be read (`ENOENT`: nothing has that name).
    package static func linkStatus(_ name: String, in parent: Int32) -> Result<FileStatus, SystemError> {
        var status = stat()
        guard fstatat(parent, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else {
            return .failure(SystemError(call: "fstatat", errorNumber: errno, path: name))
        }
        return .success(
            FileStatus(
                mode: UInt32(status.st_mode), size: Int64(status.st_size), owner: UInt32(status.st_uid),
                linkCount: UInt64(status.st_nlink),
                identity: FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))))
    }

    /// Gives the file `name` of the open folder `source` a second name, `newName` in the open folder `destination`
    /// (`linkat(2)`, not following a symbolic link): fails with `EEXIST`, changing nothing, when anything has that
    /// name, so it creates a whole file under a name only once.
    package static func link(
        _ name: String, in source: Int32, to newName: String, in destination: Int32
    ) throws(SystemError) {
        guard linkat(source, name, destination, newName, 0) == 0 else {
            throw SystemError(call: "linkat", errorNumber: errno, path: newName)
        }
    }

    /// Removes `name` from the open folder `parent` (a folder, which must be empty, with `isFolder`); a failure is
    /// ignored (it is cleanup).
    package static func remove(_ name: String, in parent: Int32, isFolder: Bool = false) {
        _ = unlinkat(parent, name, isFolder ? AT_REMOVEDIR : 0)
    }
}

extension Syscall {
    /// Creates `path` as a new file for writing, close-on-exec, with permissions `0666` less the umask: fails with
    /// `EEXIST` when anything has that name (a symbolic link included, which is not followed).
    package static func createNewFile(atPath path: String) throws(SystemError) -> Int32 {
        while true {
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
            if descriptor >= 0 { return descriptor }
            let code = errno
            if code != EINTR { throw SystemError(call: "open", errorNumber: code, path: path) }
        }
    }
}

extension Syscall {
    /// What `stat(2)` says about `path`, following symbolic links, without opening it (a socket cannot be opened, a
    /// FIFO would wait for a writer, a device may act on an open).
    /// - Throws: ``SystemError`` when there is no such file or it cannot be examined.
    package static func status(atPath path: String) throws(SystemError) -> FileStatus {
        var status = stat()
        guard stat(path, &status) == 0 else { throw SystemError(call: "stat", errorNumber: errno) }
        return FileStatus(
            mode: UInt32(status.st_mode), size: Int64(status.st_size), owner: UInt32(status.st_uid),
            linkCount: UInt64(status.st_nlink),
            identity: FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino)))
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

extension UnsafeRawBufferPointer {
    /// Whether this buffer holds the same bytes as `other` (`memcmp(3)`): the standard library's generic
    /// `elementsEqual` walks byte by byte through an iterator, which was a twentieth of loading a large
    /// declaration file (its keys and identifiers are compared once each).
    package func hasSameBytes(as other: UnsafeRawBufferPointer) -> Bool {
        guard count == other.count else {
            return false
        }
        guard count > 0, let lhs = baseAddress, let rhs = other.baseAddress else {
            return true
        }
        return memcmp(lhs, rhs, count) == 0
    }
}
