public import Foundation

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
