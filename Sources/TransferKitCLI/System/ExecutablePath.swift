import TransferKitPlatform

/// Finds the path of the running executable, so a command can start a child copy of itself.
enum ExecutablePath {
    static func current() -> String? {
        #if os(Linux)
            if let path = Syscall.readLink("/proc/self/exe") { return path }
        #endif
        return CommandLine.arguments.first
    }
}
