import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Copies a pipe into an unlinked temporary file, so that its size is known before its bytes
/// are written into an archive. Memory stays constant; the file disappears when closed.
enum Spool {
    static func toTemporaryFile(_ input: InputFile) throws -> InputFile {
        let directory = ProcessInfo.processInfo.environment["TMPDIR"].map { $0.hasSuffix("/") ? $0 : $0 + "/" }
        var template = Array("\(directory ?? "/tmp/")transferkit-spool-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemp(base)
        }
        guard descriptor >= 0 else {
            throw UsageError("cannot create a temporary file to hold \(input.displayName): \(errorText())")
        }
        template.withUnsafeBufferPointer { buffer in _ = buffer.baseAddress.map { unlink($0) } }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var total: UInt64 = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input.fileDescriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw UsageError("cannot read \(input.displayName): \(errorText())")
            }
            if count == 0 { break }
            try buffer.withUnsafeBytes { bytes in
                try FileDescriptorOutput(fileDescriptor: descriptor).write(
                    UnsafeRawBufferPointer(rebasing: bytes[..<count]))
            }
            total += UInt64(count)
        }
        guard lseek(descriptor, 0, SEEK_SET) == 0 else {
            throw UsageError("cannot rewind the temporary copy of \(input.displayName): \(errorText())")
        }
        return InputFile(adopting: dup(descriptor), displayName: input.displayName, size: total)
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}
