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
