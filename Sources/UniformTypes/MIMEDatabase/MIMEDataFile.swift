#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The bytes of one file of a mime directory, read with a single `read(2)` where the file allows.
///
/// The loader needs to tell a missing file (normal: most directories lack most files) from one that is
/// present but cannot be read (worth reporting), which `FileManager.contents(atPath:)` does not.
enum MIMEDataFile: Equatable, Sendable {
    /// The file was read completely.
    case contents([UInt8])
    /// No such file (or a path component is missing or not a directory).
    case missing
    /// The file exists but could not be read: permissions, not a regular file, too large, I/O error.
    case unreadable

    /// Files larger than this are refused: the system's largest text file is ~40 KiB and each type's XML
    /// file a few KiB, so anything this big is not a mime database file and must not exhaust memory.
    static let maximumSize = 16 * 1024 * 1024

    /// Reads the whole file at `path`.
    static func read(atPath path: String) -> MIMEDataFile {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            return errno == ENOENT || errno == ENOTDIR ? .missing : .unreadable
        }
        defer { _ = close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return .unreadable }
        let size = Int(status.st_size)
        guard size >= 0, size <= maximumSize else { return .unreadable }
        if size == 0 { return .contents([]) }

        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initializedCount in
            var total = 0
            while total < size, let base = buffer.baseAddress {
                let count = systemRead(descriptor, base + total, size - total)
                if count > 0 {
                    total += count
                } else if count == 0 {
                    break
                } else if errno != EINTR {
                    failed = true
                    break
                }
            }
            initializedCount = total
        }
        return failed ? .unreadable : .contents(bytes)
    }
}

/// `read(2)`, spelled so that it does not clash with `MIMEDataFile.read(atPath:)`.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
        Glibc.read(descriptor, buffer, count)
    #elseif canImport(Musl)
        Musl.read(descriptor, buffer, count)
    #else
        Darwin.read(descriptor, buffer, count)
    #endif
}
