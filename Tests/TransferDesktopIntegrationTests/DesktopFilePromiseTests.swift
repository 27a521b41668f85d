import Foundation
import Testing
import TransferClipboard
import TransferDesktop
import TransferDisplayTestSupport
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport
import TransferSessions
import TransferSessionsTestSupport

/// File promises through the public API (issue 23, item 4): two `DesktopWindow`s of this process on a private Xvfb,
/// a real (xdotool) drag between them, and XDS underneath.
@Suite(
    "Desktop file promises on X11", .serialized, .timeLimit(.minutes(5)),
    .enabled(if: PrivateXvfb.isAvailable, "needs Xvfb and xdotool (Debian: xvfb, xdotool)"))
struct DesktopFilePromiseTests {
    /// What the target's drop saw: the promised name, and the received file or the error.
    struct Received: Sendable {
        var name: String?
        var file: Result<URL, ClipboardError>
    }

    /// Drags a card from one window to another, the drag promising `promise`; the target asks for the promised file
    /// into `folder`. Returns what the target saw and the drag's result, or `nil` (recorded as an issue) when no
    /// drop arrived.
    private func drag(
        promise: DesktopFilePromise?, into folder: URL, xvfb: PrivateXvfb
    ) async throws -> (Received, DesktopDragResult)? {
        let tag = UUID().uuidString.prefix(8)
        let options = { (title: String) in
            DesktopWindow.Options(
                title: title, lines: ["card"], environment: xvfb.environment, timeout: .seconds(30))
        }
        let source = try await DesktopWindow.open(options("promise source \(tag)"))
        defer { source.close() }
        let target = try await DesktopWindow.open(options("promise target \(tag)"))
        defer { target.close() }
        let pointer = PointerDriver(environment: xvfb.environment)
        try await pointer.place(try await pointer.window(titled: "promise source \(tag)"), at: ScreenPoint(x: 0, y: 0))
        try await pointer.place(
            try await pointer.window(titled: "promise target \(tag)"), at: ScreenPoint(x: 400, y: 100))

        let drops = target.drops { _ in DropProposal(operation: .copy) }
        let receiver = Task { () throws -> Received? in
            for try await drop in drops {
                let name = await drop.promisedFileName
                do {
                    let url = try await drop.receivePromisedFile(into: folder)
                    _ = try await drop.perform { _, _ in }
                    return Received(name: name, file: .success(url))
                } catch let error as ClipboardError {
                    await drop.decline()
                    return Received(name: name, file: .failure(error))
                }
            }
            return nil
        }
        defer { receiver.cancel() }
        let list = TransferList([Row(id: "1", title: "card 1")], makeProvider: Row.provider)
        let session = try list.beginDrag(["1"])
        let drag = Task { try await source.drag(session, filePromise: promise) }
        // Neither wait below may outlast the test, should no drop come: cancelling the test does not reach these
        // unstructured tasks. (A press that reaches the window before the drag is armed still begins it.)
        let watchdog = Task {
            try? await Task.sleep(for: .seconds(60))
            drag.cancel()
            receiver.cancel()
        }
        defer { watchdog.cancel() }
        try await pointer.drag(from: ScreenPoint(x: 50, y: 30), to: ScreenPoint(x: 470, y: 160), steps: 6)
        let result = try await drag.value
        guard let received = try await receiver.value else {
            Issue.record("no drop arrived; the drag ended \(result.operation)")
            return nil
        }
        return (received, result)
    }

    @Test("a promised file is written by the source into the target's folder, only when the target asks")
    func promiseIsWrittenWhereTheTargetAsks() async throws {
        let directory = try makeTemporaryDirectory(prefix: "tk-promise")
        defer { try? FileManager.default.removeItem(at: directory) }
        let xvfb = try await PrivateXvfb(directory: directory)
        let folder = directory.appendingPathComponent("downloads")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let contents = Data("promised card ✓\n".utf8)
        let writes = SanitizedMutex([URL]())
        let promise = DesktopFilePromise(suggestedName: "card.txt") { url, _ in
            writes.withLock { $0.append(url) }
            try contents.write(to: url, options: .withoutOverwriting)
        }
        #expect(writes.withLock { $0 }.isEmpty)
        guard let (received, result) = try await drag(promise: promise, into: folder, xvfb: xvfb) else { return }
        let expected = folder.appendingPathComponent("card.txt")
        #expect(received.name == "card.txt")
        #expect(try received.file.get() == expected)
        // The promise wrote once, into a private folder inside the target's; the file was then linked there.
        #expect(writes.withLock { $0.map(\.lastPathComponent) } == ["card.txt"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["card.txt"])
        #expect(FileManager.default.contents(atPath: expected.path) == contents)
        #expect(result.operation == .copy)
    }

    @Test("a drag without a promise: no promised name, and receivePromisedFile throws typeUnavailable")
    func noPromiseIsTypeUnavailable() async throws {
        let directory = try makeTemporaryDirectory(prefix: "tk-promise")
        defer { try? FileManager.default.removeItem(at: directory) }
        let xvfb = try await PrivateXvfb(directory: directory)
        guard let (received, result) = try await drag(promise: nil, into: directory, xvfb: xvfb) else { return }
        #expect(received.name == nil)
        switch received.file {
        case .success(let url): Issue.record("a file arrived without a promise: \(url.path)")
        case .failure(let error): #expect(error.code == .typeUnavailable)
        }
        #expect(result.operation == .cancel)
    }
}
