import Foundation

/// A fresh directory under the system's temporary directory, removed with everything in it when the value is
/// released.
final class TemporaryDirectory {
    /// The directory's path.
    let path: String

    init() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "transferkit-bench-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = url.path
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
