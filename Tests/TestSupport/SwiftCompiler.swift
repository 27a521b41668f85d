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

/// How far `swiftc` takes the code an adopter would write.
public enum SwiftCheck: Sendable {
    /// Type checking only (`-typecheck`): fast, but blind to the diagnostics of the SIL passes.
    case typeCheck
    /// Type checking and SIL's mandatory diagnostic passes (`-emit-sil`), as every real build runs them: region-based
    /// isolation (`sending 'model' risks causing data races`), definite initialization, missing returns. What this
    /// accepts, a build accepts.
    case build
}

/// The arguments that make `swiftc` check source files in Swift 6 language mode against the package's built
/// modules, as an adopter's target that imports them is compiled.
///
/// - Parameters:
///   - sources: The paths of the Swift files (a `main.swift` among them may hold top-level code).
///   - products: The folder of the built products (`TransferKitExecutable.productsDirectory`).
///   - check: How far the compiler goes; `.typeCheck` unless said otherwise.
/// - Returns: The arguments for `swiftc`.
public func swiftTypeCheckArguments(_ sources: [String], products: URL, check: SwiftCheck = .typeCheck) -> [String] {
    let stage = check == .typeCheck ? ["-typecheck"] : ["-emit-sil", "-wmo", "-o", "/dev/null"]
    return stage + [
        "-swift-version", "6", "-I", products.appendingPathComponent("Modules").path, "-Xcc",
        "-fmodule-map-file=" + products.appendingPathComponent("CTransferKitCRC32.build/module.modulemap").path,
    ] + sources
}
