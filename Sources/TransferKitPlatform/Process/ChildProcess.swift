import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a program with `posix_spawn`, writes `input` to its standard input and collects both outputs.
///
/// The one spawner of the package, shared by `transferkit check --cross-process`, TransferKitTesting's
/// cross-process round trip, the Examples and the end-to-end tests; it is `package` API, not part of TransferKit's
/// public surface.
///
/// - Standard input is one end of a socket pair rather than a pipe, so that a child that exits before reading
///   everything gives `EPIPE` here instead of a `SIGPIPE` that would end the calling process.
/// - Every descriptor is created close-on-exec, so children that other threads spawn at the same moment do not
///   inherit them (and keep a reader waiting for an end-of-file that never comes).
/// - One `poll(2)` loop moves the input and both outputs, so a child that writes a lot before reading cannot
///   deadlock.
/// - The child starts with default signal handling and no blocked signals, whatever the caller ignores (the
///   `transferkit` tool ignores `SIGPIPE`, which `exec` would otherwise pass on).
/// - `Process.waitUntilExit()` is avoided: it costs about 50 ms per call on Linux.
package enum ChildProcess {
    /// What a finished child process left behind.
    package struct Result: Sendable {
        /// The exit status, or 128 plus the signal number when a signal ended the child.
        package var status: Int32
        /// Everything the child wrote to standard output.
        package var standardOutput: [UInt8]
        /// Everything the child wrote to standard error.
        package var standardError: [UInt8]

        /// Standard output decoded as UTF-8.
        package var outputText: String { String(decoding: standardOutput, as: UTF8.self) }
        /// Standard error decoded as UTF-8.
        package var errorText: String { String(decoding: standardError, as: UTF8.self) }
    }

    /// The program could not be started; `errorNumber` is the `errno` of the failure.
    package struct SpawnError: Error, CustomStringConvertible {
        /// The program that was to run.
        package var executable: String
        /// The `errno`-style code of the failure.
        package var errorNumber: Int32

        /// What failed, in one line.
        package var description: String { "cannot run \(executable): \(String(cString: strerror(errorNumber)))" }
    }

    /// Runs `executable` to completion.
    /// - Parameters:
    ///   - executable: The program's path (not searched in `PATH`).
    ///   - arguments: The arguments, without the program name.
    ///   - input: Bytes written to the child's standard input, which is then closed.
    ///   - environment: The child's environment; `nil` inherits this process's.
    /// - Returns: The exit status and both outputs.
    /// - Throws: ``SpawnError`` when the program cannot be started.
    package static func run(
        _ executable: String, arguments: [String], input: [UInt8] = [], environment: [String: String]? = nil
    ) async throws -> Result {
        // The child may run for minutes: its wait blocks a thread of its own, never one of the concurrency pool.
        try await DedicatedThread.run {
            try runBlocking(executable, arguments, input, environment)
        }
    }

    /// Descriptors, by role. The child's ends are closed here once it runs.
    private struct Descriptors {
        var input: [Int32] = [-1, -1]  // [ours, the child's]
        var output: [Int32] = [-1, -1]  // [ours, the child's]
        var errorOutput: [Int32] = [-1, -1]  // [ours, the child's]

        mutating func closeAll() {
            for index in 0..<2 {
                for descriptor in [input[index], output[index], errorOutput[index]] where descriptor >= 0 {
                    close(descriptor)
                }
            }
            self = Descriptors()
        }
    }

    private static func runBlocking(
        _ executable: String, _ arguments: [String], _ input: [UInt8], _ environment: [String: String]?
    ) throws -> Result {
        var fds = Descriptors()
        defer { fds.closeAll() }
        guard makeSocketPair(&fds.input), makePipe(&fds.output), makePipe(&fds.errorOutput) else {
            throw SpawnError(executable: executable, errorNumber: errno)
        }
        let pid = try spawn(
            executable, arguments: arguments, environment: environment, standardInput: fds.input[1],
            standardOutput: fds.output[1], standardError: fds.errorOutput[1])
        for index in [\Descriptors.input, \Descriptors.output, \Descriptors.errorOutput] {
            close(fds[keyPath: index][1])
            fds[keyPath: index][1] = -1
        }
        var result = Result(status: 0, standardOutput: [], standardError: [])
        pump(input, through: &fds, into: &result)
        result.status = try waitForExit(pid, executable: executable)
        return result
    }

    /// Waits for the child `pid` to end and reaps it.
    /// - Returns: The exit status, or 128 plus the signal number when a signal ended the child.
    /// - Throws: ``SpawnError`` when `waitpid` fails.
    package static func waitForExit(_ pid: Int32, executable: String) throws(SpawnError) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw SpawnError(executable: executable, errorNumber: errno) }
        }
        return exitStatus(decoding: status)
    }

    /// Reaps the child `pid` if it has ended, without waiting.
    /// - Returns: The exit status (or 128 plus the signal number) once the child has ended and was reaped here;
    ///   `nil` while it runs.
    /// - Throws: ``SpawnError`` when `waitpid` fails (for example `ECHILD`: not a child, or already reaped).
    package static func exitStatusIfEnded(_ pid: Int32, executable: String) throws(SpawnError) -> Int32? {
        var status: Int32 = 0
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == 0 { return nil }
            if reaped == pid { return exitStatus(decoding: status) }
            guard errno == EINTR else { throw SpawnError(executable: executable, errorNumber: errno) }
        }
    }

    /// A `waitpid` status as the exit status, or 128 plus the signal number when a signal ended the child.
    private static func exitStatus(decoding status: Int32) -> Int32 {
        (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// Writes `input` and reads both outputs until the child closes them.
    private static func pump(_ input: [UInt8], through fds: inout Descriptors, into result: inout Result) {
        var written = 0
        if input.isEmpty {
            shutdown(fds.input[0], Int32(SHUT_WR))
        }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while fds.output[0] >= 0 || fds.errorOutput[0] >= 0 {
            var polled = [
                pollfd(fd: fds.output[0], events: Int16(POLLIN), revents: 0),
                pollfd(fd: fds.errorOutput[0], events: Int16(POLLIN), revents: 0),
                pollfd(fd: written < input.count ? fds.input[0] : -1, events: Int16(POLLOUT), revents: 0),
            ]
            guard poll(&polled, nfds_t(polled.count), -1) >= 0 || errno == EINTR else { return }
            if polled[2].revents != 0 {
                let count = input.withUnsafeBytes { bytes in
                    send(fds.input[0], bytes.baseAddress.map { $0 + written }, input.count - written, sendFlags)
                }
                if count > 0 {
                    written += count
                }
                if written == input.count || (count < 0 && errno != EAGAIN && errno != EINTR) {
                    written = input.count
                    shutdown(fds.input[0], Int32(SHUT_WR))
                }
            }
            for (slot, entry) in polled.prefix(2).enumerated() where entry.revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    if slot == 0 {
                        result.standardOutput += buffer[..<count]
                    } else {
                        result.standardError += buffer[..<count]
                    }
                } else if count == 0 || errno != EINTR {
                    close(entry.fd)
                    if slot == 0 { fds.output[0] = -1 } else { fds.errorOutput[0] = -1 }
                }
            }
        }
    }

    /// A channel for one output whose ends are closed on `exec`, so that children that other threads spawn at the
    /// same time do not keep them open (and the reader waiting for end-of-file): a pipe on Darwin, a socket pair
    /// on Linux, where Glibc's module does not offer `pipe2` and `SOCK_CLOEXEC` sets the flag atomically.
    private static func makePipe(_ ends: inout [Int32]) -> Bool {
        #if canImport(Darwin)
            guard pipe(&ends) == 0 else { return false }
            for descriptor in ends { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
            return true
        #else
            return makeSocketPair(&ends)
        #endif
    }

    /// A stream socket pair, closed on `exec`; writes to it never raise `SIGPIPE`.
    private static func makeSocketPair(_ ends: inout [Int32]) -> Bool {
        #if canImport(Darwin)
            guard socketpair(AF_UNIX, SOCK_STREAM, 0, &ends) == 0 else { return false }
            var on: Int32 = 1
            setsockopt(ends[0], SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
            for descriptor in ends { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
            return true
        #else
            return socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0
        #endif
    }

    /// `POSIX_SPAWN_SETSID`: the child leads a session of its own (no terminal's hang-up reaches it). The C
    /// modules do not import it (a GNU extension on Linux, where glibc and musl give it 0x80).
    #if canImport(Darwin)
        private static let spawnNewSession: Int32 = 0x400
    #else
        private static let spawnNewSession: Int32 = 0x80
    #endif

    /// Never block (poll said there is room, not how much) and never raise `SIGPIPE`.
    #if canImport(Darwin)
        private static let sendFlags = MSG_DONTWAIT
    #else
        private static let sendFlags = Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)
    #endif

    /// Starts `executable` with the given descriptors as its standard input, output and error, and returns at
    /// once: the caller connects children into a pipeline, then reaps each with ``waitForExit(_:executable:)``.
    ///
    /// The child starts with default signal handling and no blocked signals; with `newSession` it leads a session of
    /// its own (for a process that serves on after its parent exits). Descriptors the caller keeps should be
    /// close-on-exec (every descriptor the platform target opens is), so the child inherits only the three.
    /// - Returns: The child's process id.
    /// - Throws: ``SpawnError`` when the program cannot be started.
    package static func spawn(
        _ executable: String, arguments: [String], environment: [String: String]? = nil, standardInput: Int32,
        standardOutput: Int32, standardError: Int32, newSession: Bool = false
    ) throws(SpawnError) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, descriptor) in [standardInput, standardOutput, standardError].enumerated() {
            posix_spawn_file_actions_adddup2(&actions, descriptor, Int32(target))
        }
        // Signals the test process ignores or blocks go back to their defaults in the child.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        sigfillset(&all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        var flags = Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
        if newSession { flags |= spawnNewSession }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { for pointer in envp ?? [] { free(pointer) } }
        // ETXTBSY: a program written just now (a test's stand-in script, a fresh build) can still be open for
        // writing in a child that another thread forked meanwhile; that descriptor closes when the child execs
        // or exits, so retry for a moment instead of failing.
        var status = ETXTBSY
        for attempt in 0..<100 where status == ETXTBSY {
            if attempt > 0 { WireTimer.block(for: .milliseconds(20)) }
            if var envp {
                status = posix_spawn(&pid, executable, &actions, &attributes, argv, &envp)
            } else {
                status = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
            }
        }
        guard status == 0 else { throw SpawnError(executable: executable, errorNumber: status) }
        return pid
    }
}
