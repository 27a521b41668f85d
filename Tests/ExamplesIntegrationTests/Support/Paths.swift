import Foundation
import TransferKit
import TransferKitCLI
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting

/// The committed archives, `Examples/Archives`, found from this file's place in the repository.
let archivesDirectory = repositoryFile("Examples/Archives")

/// Every file in `Examples/Archives`, sorted by name.
func committedArchives() throws -> [URL] {
    try FileManager.default.contentsOfDirectory(at: archivesDirectory, includingPropertiesForKeys: nil)
        .filter { ["transferkit", "json"].contains($0.pathExtension) }
        .sorted { $0.lastPathComponent < $1.lastPathComponent }
}

/// Runs a built product (`transferkit`, `CharacterCards`, …) from the products directory.
func runProduct(_ name: String, _ arguments: [String], input: [UInt8] = []) async throws -> ChildProcess.Result {
    try await ChildProcess.run(TransferKitExecutable.product(named: name), arguments: arguments, input: input)
}
