import Foundation
import TransferClipboardCLI
import TransferKitCLI
import TransferKitPlatform

// `transferkit-memory-probe`: the `transferkit` tool for tests that measure memory. It runs the standard and
// clipboard commands exactly as `transferkit` does, then prints this process's peak resident memory (`VmHWM`) to standard error as
// `transferkit: peak memory N KiB`. A parent cannot measure it from outside: after `posix_spawn` the child's
// `ru_maxrss` still counts the parent's own high-water mark. It is not a product and does not ship.

/// `VmHWM` in KiB from `/proc/self/status`, or 0 where `/proc` does not provide it.
func peakMemoryKiB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let fields = line.dropFirst("VmHWM:".count).split(whereSeparator: { $0 == " " || $0 == "\t" })
        return fields.first.flatMap { Int($0) } ?? 0
    }
    return 0
}

let tool = TransferKitTool(commands: TransferKitTool.standardCommands() + TransferKitTool.clipboardCommands())
let code = await tool.runAsProcess()
FileHandle.standardError.write(Data("transferkit: peak memory \(peakMemoryKiB()) KiB\n".utf8))
Syscall.exitProcess(code.rawValue)
