#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The build's products directory (such as `.build/release`), where the benchmark finds the binaries it runs.
enum ProductsDirectory {
    /// The directory holding the running benchmark executable.
    static func current() -> String? {
        var path: String?
        #if os(Linux)
            var buffer = [CChar](repeating: 0, count: 4096)
            let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
            if length > 0 {
                path = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        #endif
        guard let executable = path ?? CommandLine.arguments.first,
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
        guard access(path, X_OK) == 0 else {
            throw BenchmarkError(
                "'\(name)' is missing from \(directory); build it with `swift build -c release --product \(name)`")
        }
        return path
    }
}
