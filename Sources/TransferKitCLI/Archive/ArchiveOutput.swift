package import TransferKit
import TransferKitPlatform

/// Where a command writes its result: a file written atomically, or standard output for `-`.
package enum ArchiveOutput {
    /// Runs `body` with a sink on `path` (standard output for `-` or `nil`); a file appears at
    /// `path` only once `body` has returned without throwing. A device or a FIFO at `path` (`/dev/null`) is written
    /// in place instead.
    ///
    /// Binary output (`isBinary`) is refused when it would go to a terminal by default (no `-o`):
    /// bytes that are not text can garble the terminal. An explicit `-o -` writes it anyway.
    package static func write<R>(
        toPath path: String?, isBinary: Bool, context: CommandContext, _ body: (any OutputSink) async throws -> R
    ) async throws -> R {
        guard let path, path != "-" else {
            if path == nil, isBinary, context.standardOutputIsTerminal {
                throw UsageError(
                    "refusing to write binary data to a terminal; give -o FILE, pipe the output, or -o - to "
                        + "write it anyway")
            }
            if let output = context.standardOutput as? FileDescriptorOutput {
                Syscall.enlargePipe(output.fileDescriptor, toAtMost: InputFile.pipeCapacity)
            }
            return try await body(context.standardOutput)
        }
        if let status = try? Syscall.status(atPath: path), !status.isRegularFile, !status.isDirectory {
            // A device or a FIFO (`-o /dev/null`, a named pipe, or a link to one) is written in place, as `cat >`
            // writes it: a file renamed over it would replace the device node or the pipe itself.
            let descriptor: Int32
            do {
                descriptor = try Syscall.openForWriting(path)
            } catch {
                throw ToolIOError.system(.writeFailed, "cannot open \(path)", source: path, cause: error)
            }
            defer { Syscall.close(descriptor) }
            return try await body(FileDescriptorOutput(fileDescriptor: descriptor))
        }
        do {
            return try await AtomicFile.write(toPath: path) { descriptor in
                try await body(FileDescriptorOutput(fileDescriptor: descriptor))
            }
        } catch let error as SystemError {
            throw ToolIOError.system(.writeFailed, "cannot write \(path)", source: path, cause: error)
        }
    }

    /// Runs `body` with a sink on a new file in `directory`, named by the first of `names` that no file has there,
    /// written atomically as ``write(toPath:isBinary:context:_:)`` writes a file, and never over an existing file.
    /// - Returns: What `body` returns, and the path of the file.
    /// - Throws: ``ToolIOError`` (`writeFailed`) when the file cannot be written (every name taken, a full disk, …);
    ///   anything `body` throws.
    package static func writeNew<R>(
        inDirectory directory: String, firstFreeOf names: [String], _ body: (any OutputSink) async throws -> R
    ) async throws -> (result: R, path: String) {
        let folder = directory.isEmpty || directory.hasSuffix("/") ? directory : directory + "/"
        do {
            let (result, name) = try await AtomicFile.writeNew(inDirectory: folder, firstFreeOf: names) { descriptor in
                try await body(FileDescriptorOutput(fileDescriptor: descriptor))
            }
            return (result, folder + name)
        } catch let error as SystemError {
            let path = folder + (names.first ?? "")
            throw ToolIOError.system(.writeFailed, "cannot write \(path)", source: path, cause: error)
        }
    }

    /// A streaming archive writer on `sink`: straight to its descriptor when it has one, so the writer can splice
    /// a file's bytes into a pipe.
    package static func writer(to sink: any OutputSink) -> TransferArchiveWriter {
        if let output = sink as? FileDescriptorOutput {
            TransferArchiveWriter(fileDescriptor: output.fileDescriptor)
        } else {
            TransferArchiveWriter(sink: { try sink.write($0) })
        }
    }
}
