import Foundation
import Testing
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting
import TransferSessions
import UniformTypes

/// Two executables of one installation are one application by default: a move between them needs no
/// configuration, and one that another application's rule refuses says why.
@Suite("Application identity between two executables", .serialized, .timeLimit(.minutes(5)))
struct ApplicationIdentityTests {
    private static let executable = TransferKitExecutable.product(named: "CharacterCards")
    /// The sessions' time limit, in seconds: this test process is one side, and under the whole suite (above all the
    /// thread sanitizer's run) its task pool can be busy for a minute or more, as the hostile-peer tests found.
    private static let patience = 200

    /// The example's card, as this test process writes it: the same JSON under the same type.
    private struct Card: TransferCodable, Identifiable {
        var name: String
        var character: String
        var favorite: String
        var id: String { name }
        static var contentType: UniformType {
            UniformType(exportedAs: "com.example.character-card", conformingTo: .json)
        }
    }

    /// Publishes a drag of one card from this test process (with the default origin) and lets the example's
    /// destination drop it as a move; returns how the session ended, and the example's output.
    private func moveToExample(environment: [String: String]?) async throws -> (DragSession, DropOperation, String) {
        let directory = try makeTemporaryDirectory(prefix: "tk-id")
        defer { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        try #"{"cards":[],"pending":{}}"#.write(toFile: path("B.json"), atomically: true, encoding: .utf8)
        let list = TransferList([Card(name: "Han", character: "Smuggler", favorite: "the Falcon")])
        let session = try list.beginDrag(["Han"])
        let record = try SessionDecisionRecord(directory: URL(fileURLWithPath: path("record")))
        let publication = try DragSessionPublication(
            publishing: session, atPath: path("s"), decisions: record, timeout: .seconds(Self.patience))
        defer { publication.close() }
        let destination = try await ChildProcess.run(
            Self.executable,
            arguments: [
                "session-destination", path("B.json"), path("s"), path("record"), "--timeout", "\(Self.patience)",
            ],
            environment: environment)
        let operation = try await publication.ended(within: .seconds(Self.patience))
        let output = String(decoding: destination.standardOutput + destination.standardError, as: UTF8.self)
        return (session, operation, output)
    }

    @Test("a move to another executable of the same build folder is a move, with no identifier set by either")
    func sameInstallationMoves() async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["TRANSFERKIT_APPLICATION_ID"] = nil
        let (session, operation, output) = try await moveToExample(environment: environment)
        #expect(operation == .move, "\(output)")
        #expect(output.contains("destination: move; [Han]"), "\(output)")
        #expect(session.endRefusal == nil)
    }

    @Test("TRANSFERKIT_APPLICATION_ID names another application: the move is cancelled and the source says why")
    func anotherApplicationSaysWhy() async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["TRANSFERKIT_APPLICATION_ID"] = "com.example.elsewhere"
        let (session, operation, output) = try await moveToExample(environment: environment)
        #expect(operation == .cancel, "\(output)")
        #expect(output.contains("destination: cancel; []"), "\(output)")
        let refusal = try #require(session.endRefusal)
        #expect(refusal.reason == .otherApplication)
        #expect(refusal.destination.applicationIdentifier == "com.example.elsewhere")
        #expect(refusal.source.applicationIdentifier == TransferSessionOrigin.defaultApplicationIdentifier)
    }
}
