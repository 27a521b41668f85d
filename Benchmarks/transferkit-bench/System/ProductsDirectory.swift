import Foundation
import TransferKitPlatform

/// The build's products directory (such as `.build/release`), where the benchmark finds the binaries it runs.
enum ProductsDirectory {
    /// The directory holding the running benchmark executable.
    static func current() -> String? {
        guard let executable = Syscall.readLink("/proc/self/exe") ?? CommandLine.arguments.first,
            let slash = executable.lastIndex(of: "/")
        else { return nil }
        return String(executable[..<slash])
    }

    /// Names a directory that holds `transferkit` and `transferkit-bench-hello` built otherwise than the benchmark:
    /// `Scripts/release.sh bench` builds them as the tool is released, and the benchmark as the library is compiled
    /// by an adopter.
    static let toolsVariable = "TRANSFERKIT_BENCH_TOOLS"

    /// The path of the product `name`: next to the benchmark, or, for another product than the benchmark itself, in
    /// the directory ``toolsVariable`` names when it is set; or an error that says how to build it.
    static func executable(_ name: String) throws -> String {
        let tools =
            name == "transferkit-bench"
            ? nil : Syscall.environmentValue(toolsVariable).flatMap { $0.isEmpty ? nil : $0 }
        guard let directory = tools ?? current() else {
            throw BenchmarkError("cannot find the benchmark's own directory, so cannot find '\(name)'")
        }
        let path = directory + "/" + name
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw BenchmarkError(
                "'\(name)' is missing from \(directory); build it with `swift build -c release --product \(name)`")
        }
        return path
    }
}
