import Foundation
import Testing
import TransferKitCompatibility
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting
import TransferSessions

@testable import TransferKitCompatibilitySeeds

/// The seeds' classes moved to another process (the compatibility probe), which decodes them with their own code.
@Suite("The seeds' classes in sessions across processes", .timeLimit(.minutes(5)))
struct SessionBridgeProcessTests {
    typealias Card = IdentifiedItemProviderObject<Model>

    /// The session's time limit: the probe answers in well under a second; only a broken run waits.
    private let patience: Duration = .seconds(60)

    @Test("A Model moves to another process, which decodes it with the class's own code; the source loses it once")
    func moveToAnotherProcess() async throws {
        let directory = try makeTemporaryDirectory(prefix: "tk-compat-proc")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("s").path
        let first = TransferList(
            ["Panther", "Otter", "Heron"].map {
                Card(Model(name: $0, character: "\($0)'s character", favorite: "\($0)'s favorite"))
            })
        let session = try first.beginDrag(["Otter"])
        let publication = try DragSessionPublication(publishing: session, atPath: path, timeout: patience)
        defer { publication.close() }
        let child = try await ChildProcess.run(
            TransferKitExecutable.product(named: "transferkit-compatibility-probe"), arguments: ["drop-models", path])
        #expect(child.status == 0, "\(child.errorText)")
        #expect(child.outputText == "move\nOtter|Otter's character|Otter's favorite\n")
        #expect(try await publication.ended(within: patience) == .move)
        #expect(first.elements.map(\.id) == ["Panther", "Heron"])
    }
}
