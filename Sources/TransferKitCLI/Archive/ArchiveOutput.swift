import TransferKitPlatform

/// Where a command writes its result: a file written atomically, or standard output for `-`.
enum ArchiveOutput {
    /// Runs `body` with a sink on `path` (standard output for `-` or `nil`); a file appears at
    /// `path` only once `body` has returned without throwing.
    static func write<R>(
        toPath path: String?, context: CommandContext, _ body: (any OutputSink) async throws -> R
    ) async throws -> R {
        guard let path, path != "-" else {
            return try await body(context.standardOutput)
        }
        do {
            return try await AtomicFile.write(toPath: path) { descriptor in
                try await body(FileDescriptorOutput(fileDescriptor: descriptor))
            }
        } catch let error as SystemError {
            throw ToolIOError.system(.writeFailed, "cannot write \(path)", source: path, cause: error)
        }
    }
}
