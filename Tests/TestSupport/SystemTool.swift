import Foundation
import TransferKitPlatform

/// The system programs the tests drive (`python3`, `xdotool`, `Xvfb`, `xclip`, `prlimit`, …), found one way: the
/// first of ``searchPath``'s folders that holds an executable of that name. A test that needs one is enabled with
/// ``exists(_:)`` and runs ``path(_:)``.
public enum SystemTool {
    /// The folders searched, in order: Debian's, then a local installation's. The test process's `PATH` is not
    /// used, so that a developer's own builds of these tools do not change what the tests measure.
    public static let searchPath = ["/usr/bin", "/bin", "/usr/sbin", "/sbin", "/usr/local/bin"]

    /// Whether `name` is installed in one of ``searchPath``'s folders.
    public static func exists(_ name: String) -> Bool { location(of: name) != nil }

    /// Whether all of `names` are installed.
    public static func exist(_ names: String...) -> Bool { names.allSatisfy(exists) }

    /// The full path of `name`: where it is installed, or `/usr/bin/NAME` when it is not, so that a test that
    /// runs it anyway fails saying which program was missing (tests check ``exists(_:)`` first).
    public static func path(_ name: String) -> String { location(of: name) ?? "/usr/bin/" + name }

    /// Where `name` is installed, or `nil`.
    public static func location(of name: String) -> String? {
        guard !name.isEmpty, !name.contains("/") else { return nil }
        return searchPath.lazy.map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// Whether a server listens on the Unix socket at `path`: a connection is accepted. A socket file alone is not
/// enough, since a server binds (making the file) before it listens, and a client in between is refused.
public func unixSocketAccepts(_ path: String) -> Bool {
    guard FileManager.default.fileExists(atPath: path), let socket = try? UnixSocket.connect(toPath: path) else {
        return false
    }
    socket.close()
    return true
}

/// What `Tests/Interop/session_peer.py check-RULE-offer` says of `bytes`, a session offer checked against
/// `Schemas/transfer-session.cddl`: `rule` is `desktop` (section 7) or `clipboard` (section 7.1). The answer is
/// `valid RULE-session-offer [keys]` or `invalid: why`.
public func checkSessionOfferAgainstCDDL(_ bytes: [UInt8], rule: String) async throws -> String {
    let result = try await ChildProcess.run(
        SystemTool.path("python3"),
        arguments: [
            repositoryFile("Tests/Interop/session_peer.py").path, "check-\(rule)-offer",
            repositoryFile("Schemas/transfer-session.cddl").path,
        ], input: bytes)
    return String(decoding: result.standardOutput, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}
