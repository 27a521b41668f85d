public import Foundation

/// Where the cross-process round trip finds the `transferkit` executable.
///
/// By default it is `transferkit` in the products directory, beside the running test bundle: a test target that
/// lists `"transferkit"` (or your own tool's executable target) among its dependencies gets it built there. To
/// use another program, pass its path as `executable:`, or set the environment variable
/// `TRANSFERKIT_EXECUTABLE` for every test that does not pass one. Any program works whose
/// `reencode -` reads an archive on standard input and writes the re-encoded archive to standard output — for
/// example your own tool made with `TransferKitTool(name:commands:)` with your model types registered, so that the
/// child decodes them with their real types.
public enum TransferKitExecutable {
    /// The environment variable that overrides the default path: `TRANSFERKIT_EXECUTABLE`.
    public static let environmentVariable = "TRANSFERKIT_EXECUTABLE"

    /// The folder holding the built products: the folder of the running test executable (Linux), or of the
    /// loaded `.xctest` bundle (macOS).
    public static var productsDirectory: URL {
        if let bundle = Bundle.allBundles.first(where: { $0.bundlePath.hasSuffix(".xctest") }) {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        if let executable = Bundle.main.executableURL {
            return executable.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: CommandLine.arguments.first ?? ".").deletingLastPathComponent()
    }

    /// The path of a product in ``productsDirectory``, such as your own tool's executable.
    ///
    /// - Parameter name: The product's name.
    /// - Returns: Its path.
    public static func product(named name: String) -> String {
        productsDirectory.appendingPathComponent(name).path
    }

    /// `TRANSFERKIT_EXECUTABLE` if it is set and not empty, else `transferkit` in ``productsDirectory``.
    public static var defaultPath: String {
        if let path = ProcessInfo.processInfo.environment[environmentVariable], !path.isEmpty {
            return path
        }
        return product(named: "transferkit")
    }
}
