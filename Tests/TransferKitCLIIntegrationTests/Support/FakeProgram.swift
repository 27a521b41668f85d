import Foundation
import TransferKitTestSupport

/// Writes an executable shell script named `name` into `<folder>/bin` (made if needed), a stand-in for a program the
/// tool runs (such as `update-mime-database`); the body follows `#!/bin/sh`.
/// - Returns: The `bin` folder, to put in front of `PATH`, and the script's path.
func makeFakeProgram(named name: String, body: String, in folder: URL) throws -> (bin: URL, path: String) {
    let bin = folder.appendingPathComponent("bin")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    let path = bin.appendingPathComponent(name).path
    try writeExecutableScript(body, toPath: path)
    return (bin, path)
}
