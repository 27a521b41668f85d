import Dispatch

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    @preconcurrency import Darwin
#endif

/// Writes output files atomically: into a temporary file beside the destination, renamed into place only when the
/// whole file is written.
///
/// A failure, a crash or Ctrl-C never leaves a half-written file at the destination; an existing file there stays
/// untouched until the rename. The temporary file is removed when the body throws, and (once
/// ``installInterruptCleanup()`` has run) when the process is interrupted with SIGINT or SIGTERM. The file is not
/// fsynced: the rename protects against a crash of the process, not against a power loss.
package enum AtomicFile {
    private static let pending = SanitizedMutex<Set<String>>([])

    /// Writes the file at `path` through `body`, which receives the temporary file's descriptor.
    /// - Returns: What `body` returns.
    /// - Throws: ``SystemError`` when the file cannot be created or renamed; anything `body` throws.
    package static func write<R>(toPath path: String, _ body: (Int32) async throws -> R) async throws -> R {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let descriptor: Int32
        let temporary: String
        do {
            (descriptor, temporary) = try Syscall.makeTemporaryFile(template: "\(directory).\(name).tmp-XXXXXX")
        } catch {
            throw SystemError(call: error.call, errorNumber: error.errorNumber, path: path)
        }
        pending.withLock { _ = $0.insert(temporary) }
        defer { pending.withLock { _ = $0.remove(temporary) } }
        do {
            Syscall.applyDefaultPermissions(descriptor)
            let result = try await body(descriptor)
            try Syscall.closeAfterWriting(descriptor)
            try Syscall.rename(temporary, to: path)
            return result
        } catch {
            Syscall.close(descriptor)
            Syscall.unlink(temporary)
            throw error
        }
    }

    /// Removes pending temporary files when the process receives SIGINT or SIGTERM, then exits with status 128
    /// plus the signal number. The tool's `main()` calls it.
    package static func installInterruptCleanup() {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                for path in pending.withLock({ $0 }) { Syscall.unlink(path) }
                exit(128 + signalNumber)
            }
            // Dispatch arms the source on its manager thread some time after `resume()`; until then the signal
            // is ignored and would be lost. Wait for the registration, so an interrupt that comes right after
            // this call (as soon as an output file exists) is always handled.
            let armed = DispatchSemaphore(value: 0)
            source.setRegistrationHandler { armed.signal() }
            source.resume()
            armed.wait()
            sources.withLock { $0.append(RetainedSource(source: source)) }
        }
    }

    private static let sources = SanitizedMutex<[RetainedSource]>([])

    /// Keeps a signal source alive for the life of the process. Dispatch sources are thread-safe objects, but the
    /// Dispatch overlay does not mark them `Sendable`.
    private struct RetainedSource: @unchecked Sendable {
        let source: any DispatchSourceSignal
    }
}
