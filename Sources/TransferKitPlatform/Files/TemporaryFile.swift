/// Temporary files: unlinked spools and named files beside a destination.
package enum TemporaryFile {
    /// The folder for temporary files: `TMPDIR` when set, else `/tmp`, with a trailing slash.
    package static var directory: String {
        let configured = Syscall.environmentValue("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return configured.hasSuffix("/") ? configured : configured + "/"
    }

    /// Creates a file in the temporary folder and unlinks it at once: it has no name, and its space is freed when
    /// the last descriptor closes, however the process ends.
    /// - Parameters:
    ///   - prefix: The start of the short-lived name, such as `transferkit-spool`.
    ///   - folder: Where to create it; ``directory`` when `nil`.
    /// - Returns: A descriptor open for reading and writing, which the caller closes.
    package static func makeUnlinked(prefix: String, in folder: String? = nil) throws(SystemError) -> Int32 {
        let base = folder.map { $0.hasSuffix("/") ? $0 : $0 + "/" } ?? directory
        let (descriptor, path) = try Syscall.makeTemporaryFile(template: base + prefix + "-XXXXXX")
        Syscall.unlink(path)
        return descriptor
    }
}
