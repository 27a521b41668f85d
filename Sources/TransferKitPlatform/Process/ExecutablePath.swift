#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    @preconcurrency import Darwin
#endif

/// Finds executables: the running one, so a command can start a child copy of itself, and programs on the `PATH`.
package enum ExecutablePath {
    /// The running executable's path (`/proc/self/exe` on Linux), else the command line's first word.
    package static func current() -> String? {
        #if os(Linux)
            if let path = Syscall.readLink("/proc/self/exe") { return path }
        #endif
        return CommandLine.arguments.first
    }

    /// The first executable file named `name` in the directories of `searchPath` (a `PATH` value), as a shell
    /// finds a command; relative directories are skipped. A `name` with a `/` is a path: it is returned as it is
    /// when it names an executable file.
    package static func search(named name: String, in searchPath: String?) -> String? {
        if name.contains("/") { return isExecutableFile(name) ? name : nil }
        return (searchPath ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
            .filter { $0.hasPrefix("/") }
            .map { ($0.hasSuffix("/") ? String($0) : $0 + "/") + name }
            .first { isExecutableFile($0) }
    }

    /// Whether `path` is a regular file this process may execute.
    private static func isExecutableFile(_ path: String) -> Bool {
        guard access(path, X_OK) == 0, let status = try? Syscall.status(atPath: path) else { return false }
        return status.isRegularFile
    }
}
