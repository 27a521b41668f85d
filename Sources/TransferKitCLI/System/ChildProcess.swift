import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs another program with `posix_spawn`, feeds it standard input and collects its output.
///
/// Used by `transferkit check --cross-process` and by end-to-end tests. It avoids
/// Foundation's `Process.waitUntilExit()`, which polls a run loop and costs about 50 ms per
/// call on Linux; one `poll(2)` loop moves input and both outputs, so a child that writes a
/// lot before reading all its input cannot deadlock.
public enum ChildProcess {
    /// What a finished child process left behind.
    public struct Result: Sendable, Equatable {
        /// The exit status, or 128 plus the signal number when a signal ended the child.
        public var status: Int32
        /// Everything the child wrote to standard output.
        public var standardOutput: [UInt8]
        /// Everything the child wrote to standard error.
        public var standardError: [UInt8]

        /// Standard output decoded as UTF-8.
        public var outputText: String { String(decoding: standardOutput, as: UTF8.self) }
        /// Standard error decoded as UTF-8.
        public var errorText: String { String(decoding: standardError, as: UTF8.self) }
    }

    /// A child process that could not be started or supervised.
    public struct SpawnError: Error, Sendable, CustomStringConvertible {
        /// The program that was to run.
        public var executable: String
        /// The `errno`-style code of the failure.
        public var errorNumber: Int32

        /// What failed, in one line.
        public var description: String {
            "cannot run \(executable): " + String(cString: strerror(errorNumber))
        }
    }

    /// Runs `executable` to completion.
    /// - Parameters:
    ///   - executable: The program's path (not searched in `PATH`).
    ///   - arguments: The arguments, without the program name.
    ///   - input: Bytes written to the child's standard input, which is then closed.
    ///   - environment: The child's environment; `nil` inherits this process's.
    /// - Returns: The exit status and both outputs.
    /// - Throws: ``SpawnError`` when the program cannot be started.
    public static func run(
        _ executable: String, arguments: [String], input: [UInt8] = [], environment: [String: String]? = nil
    ) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(
                    with: Swift.Result {
                        try runBlocking(executable, arguments: arguments, input: input, environment: environment)
                    })
            }
        }
    }

    private static func runBlocking(
        _ executable: String, arguments: [String], input: [UInt8], environment: [String: String]?
    ) throws(SpawnError) -> Result {
        var pipes: [Int32] = [-1, -1, -1, -1, -1, -1]
        defer { for descriptor in pipes where descriptor >= 0 { close(descriptor) } }
        for index in 0..<3 {
            var pair: [Int32] = [-1, -1]
            guard pipe(&pair) == 0 else { throw SpawnError(executable: executable, errorNumber: errno) }
            pipes[index * 2] = pair[0]
            pipes[index * 2 + 1] = pair[1]
        }
        // pipes: 0 stdin-read (child), 1 stdin-write (us), 2 stdout-read (us), 3 stdout-write (child), 4/5 stderr.
        let pid = try spawn(executable, arguments: arguments, environment: environment, pipes: pipes)
        for index in [0, 3, 5] {
            close(pipes[index])
            pipes[index] = -1
        }
        var output: [UInt8] = []
        var errors: [UInt8] = []
        var written = 0
        if input.isEmpty {
            close(pipes[1])
            pipes[1] = -1
        }
        for descriptor in [pipes[1], pipes[2], pipes[4]] where descriptor >= 0 {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while pipes[2] >= 0 || pipes[4] >= 0 || pipes[1] >= 0 {
            var polled: [pollfd] = []
            if pipes[1] >= 0 { polled.append(pollfd(fd: pipes[1], events: Int16(POLLOUT), revents: 0)) }
            if pipes[2] >= 0 { polled.append(pollfd(fd: pipes[2], events: Int16(POLLIN), revents: 0)) }
            if pipes[4] >= 0 { polled.append(pollfd(fd: pipes[4], events: Int16(POLLIN), revents: 0)) }
            if poll(&polled, nfds_t(polled.count), -1) < 0, errno != EINTR { break }
            for entry in polled where entry.revents != 0 {
                if entry.fd == pipes[1] {
                    let count = input.withUnsafeBytes { bytes in
                        systemWrite(entry.fd, bytes.baseAddress.map { $0 + written }, input.count - written)
                    }
                    if count > 0 { written += count }
                    if written == input.count || (count < 0 && errno != EAGAIN && errno != EINTR) {
                        close(pipes[1])
                        pipes[1] = -1
                    }
                } else {
                    let count = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                    if count > 0 {
                        if entry.fd == pipes[2] {
                            output.append(contentsOf: buffer[..<count])
                        } else {
                            errors.append(contentsOf: buffer[..<count])
                        }
                    } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                        let slot = entry.fd == pipes[2] ? 2 : 4
                        close(pipes[slot])
                        pipes[slot] = -1
                    }
                }
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw SpawnError(executable: executable, errorNumber: errno) }
        }
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Result(status: exitStatus, standardOutput: output, standardError: errors)
    }

    private static func spawn(
        _ executable: String, arguments: [String], environment: [String: String]?, pipes: [Int32]
    ) throws(SpawnError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipes[0], 0)
        posix_spawn_file_actions_adddup2(&actions, pipes[3], 1)
        posix_spawn_file_actions_adddup2(&actions, pipes[5], 2)
        for descriptor in pipes { posix_spawn_file_actions_addclose(&actions, descriptor) }

        // The child starts with default signal handling and no blocked signals, whatever this
        // process ignores (the tool ignores SIGPIPE, which exec would otherwise pass on).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var envp: [UnsafeMutablePointer<CChar>?] = [nil]
        if let environment {
            envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        }
        defer { if environment != nil { for pointer in envp { free(pointer) } } }

        var pid: pid_t = 0
        let result = envp.withUnsafeBufferPointer { envBuffer in
            let envPointer = environment == nil ? environ : UnsafeMutablePointer(mutating: envBuffer.baseAddress)
            return posix_spawn(&pid, executable, &actions, &attributes, argv, envPointer)
        }
        guard result == 0 else { throw SpawnError(executable: executable, errorNumber: result) }
        return pid
    }
}
