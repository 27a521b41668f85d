import Dispatch
import Synchronization
import UniformTypes

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes output files atomically: into a temporary file beside the destination, renamed into
/// place only when the whole file is written.
///
/// A failure, a crash or Ctrl-C never leaves a half-written file at the destination; an
/// existing file there stays untouched until the rename. The temporary file is removed when
/// the body throws, and (once ``installInterruptCleanup()`` has run) when the process is
/// interrupted with SIGINT or SIGTERM. The file is not fsynced: the rename protects against a
/// crash of the process, not against a power loss.
public enum AtomicFile {
    /// A file that could not be created, written or renamed into place.
    public struct WriteError: Error, Sendable, CustomStringConvertible {
        /// The destination path.
        public var path: String
        /// The `errno` value of the failed call.
        public var errorNumber: Int32

        /// What failed, in one line.
        public var description: String {
            "cannot write \(path): " + String(cString: strerror(errorNumber))
        }
    }

    private static let pending = SanitizedMutex<Set<String>>([])

    /// Writes the file at `path` through `body`, which receives a sink on the temporary file.
    /// - Returns: What `body` returns.
    /// - Throws: ``WriteError`` when the file cannot be created or renamed; anything `body` throws.
    public static func write<R>(
        toPath path: String, _ body: (FileDescriptorOutput) async throws -> R
    ) async throws -> R {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var template = Array("\(directory).\(name).tmp-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemp(base)
        }
        guard descriptor >= 0 else { throw WriteError(path: path, errorNumber: errno) }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        pending.withLock { _ = $0.insert(temporary) }
        defer { pending.withLock { _ = $0.remove(temporary) } }
        do {
            let mask = umask(0)
            umask(mask)
            fchmod(descriptor, 0o666 & ~mask)
            let result = try await body(FileDescriptorOutput(fileDescriptor: descriptor))
            guard close(descriptor) == 0 else { throw WriteError(path: path, errorNumber: errno) }
            guard rename(temporary, path) == 0 else { throw WriteError(path: path, errorNumber: errno) }
            return result
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
    }

    /// Removes pending temporary files when the process receives SIGINT or SIGTERM, then
    /// exits with status 128 plus the signal number. ``TransferKitTool/main()`` calls it.
    public static func installInterruptCleanup() {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                for path in pending.withLock({ $0 }) { unlink(path) }
                exit(128 + signalNumber)
            }
            source.resume()
            sources.withLock { $0.append(RetainedSource(source: source)) }
        }
    }

    private static let sources = SanitizedMutex<[RetainedSource]>([])

    /// Keeps a signal source alive for the life of the process. Dispatch sources are
    /// thread-safe objects, but the Dispatch overlay does not mark them `Sendable`.
    private struct RetainedSource: @unchecked Sendable {
        let source: any DispatchSourceSignal
    }
}
