import TransferKitPlatform

/// The pipe anchor's helper, `transferkit-bench --splice-child`: copies standard input to standard output with
/// `splice(2)`, 1 MiB at a time, after enlarging whichever of them is a pipe to 1 MiB (`F_SETPIPE_SZ`), as
/// transferkit enlarges its own. Two of them in a pipeline move the bytes the way `pack | extract` can at best:
/// no copy through user memory, no checksum, the same pipe size.
enum SpliceCopy {
    /// The first argument that runs the helper instead of the benchmark.
    static let childFlag = "--splice-child"

    /// The pipe size and the most moved by one call.
    static let chunk = 1 << 20

    /// The argument after ``childFlag`` that reads the bytes into memory instead, as any reader that checks or uses
    /// them must (`read(2)` into one reused 1 MiB buffer, then `write(2)`).
    static let readFlag = "--read"

    /// Copies standard input to standard output; returns the exit status (1 when a descriptor cannot splice, with a
    /// message on standard error).
    static func child(_ arguments: [String]) -> Int32 {
        Syscall.enlargePipe(0, toAtMost: chunk)
        Syscall.enlargePipe(1, toAtMost: chunk)
        if arguments.first == readFlag {
            return copyThroughMemory()
        }
        do {
            while true {
                guard let moved = try Syscall.splice(from: 0, to: 1, count: chunk) else {
                    report("standard input and output cannot splice (one of them must be a pipe)")
                    return 1
                }
                if moved == 0 { return 0 }
            }
        } catch {
            report("\(error)")
            return 1
        }
    }

    /// Reads standard input into one reused buffer and writes it to standard output.
    private static func copyThroughMemory() -> Int32 {
        var buffer = [UInt8](repeating: 0, count: chunk)
        do {
            while true {
                let count = try Syscall.read(0, into: &buffer)
                if count == 0 { return 0 }
                try buffer.withUnsafeBytes { try Syscall.write(1, UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            }
        } catch {
            report("\(error)")
            return 1
        }
    }

    private static func report(_ text: String) {
        let line = Array("transferkit-bench \(childFlag): \(text)\n".utf8)
        line.withUnsafeBytes { try? Syscall.write(2, $0) }
    }
}
