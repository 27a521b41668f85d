/// Reading a whole, bounded regular file: type declarations, the MIME database's files.
package enum RegularFile {
    /// Why a file could not be read.
    package enum Failure: Error, Sendable, Equatable {
        /// No such file, or a path component is missing or not a directory.
        case missing
        /// The path names something that is not a regular file (a FIFO, a device, a directory).
        case notRegular
        /// The file is larger than the limit.
        case tooLarge(size: Int64, limit: Int)
        /// A system call failed.
        case system(SystemError)
    }

    /// Reads the whole file at `path`, which must be a regular file of at most `limit` bytes.
    ///
    /// The open never blocks: it uses `O_NONBLOCK`, so a FIFO planted where a file is expected is refused as
    /// ``Failure/notRegular`` instead of waiting forever for a writer.
    package static func read(atPath path: String, limit: Int) -> Result<[UInt8], Failure> {
        withFile(atPath: path) { descriptor, status in
            guard status.isRegularFile else { return .failure(.notRegular) }
            guard status.size <= Int64(limit) else { return .failure(.tooLarge(size: status.size, limit: limit)) }
            // The file can grow between fstat and read: read one byte past the size to notice, up to the limit.
            let capacity = Int(min(status.size + 1, Int64(limit) + 1))
            return readBytes(descriptor, capacity: capacity).flatMap { bytes in
                bytes.count <= limit ? .success(bytes) : .failure(.tooLarge(size: Int64(bytes.count), limit: limit))
            }
        }
    }

    /// What ``readPrefix(atPath:count:)`` found: a regular file's size and its first bytes, or a directory.
    package enum Prefix: Sendable, Equatable {
        /// A regular file of `size` bytes, of which `bytes` are the first ones.
        case regularFile(size: Int64, bytes: [UInt8])
        /// A directory.
        case directory
    }

    /// Reads at most `count` bytes from the start of the regular file at `path`, with the same non-blocking open
    /// as ``read(atPath:limit:)``; a directory is reported as such, anything else is ``Failure/notRegular``.
    package static func readPrefix(atPath path: String, count: Int) -> Result<Prefix, Failure> {
        withFile(atPath: path) { descriptor, status in
            if status.isDirectory { return .success(.directory) }
            guard status.isRegularFile else { return .failure(.notRegular) }
            return readBytes(descriptor, capacity: Int(min(status.size, Int64(max(0, count))))).map {
                .regularFile(size: status.size, bytes: $0)
            }
        }
    }

    /// Opens `path` without blocking (a FIFO never waits for a writer), reads its status and hands both to `body`.
    private static func withFile<Value>(
        atPath path: String, _ body: (Int32, FileStatus) -> Result<Value, Failure>
    ) -> Result<Value, Failure> {
        let descriptor: Int32
        do {
            descriptor = try Syscall.openForReading(path, nonBlocking: true)
        } catch {
            let missing = error.errorNumber == ErrorNumber.noSuchFile || error.errorNumber == ErrorNumber.notADirectory
            return .failure(missing ? .missing : .system(error))
        }
        defer { Syscall.close(descriptor) }
        do {
            return body(descriptor, try Syscall.status(descriptor))
        } catch {
            return .failure(.system(error))
        }
    }

    /// Reads up to `capacity` bytes, fewer at the end of the file.
    private static func readBytes(_ descriptor: Int32, capacity: Int) -> Result<[UInt8], Failure> {
        var failure: SystemError?
        let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            do throws(SystemError) {
                initialized = try Syscall.readFully(descriptor, into: UnsafeMutableRawBufferPointer(buffer))
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { return .failure(.system(failure)) }
        return .success(bytes)
    }
}
