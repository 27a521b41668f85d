import Foundation

/// Reads this process's peak resident memory from `/proc/self/status`.
enum PeakMemory {
    /// `VmHWM` in KiB, or `nil` where `/proc` does not provide it.
    static func current() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.dropFirst("VmHWM:".count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        }
        return nil
    }
}
