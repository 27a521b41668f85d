import TransferKitPlatform

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
            throw ToolIOError.system(
                .writeFailed, "cannot create a temporary file to hold \(displayName)", source: nil, cause: error)
        }
    }

    /// Copies `input` (a pipe) into an unlinked temporary file, rewound, whose size is known.
    package static func toTemporaryFile(_ input: InputFile) throws -> InputFile {
        let spool = try emptyFile(for: input.displayName)
        let output = FileDescriptorOutput(fileDescriptor: spool.fileDescriptor)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var total: UInt64 = 0
        while true {
            let count: Int
            do {
                count = try Syscall.read(input.fileDescriptor, into: &buffer)
            } catch {
                throw ToolIOError.system(
                    .readFailed, "cannot read \(input.displayName)", source: input.displayName, cause: error)
            }
            if count == 0 { break }
            try buffer.withUnsafeBytes { bytes in
                try output.write(UnsafeRawBufferPointer(rebasing: bytes[..<count]))
            }
            total += UInt64(count)
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
