package import TransferKitPlatform

/// Unlinked temporary files that hold bytes a command must read again (a pipe whose size must be known before its
/// bytes are written into an archive, an archive's payloads served on every paste). Memory stays constant; each
/// file disappears when its last descriptor closes.
package enum Spool {
    /// An empty unlinked temporary file, open for reading and writing, that stands for `displayName` in messages.
    package static func emptyFile(for displayName: String) throws -> InputFile {
        do {
            let descriptor = try TemporaryFile.makeUnlinked(prefix: "transferkit-spool")
            return InputFile(adopting: descriptor, displayName: displayName, size: nil)
        } catch {
            throw failure(error, "cannot create a temporary file in \(folder) to hold \(displayName)")
        }
    }

    /// The folder spool files are made in: `TMPDIR`, else `/tmp`.
    package static var folder: String { TemporaryFile.directory }

    /// A write into the spool's folder that failed, as the error the tool prints: the folder is named, and when it
    /// has no room left the message says so and where to point `TMPDIR` instead.
    package static func failure(_ error: SystemError, _ what: String) -> ToolIOError {
        guard ErrorNumber.noRoom.contains(error.errorNumber) else {
            return .system(.writeFailed, what, source: folder, cause: error)
        }
        return ToolIOError(
            code: .writeFailed,
            message: "\(what): \(error.reason): the temporary folder \(folder) has no room for it; set TMPDIR to a "
                + "folder with more space", cause: error, source: folder)
    }

    /// Writes `bytes` into the spool file `spool`, reporting a failure as ``failure(_:_:)`` does.
    package static func write(_ bytes: UnsafeRawBufferPointer, to spool: InputFile, holding displayName: String) throws
    {
        do {
            try Syscall.write(spool.fileDescriptor, bytes)
        } catch {
            throw failure(error, "cannot spool \(displayName) to a temporary file in \(folder)")
        }
    }

    /// Copies `input` (a pipe) into an unlinked temporary file, rewound, whose size is known.
    /// - Throws: `UniformTypeError` with code `unreadableFile` for a device or socket named on the command line
    ///   (``InputFile/requireContent()``), which is never read; ``ToolIOError`` when reading or writing fails.
    package static func toTemporaryFile(_ input: InputFile) throws -> InputFile {
        try input.requireContent()
        let spool = try emptyFile(for: input.displayName)
        let total = try Syscall.withReadBuffer(byteCount: 1 << 20) { buffer throws(any Error) -> UInt64 in
            var total: UInt64 = 0
            while true {
                let count: Int
                do throws(SystemError) {
                    count = try Syscall.read(input.fileDescriptor, into: buffer)
                } catch {
                    throw ToolIOError.system(
                        .readFailed, "cannot read \(input.displayName)", source: input.displayName, cause: error)
                }
                if count == 0 { return total }
                try write(UnsafeRawBufferPointer(rebasing: buffer[..<count]), to: spool, holding: input.displayName)
                total += UInt64(count)
            }
        }
        do {
            try Syscall.rewind(spool.fileDescriptor)
            return InputFile(
                adopting: try Syscall.duplicate(spool.fileDescriptor), displayName: input.displayName, size: total)
        } catch {
            throw ToolIOError.system(
                .writeFailed, "cannot rewind the temporary copy of \(input.displayName)", source: nil, cause: error)
        }
    }
}
