import Foundation

/// A child's true peak RSS, through GNU time (`/usr/bin/time -f %M -o FILE`).
///
/// `wait4`'s `ru_maxrss` cannot give it: a child of `posix_spawn` (a vfork on Linux) keeps the spawning process's
/// high-water mark across exec, so it reports the benchmark's own RSS.
enum PeakMemory {
    /// GNU time.
    static let tool = "/usr/bin/time"

    /// Whether GNU time is installed (`apt-get install -y time`).
    static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: tool)
    }

    /// The command that runs `command` inside GNU time, which writes the peak RSS to `report`.
    static func wrapping(_ command: (String, [String]), reportingTo report: String) -> (String, [String]) {
        (tool, ["-f", "%M", "-o", report, command.0] + command.1)
    }

    /// The peak RSS that GNU time wrote to `path` (in KiB, on the file's last line), in MiB.
    static func mebibytes(in path: String) throws -> Double {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        guard let line = text.split(separator: "\n").last, let kibibytes = Double(line) else {
            throw BenchmarkError("\(tool) left no peak RSS in \(path): \(text)")
        }
        return kibibytes / 1024
    }
}
