import Foundation
import Testing
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport
import TransferSessions
import TransferSessionsTestSupport
import UniformTypes

/// Two pipes: the destination's messages to the source, and the source's to the destination, as a command's
/// standard input and output carry them.
private struct PipePair {
    let toSource: (read: Int32, write: Int32)
    let toDestination: (read: Int32, write: Int32)

    init() throws {
        toSource = try Syscall.makePipe()
        toDestination = try Syscall.makePipe()
    }

    /// Serves `session` on the source's ends until the destination disconnects.
    func serve(_ session: DragSession) -> Task<Void, any Error> {
        Task {
            try await DragSessionPublication.serve(
                session, input: toSource.read, output: toDestination.write, timeout: .seconds(30), clock: unhurried)
        }
    }

    /// Connects on the destination's ends.
    func connect(origin: TransferSessionOrigin = .current) async throws -> RemoteDragSession {
        try await RemoteDragSession.connect(
            input: toDestination.read, output: toSource.write, origin: origin, timeout: .seconds(30), clock: unhurried)
    }

    /// Closes this test's own copies (each side works on duplicates), so that an end of either side is seen.
    func close() {
        for descriptor in [toSource.read, toSource.write, toDestination.read, toDestination.write] {
            Syscall.close(descriptor)
        }
    }
}

@Suite("Sessions over a byte stream: the protocol over two pipes", .timeLimit(.minutes(2)))
struct StreamSessionTests {
    @Test("every type is offered at once; only what is loaded crosses, a file's bytes as chunks")
    func lazyLoading() async throws {
        let calls = CallCounter()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stream-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Larger than a chunk, so it crosses in several; a file, which a socket would pass as a descriptor.
        let fileBytes = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        let file = directory.appendingPathComponent("picture.png")
        try fileBytes.write(to: file)
        let provider = TransferProvider()
        provider.registerDataRepresentation(for: .utf8PlainText) { _ in
            calls.count("text")
            return Data("hello".utf8)
        }
        provider.registerFileRepresentation(for: .png) { _ in
            calls.count("png")
            return file
        }
        let session = DragSession(items: [DragItem(id: "1", provider: provider)], source: nil)
        let pipes = try PipePair()
        let serving = pipes.serve(session)
        let remote = try await pipes.connect()
        pipes.close()
        #expect(remote.id == session.id)
        #expect(remote.items[0].provider.registeredTypes == [.utf8PlainText, .png])
        #expect(calls["text"] == 0 && calls["png"] == 0)
        #expect(try await remote.items[0].provider.loadDataRepresentation(for: .png) == fileBytes)
        #expect(calls["png"] == 1 && calls["text"] == 0)
        #expect(try await remote.items[0].provider.loadDataRepresentation(for: .utf8PlainText) == Data("hello".utf8))
        remote.close()
        // The source's serve returns once its destination has gone.
        try await serving.value
    }

    @Test("a destination that claims the source's application is treated as another one: its move is cancelled")
    func claimedApplicationIsNotBelieved() async throws {
        let list = TransferList(
            [Row(id: "a", title: "A"), Row(id: "b", title: "B")], makeCopy: { $0 }, makeProvider: Row.provider)
        let session = try list.beginDrag(["a"])
        let pipes = try PipePair()
        let serving = pipes.serve(session)
        let remote = try await pipes.connect(origin: sameApplicationElsewhere)
        pipes.close()
        #expect(remote.allowsMoveOperation)
        let result = try await remote.drop(DropProposal(operation: .move)) { _, _ in
            Issue.record("a cancelled move must not commit")
        }
        #expect(result.operation == .cancel)
        #expect(list.elements.map(\.id) == ["a", "b"])
        remote.close()
        try await serving.value
    }

    @Test("a move the session allows into other applications crosses once, and the source removes the item")
    func moveAcrossTheStream() async throws {
        let list = TransferList(
            [Row(id: "a", title: "A"), Row(id: "b", title: "B")], makeCopy: { $0 }, makeProvider: Row.provider)
        let session = try list.beginDrag(["b"], allowsMoveToOtherApplications: true)
        let pipes = try PipePair()
        let serving = pipes.serve(session)
        let remote = try await pipes.connect()
        pipes.close()
        let result = try await remote.drop(DropProposal(operation: .move)) { drop, _ in
            try await drop.loadObjects(ofClass: Row.self).map(\.title)
        }
        #expect(result.operation == .move)
        #expect(result.value == ["B"])
        #expect(list.elements.map(\.id) == ["a"])
        try await serving.value
    }

    @Test("the stream ending in the middle of a load fails it with loaderFailed, caused by the disconnection")
    func streamEndsMidLoad() async throws {
        let provider = TransferProvider()
        provider.registerStreamRepresentation(for: .data) { _ in
            TransferByteStream(length: nil, EndlessChunks(onStop: {}))
        }
        let session = DragSession(items: [DragItem(id: "1", provider: provider)], source: nil)
        let pipes = try PipePair()
        let serving = pipes.serve(session)
        let remote = try await pipes.connect()
        pipes.close()
        let stream = try await remote.items[0].provider.loadStream(for: .data)
        var iterator = stream.makeAsyncIterator()
        #expect(try await iterator.next() != nil)
        // The source goes: its serve is cancelled and the stream ends.
        serving.cancel()
        let error = await #expect(throws: TransferError.self) {
            while try await iterator.next() != nil {}
        }
        #expect(error?.code == .loaderFailed)
        #expect((error?.cause as? TransferSessionError)?.code == .disconnected)
    }

    @Test("descriptors that are not open are disconnected, on either side, before anything is sent")
    func closedDescriptors() async throws {
        let connect = await #expect(throws: TransferSessionError.self) {
            try await RemoteDragSession.connect(input: -1, output: -1, timeout: .seconds(30), clock: unhurried)
        }
        #expect(connect?.code == .disconnected)
        let session = DragSession(items: [], source: nil)
        let serve = await #expect(throws: TransferSessionError.self) {
            try await DragSessionPublication.serve(
                session, input: -1, output: -1, timeout: .seconds(30), clock: unhurried)
        }
        #expect(serve?.code == .disconnected)
    }

    @Test("a source that never answers is timedOut; one that writes garbage is protocolViolation")
    func silentAndGarbledSources() async throws {
        let clock = WireClock.manual()
        let silent = try PipePair()
        defer { silent.close() }
        let waited = await advancing(clock, by: .seconds(30)) {
            try await RemoteDragSession.connect(
                input: silent.toDestination.read, output: silent.toSource.write, timeout: .seconds(30), clock: clock)
        }
        #expect(throws: TransferSessionError.self) { try waited.get() }
        #expect((waited.failure as? TransferSessionError)?.code == .timedOut)

        let garbled = try PipePair()
        defer { garbled.close() }
        let text = Array("not a session at all\n".utf8)
        try text.withUnsafeBytes { try Syscall.write(garbled.toDestination.write, $0) }
        let error = await #expect(throws: TransferSessionError.self) {
            try await garbled.connect()
        }
        #expect(error?.code == .protocolViolation)
    }
}

extension Result {
    /// The error, when this is a failure.
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
