import TransferKitPlatform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Finds executables: the running one, so a command can start a child copy of itself, and programs on the `PATH`.
enum ExecutablePath {
    static func current() -> String? {
        #if os(Linux)
            if let path = Syscall.readLink("/proc/self/exe") { return path }
        #endif
        return CommandLine.arguments.first
    }

    /// The first executable file named `name` in the directories of `searchPath` (a `PATH` value), as a shell
    /// finds a command; relative directories are skipped.
    static func search(named name: String, in searchPath: String?) -> String? {
        (searchPath ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
            .filter { $0.hasPrefix("/") }
            .map { ($0.hasSuffix("/") ? String($0) : $0 + "/") + name }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
