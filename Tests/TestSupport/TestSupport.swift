public import Foundation
import TransferKitPlatform

/// A fresh, empty folder under the system's temporary folder; the caller removes it.
///
/// - Parameter prefix: The start of the folder's name, to tell test leftovers apart.
public func makeTemporaryDirectory(prefix: String = "transferkit-tests") throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// The root of the package's checkout, found from this file's place in it (`Tests/TestSupport/`).
public let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// A file or folder of the checkout, such as `Examples/Archives`.
public func repositoryFile(_ relativePath: String) -> URL {
    repositoryRoot.appendingPathComponent(relativePath)
}

/// Writes an executable shell script (`#!/bin/sh`, then `body`) at `path`.
///
/// Written through a close-on-exec descriptor, not `Data.write` (whose descriptor is inheritable): a child that
/// another test spawns meanwhile would keep the script open for writing as long as that child runs, and starting the
/// script would then fail with `ETXTBSY` ("Text file busy") for that long.
public func writeExecutableScript(_ body: String, toPath path: String) throws {
    try AtomicFile.writeDurably(Array("#!/bin/sh\n\(body)".utf8), toPath: path)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
}

/// A new private folder (mode 0700) with a short path, `/tmp/PREFIX-XXXXXXXX`, for a child's `XDG_RUNTIME_DIR`: a
/// drag publishes its session's socket there, and a socket address holds at most 107 bytes, which a test folder's
/// path (``makeTemporaryDirectory(prefix:)``) can pass. Remove it when done.
public func makeRuntimeDirectory(prefix: String) throws -> URL {
    let url = URL(fileURLWithPath: "/tmp/\(prefix)-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(
        at: url, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    return url
}
