public import Foundation

/// The Swift compiler beside `swift`, if the toolchain is on the PATH; tests that type-check code as an adopter would
/// write it run it.
public let swiftCompiler: String? = executableOnPath(named: "swiftc")

/// The first executable file named `name` in the directories of this process's `PATH` (`/usr/bin:/bin` when it is
/// unset), as a shell finds a command: for tests that run a system program, and their `.enabled(if:)`.
public func executableOnPath(named name: String) -> String? {
    (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        .map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// The arguments that make `swiftc` type-check source files in Swift 6 language mode against the package's built
/// modules, as an adopter's target that imports them is compiled.
///
/// - Parameters:
///   - sources: The paths of the Swift files (a `main.swift` among them may hold top-level code).
///   - products: The folder of the built products (`TransferKitExecutable.productsDirectory`).
/// - Returns: The arguments for `swiftc`.
public func swiftTypeCheckArguments(_ sources: [String], products: URL) -> [String] {
    [
        "-typecheck", "-swift-version", "6", "-I", products.appendingPathComponent("Modules").path, "-Xcc",
        "-fmodule-map-file=" + products.appendingPathComponent("CTransferKitCRC32.build/module.modulemap").path,
    ] + sources
}
