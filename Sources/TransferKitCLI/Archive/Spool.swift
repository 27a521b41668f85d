import TransferKitPlatform

/// Copies a pipe into an unlinked temporary file, so that its size is known before its bytes
/// are written into an archive. Memory stays constant; the file disappears when closed.
enum Spool {
    static func toTemporaryFile(_ input: InputFile) throws -> InputFile {
        let descriptor: Int32
        do {
            descriptor = try TemporaryFile.makeUnlinked(prefix: "transferkit-spool")
        } catch {
            throw ToolIOError.system(
                .writeFailed, "cannot create a temporary file to hold \(input.displayName)", source: nil, cause: error)
        }
        defer { Syscall.close(descriptor) }
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
                try FileDescriptorOutput(fileDescriptor: descriptor).write(
                    UnsafeRawBufferPointer(rebasing: bytes[..<count]))
            }
            total += UInt64(count)
        }
        do {
            try Syscall.rewind(descriptor)
            return InputFile(adopting: try Syscall.duplicate(descriptor), displayName: input.displayName, size: total)
        } catch {
            throw ToolIOError.system(
                .writeFailed, "cannot rewind the temporary copy of \(input.displayName)", source: nil, cause: error)
        }
    }
}
