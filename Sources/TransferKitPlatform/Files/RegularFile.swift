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
        let descriptor: Int32
        do {
            descriptor = try Syscall.openForReading(path, nonBlocking: true)
        } catch {
            let missing = error.errorNumber == ErrorNumber.noSuchFile || error.errorNumber == ErrorNumber.notADirectory
            return .failure(missing ? .missing : .system(error))
        }
        defer { Syscall.close(descriptor) }
        do {
            let status = try Syscall.status(descriptor)
            guard status.isRegularFile else { return .failure(.notRegular) }
            guard status.size <= Int64(limit) else { return .failure(.tooLarge(size: status.size, limit: limit)) }
            // The file can grow between fstat and read: read one byte past the size to notice, up to the limit.
            let capacity = Int(min(status.size + 1, Int64(limit) + 1))
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
            guard bytes.count <= limit else { return .failure(.tooLarge(size: Int64(bytes.count), limit: limit)) }
            return .success(bytes)
        } catch {
            return .failure(.system(error))
        }
    }
}
