import TransferKitPlatform

/// Starts programs through the package's one spawner (`posix_spawn` + `waitpid`), so that timing a child costs
/// ~0.5 ms, not the ~50 ms of Foundation's `Process.waitUntilExit()`, and pipelines can be wired by descriptor.
///
/// No peak RSS here: `wait4`'s `ru_maxrss` for a child of `posix_spawn` (a vfork on Linux) includes the spawning
/// process's own high-water mark, which the kernel carries across exec. Wrap the child in `/usr/bin/time -f %M`.
enum Spawn {
    /// Starts `executable` with the given standard descriptors.
    /// - Returns: The child's process id.
    static func start(
        _ executable: String, _ arguments: [String], standardInput: Int32, standardOutput: Int32,
        standardError: Int32
    ) throws -> Int32 {
        do {
            return try ChildProcess.spawn(
                executable, arguments: arguments, standardInput: standardInput, standardOutput: standardOutput,
                standardError: standardError)
        } catch {
            throw BenchmarkError("\(error)")
        }
    }

    /// Waits for `pid` to end and returns its exit status (128 plus the signal number for a signal).
    static func wait(_ pid: Int32, name: String) throws -> Int32 {
        do {
            return try ChildProcess.waitForExit(pid, executable: name)
        } catch {
            throw BenchmarkError("cannot wait for \(name): \(error)")
        }
    }

    /// Opens `path` for reading, or for writing (created, truncated) when `writing` is set.
    static func openFile(_ path: String, writing: Bool = false) throws -> Int32 {
        do {
            return writing ? try Syscall.openForWriting(path) : try Syscall.openForReading(path)
        } catch {
            throw BenchmarkError("cannot open \(path): \(error.reason)")
        }
    }

    /// A pipe whose both ends close on exec (the spawn dups them onto 0/1 where needed).
    static func makePipe() throws -> (read: Int32, write: Int32) {
        do {
            return try Syscall.makePipe()
        } catch {
            throw BenchmarkError("cannot create a pipe: \(error.reason)")
        }
    }

    /// Runs `executable` to the end with standard input from /dev/null and both outputs to `output`.
    ///
    /// - Returns: The wall time in nanoseconds from before the spawn to after the reap, and the exit status.
    static func run(_ executable: String, _ arguments: [String], output: Int32) throws -> (Double, Int32) {
        let input = try openFile("/dev/null")
        defer { Syscall.close(input) }
        let began = MonotonicClock.now()
        let pid = try start(executable, arguments, standardInput: input, standardOutput: output, standardError: output)
        let status = try wait(pid, name: executable)
        return (MonotonicClock.elapsed(since: began), status)
    }
}
