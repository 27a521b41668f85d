#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The calls a process makes to fork a background copy of itself and let it go (`transferkit copy`'s serving copy).
extension Syscall {
    /// Forks the process (`fork(2)`): safe only while the process has one thread.
    /// - Returns: 0 in the child, the child's id in the parent, `nil` when the system refused.
    package static func fork() -> Int32? {
        let pid = cFork()
        return pid < 0 ? nil : pid
    }

    /// Makes `target` a copy of `descriptor` (`dup2(2)`), retrying on `EINTR`.
    /// - Returns: Whether it succeeded.
    @discardableResult
    package static func duplicate(_ descriptor: Int32, onto target: Int32) -> Bool {
        while dup2(descriptor, target) < 0 {
            if errno != EINTR { return false }
        }
        return true
    }

    /// Makes the process the leader of a new session without a controlling terminal (`setsid(2)`), so that a
    /// terminal's hang-up does not reach it.
    package static func startSession() {
        _ = setsid()
    }

    /// Unblocks every signal and sets each catchable one (1 to 31) back to its default action, as a new program
    /// starts.
    package static func restoreDefaultSignals() {
        var none = sigset_t()
        sigemptyset(&none)
        sigprocmask(SIG_SETMASK, &none, nil)
        for number in 1..<Int32(32) where number != SIGKILL && number != SIGSTOP {
            signal(number, SIG_DFL)
        }
    }

    /// Sets an environment variable of this process (`setenv(3)`), replacing its value.
    package static func setEnvironmentValue(_ value: String, for name: String) {
        setenv(name, value, 1)
    }

    /// The bytes of a file read to its end, at most `limit` of them, for files whose size says nothing (`/proc`'s);
    /// `nil` when it cannot be opened or read.
    package static func readToEnd(atPath path: String, limit: Int) -> [UInt8]? {
        guard let descriptor = try? openForReading(path) else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < limit {
            guard let count = try? read(descriptor, into: &buffer) else { return nil }
            if count == 0 { break }
            bytes += buffer[..<min(count, limit - bytes.count)]
        }
        return bytes
    }
}

private func cFork() -> Int32 { fork() }
