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

    /// The path of the product `name` next to the benchmark, or an error that says how to build it.
    static func executable(_ name: String) throws -> String {
        guard let directory = current() else {
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
