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
/// ``installInterruptCleanup()`` has run) when the process gets any catchable signal that would end it:
/// ``cleanupSignals``. `SIGPIPE` is not among them: the tool ignores it, so a write to a closed pipe fails with
/// `EPIPE` (the body throws, and the file is removed like on any error), and a `SIGPIPE` sent with `kill` does not
/// end the process, which finishes or fails as it would have, renaming or removing the file itself. The signal
/// handling is set up by the process's first write, before its temporary file exists: a process that writes no file
/// keeps the signals' default actions and never pays for them.
///
/// Only `SIGKILL` (or a power loss) can leave a temporary file behind. Its name says whose it is,
/// `.transferkit-tmp-<pid>-<name>.XXXXXX`, and the next ``write(toPath:_:)`` into the same directory removes those
/// whose process is gone. The file is not fsynced: the rename protects against a crash of the process, not against
/// a power loss.
package enum AtomicFile {
    /// The directories that writes are under way in, with how many writes each. A directory is entered before its
    /// temporary file is made: a signal that comes as soon as the file exists (before `mkstemp` has even returned
    /// its name) must still find it, which a set of names entered after creation missed under load.
    private static let pending = SanitizedMutex<[String: Int]>([:])

    /// Writes the file at `path` through `body`, which receives the temporary file's descriptor.
    /// - Returns: What `body` returns.
    /// - Throws: ``SystemError`` when the file cannot be created or renamed; anything `body` throws.
    package static func write<R>(toPath path: String, _ body: (Int32) async throws -> R) async throws -> R {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return try await write(inDirectory: directory, temporaryFor: name, reportedAs: path, body) {
            temporary throws(SystemError) in
            try Syscall.rename(temporary, to: path)
        }
    }

    /// Writes a new file in `directory` through `body`, as ``write(toPath:_:)`` does, under the first of `names` that
    /// no file has: the whole file is linked into place (`link(2)`, which never replaces a file), so a name taken
    /// meanwhile by another process is skipped, never overwritten.
    /// - Parameters:
    ///   - directory: The folder, ending with `/` (or empty for the current one).
    ///   - names: The names to try, in order (a finite sequence).
    /// - Returns: What `body` returns, and the name the file got.
    /// - Throws: ``SystemError`` (`EEXIST` when every name is taken) when the file cannot be created or linked;
    ///   anything `body` throws.
    package static func writeNew<R>(
        inDirectory directory: String, firstFreeOf names: [String], _ body: (Int32) async throws -> R
    ) async throws -> (result: R, name: String) {
        let first = names.first ?? "file"
        var chosen = first
        let result = try await write(inDirectory: directory, temporaryFor: first, reportedAs: directory + first, body) {
            temporary throws(SystemError) in
            defer { Syscall.unlink(temporary) }
            chosen = try link(temporary, inDirectory: directory, firstFreeOf: names)
        }
        return (result, chosen)
    }

    /// Gives the file at `path` a second name in `directory`, the first of `names` that no file has (`link(2)`, which
    /// never replaces a file, so a name taken meanwhile by another process is skipped).
    /// - Parameters:
    ///   - directory: The folder, ending with `/` (or empty for the current one).
    ///   - names: The names to try, in order.
    /// - Returns: The name the file got.
    /// - Throws: ``SystemError`` (`EEXIST` when every name is taken) when the link cannot be made.
    package static func link(
        _ path: String, inDirectory directory: String, firstFreeOf names: [String]
    ) throws(SystemError) -> String {
        for name in names {
            do throws(SystemError) {
                try Syscall.link(path, to: directory + name)
                return name
            } catch {
                guard error.errorNumber == ErrorNumber.fileExists else { throw error }
            }
        }
        throw SystemError(call: "link", errorNumber: ErrorNumber.fileExists, path: directory + (names.first ?? ""))
    }

    /// Writes a temporary file for `name` in `directory` through `body`, then puts it in place with `place`.
    private static func write<R>(
        inDirectory directory: String, temporaryFor name: String, reportedAs path: String,
        _ body: (Int32) async throws -> R, place: (String) throws(SystemError) -> Void
    ) async throws -> R {
        armInterruptCleanupIfAsked()
        removeStaleTemporaryFiles(inDirectory: directory)
        pending.withLock { $0[directory, default: 0] += 1 }
        defer {
            pending.withLock { pending in
                let count = (pending[directory] ?? 1) - 1
                pending[directory] = count > 0 ? count : nil
            }
        }
        let descriptor: Int32
        let temporary: String
        do {
            (descriptor, temporary) = try Syscall.makeTemporaryFile(
                template: directory + temporaryName(for: name, processID: Syscall.processID))
        } catch {
            throw SystemError(call: error.call, errorNumber: error.errorNumber, path: path)
        }
        do {
            Syscall.applyDefaultPermissions(descriptor)
            let result = try await body(descriptor)
            try Syscall.closeAfterWriting(descriptor)
            try place(temporary)
            return result
        } catch {
            Syscall.close(descriptor)
            Syscall.unlink(temporary)
            throw error
        }
    }

    /// Writes `bytes` as the whole file at `path` so that it survives a crash of the process and a power loss: into a
    /// temporary file beside it, flushed to the disk, then put in place and the directory flushed too.
    ///
    /// With `replacingExisting` the file is renamed over whatever is at `path` (a reader sees the old file or the new
    /// one, never a mix); without it, it is linked into place, which fails with `EEXIST`, changing nothing, when
    /// `path` exists: a name that is written once, by the first process to get there.
    /// - Throws: ``SystemError`` when a step fails; the temporary file is removed then.
    package static func writeDurably(
        _ bytes: [UInt8], toPath path: String, replacingExisting: Bool = true
    ) throws(SystemError) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        removeStaleTemporaryFiles(inDirectory: directory)
        let (descriptor, temporary) = try Syscall.makeTemporaryFile(
            template: directory + temporaryName(for: name, processID: Syscall.processID))
        do throws(SystemError) {
            do {
                defer { Syscall.close(descriptor) }
                Syscall.applyDefaultPermissions(descriptor)
                let written = bytes.withUnsafeBytes { bytes in
                    Result { () throws(SystemError) in try Syscall.write(descriptor, bytes) }
                }
                try written.get()
                try Syscall.synchronize(descriptor)
            }
            if replacingExisting {
                try Syscall.rename(temporary, to: path)
            } else {
                defer { Syscall.unlink(temporary) }
                try Syscall.link(temporary, to: path)
            }
        } catch {
            Syscall.unlink(temporary)
            throw SystemError(call: error.call, errorNumber: error.errorNumber, path: path)
        }
        let folder = try Syscall.openForReading(directory.isEmpty ? "." : directory)
        defer { Syscall.close(folder) }
        try Syscall.synchronize(folder)
    }

    /// The signals after which ``installInterruptCleanup()`` removes pending temporary files: every catchable signal
    /// whose default action ends the process, except `SIGPIPE`, which the tool ignores (see ``AtomicFile``).
    package static let cleanupSignals: [Int32] = [SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGTERM]

    /// The start of every temporary file's name.
    package static let temporaryPrefix = ".transferkit-tmp-"

    /// The `mkstemp` template of a temporary file for the output `name`, made by the process `processID`:
    /// `.transferkit-tmp-<pid>-<name>.XXXXXX`, the name cut to 200 bytes so the whole fits in `NAME_MAX`.
    static func temporaryName(for name: String, processID: Int32) -> String {
        "\(temporaryPrefix)\(processID)-\(String(decoding: name.utf8.prefix(200), as: UTF8.self)).XXXXXX"
    }

    /// The process that made the temporary file called `name`, or `nil` if `name` is not one of ours.
    static func owner(ofTemporaryName name: String) -> Int32? {
        guard name.hasPrefix(temporaryPrefix) else { return nil }
        let digits = name.utf8.dropFirst(temporaryPrefix.utf8.count).prefix { $0 >= 0x30 && $0 <= 0x39 }
        guard !digits.isEmpty, digits.count <= 10,
            name.utf8.dropFirst(temporaryPrefix.utf8.count + digits.count).first == UInt8(ascii: "-")
        else { return nil }
        return Int32(String(decoding: digits, as: UTF8.self))
    }

    /// Removes the temporary files in `directory` (a path ending in `/`, or empty for the current directory) that a
    /// process which no longer exists left behind, such as one killed with `SIGKILL`. Only regular files whose name
    /// has our prefix and a pid are touched; those of live processes (and of this one) stay.
    /// - Returns: The paths removed.
    @discardableResult
    package static func removeStaleTemporaryFiles(inDirectory directory: String) -> [String] {
        removeTemporaryFiles(inDirectory: directory) { pid in
            pid != Syscall.processID && !Syscall.processExists(pid)
        }
    }

    /// Removes this process's own temporary files in `directory`: what an ending signal leaves to clean up.
    private static func removeOwnTemporaryFiles(inDirectory directory: String) {
        removeTemporaryFiles(inDirectory: directory) { $0 == Syscall.processID }
    }

    /// Removes the regular files in `directory` whose name is a temporary file's and whose owner `isRemovable`.
    @discardableResult
    private static func removeTemporaryFiles(
        inDirectory directory: String, where isRemovable: (Int32) -> Bool
    )
        -> [String]
    {
        var removed: [String] = []
        for name in Syscall.directoryEntries(atPath: directory.isEmpty ? "." : directory) {
            guard let pid = owner(ofTemporaryName: name), isRemovable(pid) else { continue }
            let path = directory + name
            guard Syscall.linkStatus(atPath: path)?.isRegularFile == true else { continue }
            Syscall.unlink(path)
            removed.append(path)
        }
        return removed
    }

    /// Removes pending temporary files when the process receives one of ``cleanupSignals``, then exits with status
    /// 128 plus the signal number (what a shell reports for a process the signal ended). The tool's `main()` calls
    /// it.
    ///
    /// The signal sources are armed by the first ``write(toPath:_:)`` or ``writeNew(inDirectory:firstFreeOf:_:)``
    /// after this call, before that write's temporary file is made, not here: arming them starts Dispatch's threads
    /// and waits for seven registrations, over a millisecond of a start, which a command that writes no file (a
    /// `copy`, a `paste` to standard output, `--version`) has no use for. Until then the signals keep their default
    /// actions, which end the process as the cleanup would, with no file of ours to remove.
    package static func installInterruptCleanup() {
        cleanup.withLock { state in
            if state == .off {
                state = .asked
            }
        }
    }

    /// Whether ``installInterruptCleanup()`` asked for the cleanup, and whether its signal sources are armed.
    private enum CleanupState {
        case off, asked, armed
    }

    private static let cleanup = SanitizedMutex(CleanupState.off)

    /// Arms the signal sources if ``installInterruptCleanup()`` asked for them and no write has armed them yet; a
    /// concurrent write waits until they are.
    private static func armInterruptCleanupIfAsked() {
        cleanup.withLock { state in
            guard state == .asked else { return }
            armSignalSources()
            state = .armed
        }
    }

    /// Ignores each of ``cleanupSignals`` and handles it with a Dispatch source instead, returning once all are armed.
    private static func armSignalSources() {
        // Dispatch arms a source on its manager thread some time after `resume()`; until then the signal is
        // ignored and would be lost. Wait for every registration, so a signal that comes as soon as the output file
        // exists is always handled; waiting once for all keeps the wait short.
        let armed = DispatchSemaphore(value: 0)
        for signalNumber in cleanupSignals {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                for directory in pending.withLock({ $0.keys }) {
                    removeOwnTemporaryFiles(inDirectory: directory)
                }
                exit(128 + signalNumber)
            }
            source.setRegistrationHandler { armed.signal() }
            source.resume()
            sources.withLock { $0.append(RetainedSource(source: source)) }
        }
        for _ in cleanupSignals { armed.wait() }
    }

    private static let sources = SanitizedMutex<[RetainedSource]>([])

    /// Keeps a signal source alive for the life of the process. Dispatch sources are thread-safe objects, but the
    /// Dispatch overlay does not mark them `Sendable`.
    private struct RetainedSource: @unchecked Sendable {
        let source: any DispatchSourceSignal
    }
}
