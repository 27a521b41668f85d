#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starts programs with `posix_spawn` and reaps them with `waitpid`, so that timing a child costs ~0.5 ms, not the
/// ~50 ms of Foundation's `Process.waitUntilExit()`.
enum Spawn {
    /// How a child ended.
    ///
    /// No peak RSS: `wait4`'s `ru_maxrss` for a child of `posix_spawn` (a vfork on Linux) includes the spawning
    /// process's own high-water mark, which the kernel carries across exec. Wrap the child in `/usr/bin/time -f %M`.
    struct Exit {
        /// The exit status, or 128 plus the signal number when a signal ended the child.
        var status: Int32
    }

    /// Starts `executable` with the given standard descriptors; every descriptor in `closing` is closed in the child.
    ///
    /// - Returns: The child's process id.
    static func start(
        _ executable: String, _ arguments: [String], standardInput: Int32, standardOutput: Int32,
        standardError: Int32, closing: [Int32] = []
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, standardInput, 0)
        posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
        posix_spawn_file_actions_adddup2(&actions, standardError, 2)
        for descriptor in Set(closing + [standardInput, standardOutput, standardError]) where descriptor > 2 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
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
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard result == 0 else {
            throw BenchmarkError("cannot run \(executable): \(String(cString: strerror(result)))")
        }
        return pid
    }

    /// Waits for `pid` to end and returns its status.
    static func wait(_ pid: pid_t, name: String) throws -> Exit {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else {
                throw BenchmarkError("cannot wait for \(name): \(String(cString: strerror(errno)))")
            }
        }
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Exit(status: exitStatus)
    }

    /// Opens `path` for reading, or for writing (created, truncated) when `writing` is set.
    static func openFile(_ path: String, writing: Bool = false) throws -> Int32 {
        let flags = writing ? O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC : O_RDONLY | O_CLOEXEC
        let descriptor = open(path, flags, 0o644)
        guard descriptor >= 0 else {
            throw BenchmarkError("cannot open \(path): \(String(cString: strerror(errno)))")
        }
        return descriptor
    }

    /// A pipe whose both ends close on exec (the spawn actions dup them onto 0/1 where needed).
    static func makePipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw BenchmarkError("cannot create a pipe: \(String(cString: strerror(errno)))")
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        return (ends[0], ends[1])
    }

    /// Runs `executable` to the end with standard input from /dev/null and both outputs to `output`.
    ///
    /// - Returns: The wall time in nanoseconds from before the spawn to after the reap, and how the child ended.
    static func run(_ executable: String, _ arguments: [String], output: Int32) throws -> (Double, Exit) {
        let input = try openFile("/dev/null")
        defer { close(input) }
        let began = MonotonicClock.now()
        let pid = try start(executable, arguments, standardInput: input, standardOutput: output, standardError: output)
        let exit = try wait(pid, name: executable)
        return (MonotonicClock.elapsed(since: began), exit)
    }
}
