import Foundation
import Testing
import TransferKit
import TransferSessions
import TransferSessionsTestSupport

/// The application a process is in by default, and why a refused move says why.
@Suite("Application identity and refused moves", .timeLimit(.minutes(5)))
struct DropRefusalTests {
    private static let otherApplication = TransferSessionOrigin(
        applicationIdentifier: "com.example.other", processIdentifier: 7)

    private static func list(_ ids: String...) -> TransferList<Row> {
        TransferList(ids.map { Row(id: $0, title: "row \($0)") }, makeProvider: Row.provider)
    }

    @Test("the default application is the executable's folder, when that folder is not a shared bin folder")
    func defaultIdentityIsTheInstallation() throws {
        // The test runner lives in the package's build folder, beside the package's other executables.
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let folder = URL(fileURLWithPath: executable).deletingLastPathComponent().path
        #expect(TransferSessionOrigin.defaultApplicationIdentifier == folder)
        #expect(TransferSessionOrigin.current.applicationIdentifier == folder)
        #expect(TransferSessionOrigin.current.processIdentifier == ProcessInfo.processInfo.processIdentifier)
    }

    @Test("a move into another application is cancelled, and both ends are told why")
    func otherApplicationSaysWhy() async throws {
        let (left, right) = (Self.list("a"), Self.list())
        let session = try left.beginDrag(["a"])
        let result = try await right.drop(session, at: 0, destination: Self.otherApplication)
        #expect(result.operation == .cancel)
        let refusal = try #require(result.refusal)
        #expect(refusal.reason == .otherApplication)
        #expect(refusal.source == .current && refusal.destination == Self.otherApplication)
        #expect(refusal.description.contains("com.example.other"))
        #expect(refusal.description.contains("allowsMoveToOtherApplications"))
        #expect(session.endRefusal == refusal)
        #expect(await session.ended() == .cancel)
        #expect(left.elements.map(\.id) == ["a"] && right.elements.isEmpty)
    }

    @Test("each reason of the rule", arguments: [DropRefusal.Reason.moveNotAllowed, .noSource])
    func eachReason(_ reason: DropRefusal.Reason) async throws {
        let item = DragItem(id: "a", provider: Row.provider(for: Row(id: "a", title: "a")))
        let session =
            reason == .noSource
            ? DragSession(items: [item], source: nil)
            : DragSession(items: [item], source: Self.list("a"), allowsMoveOperation: false)
        #expect(session.moveRefusal(at: .current)?.reason == reason)
        let result = try await session.drop(DropProposal(operation: .move), on: .current) { _, _ in
            Issue.record("a refused move must not commit")
        }
        #expect(result.operation == .cancel && result.refusal?.reason == reason)
        #expect(session.endRefusal?.reason == reason)
    }

    @Test("a move the rule allows, a copy and a plain cancel carry no refusal")
    func noRefusal() async throws {
        let (left, right) = (Self.list("a", "b"), Self.list())
        let moved = try left.beginDrag(["a"])
        #expect(moved.moveRefusal(at: .current) == nil)
        let move = try await right.drop(moved, at: 0)
        #expect(move.operation == .move && move.refusal == nil && moved.endRefusal == nil)
        let cancelled = try left.beginDrag(["b"])
        await cancelled.cancel()
        #expect(cancelled.endRefusal == nil)
        let copied = try left.beginDrag(["b"], allowsMoveOperation: false)
        let copy = try await Self.list().drop(copied, at: 0, operation: .copy)
        #expect(copy.operation == .copy && copy.refusal == nil && copied.endRefusal == nil)
    }

    @Test("across processes: the destination's result and the source's session both say why")
    func acrossProcesses() async throws {
        let (path, directory) = try socketPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (left, right) = (Self.list("a"), Self.list())
        let session = try left.beginDrag(["a"])
        let publication = try DragSessionPublication(unhurriedPublishing: session, atPath: path)
        defer { publication.close() }
        let remote = try await RemoteDragSession.connectUnhurried(
            toPath: path, origin: Self.otherApplication)
        #expect(remote.moveRefusal()?.reason == .otherApplication)
        let result = try await right.drop(remote, at: 0)
        #expect(result.operation == .cancel && result.refusal?.reason == .otherApplication)
        #expect(await publication.ended() == .cancel)
        // The source saw the destination's application as the kernel and the hello named it.
        #expect(session.endRefusal?.reason == .otherApplication)
        #expect(session.endRefusal?.destination.applicationIdentifier == "com.example.other")
    }
}
