/// Where a command writes its result: a file written atomically, or standard output for `-`.
enum ArchiveOutput {
    /// Runs `body` with a sink on `path` (standard output for `-` or `nil`); a file appears at
    /// `path` only once `body` has returned without throwing.
    static func write<R>(
        toPath path: String?, context: CommandContext, _ body: (Int32, any OutputSink) async throws -> R
    ) async throws -> R {
        guard let path, path != "-" else {
            let descriptor = (context.standardOutput as? FileDescriptorOutput)?.fileDescriptor
            return try await body(descriptor ?? -1, context.standardOutput)
        }
        return try await AtomicFile.write(toPath: path) { sink in
            try await body(sink.fileDescriptor, sink)
        }
    }
}
