import Foundation
import Testing
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport
import TransferSessions
import TransferSessionsTestSupport
import UniformTypes

/// This application in another process: a move is allowed, local objects do not cross.
let sameApplicationElsewhere = TransferSessionOrigin(
    applicationIdentifier: TransferSessionOrigin.current.applicationIdentifier, processIdentifier: 999_999)

/// Counts calls by name, across tasks.
final class CallCounter: Sendable {
    private let counts = SanitizedMutex<[String: Int]>([:])
    func count(_ name: String) { counts.withLock { $0[name, default: 0] += 1 } }
    subscript(name: String) -> Int { counts.withLock { $0[name, default: 0] } }
}

private func rowLists(_ left: [String], _ right: [String]) -> (TransferList<Row>, TransferList<Row>) {
    let copy: @Sendable (Row) -> Row = { Row(id: $0.id + "+", title: $0.title) }
    return (
        TransferList(left.map { Row(id: $0, title: "row \($0)") }, makeCopy: copy, makeProvider: Row.provider),
        TransferList(right.map { Row(id: $0, title: "row \($0)") }, makeCopy: copy, makeProvider: Row.provider)
    )
}

@Suite("Sessions across processes: the protocol over a real socket", .timeLimit(.minutes(5)))
struct RemoteSessionTests {
    @Test("the destination sees every offered type at once and only what it loads crosses")
    func lazyLoading() async throws {
        let (path, directory) = try socketPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let calls = CallCounter()
        let provider = TransferProvider()
        provider.registerDataRepresentation(for: .utf8PlainText) { _ in
            calls.count("text")
            return Data("hello".utf8)
        }
        provider.registerDataRepresentation(for: .png) { _ in
            calls.count("png")
            return Data([0x89, 0x50])
        }
        provider.registerDataRepresentation(for: .json, visibility: .ownProcess) { _ in
            calls.count("json")
            return Data("{}".utf8)
        }
        let session = DragSession(items: [DragItem(id: "1", provider: provider)], source: nil)
        let publication = try DragSessionPublication(unhurriedPublishing: session, atPath: path)
        defer { publication.close() }
        let remote = try await RemoteDragSession.connectUnhurried(
            toPath: path, origin: sameApplicationElsewhere)
        #expect(remote.id == session.id)
        #expect(remote.items.map(\.id) == ["1"])
        #expect(remote.items[0].provider.registeredTypes == [.utf8PlainText, .png])
        #expect(calls["text"] == 0 && calls["png"] == 0)
        let bytes = try await remote.items[0].provider.loadDataRepresentation(for: .png)
        #expect(bytes == Data([0x89, 0x50]))
        #expect(calls["png"] == 1 && calls["text"] == 0 && calls["json"] == 0)
        remote.close()
    }

    @Test("only registered types cross; the destination derives the others (HTML's plain text) from what it loads")
    func derivedTypesAtTheDestination() async throws {
        let (path, directory) = try socketPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let calls = CallCounter()
        let provider = TransferProvider()
        provider.registerDataRepresentation(for: .html) { _ in
            calls.count("html")
            return Data("<p>Caf&eacute; &amp; bar</p>".utf8)
        }
        #expect(provider.offeredTypes.contains(.utf8PlainText))
        let session = DragSession(items: [DragItem(id: "1", provider: provider)], source: nil)
        let publication = try DragSessionPublication(unhurriedPublishing: session, atPath: path)
        defer { publication.close() }
        let remote = try await RemoteDragSession.connectUnhurried(
            toPath: path, origin: sameApplicationElsewhere)
        let item = remote.items[0].provider
        #expect(item.registeredTypes == [.html])
        #expect(item.offeredTypes.prefix(2) == [.html, .utf8PlainText])
        #expect(calls["html"] == 0)
        let text = try await item.loadObject(ofClass: String.self)
        #expect(text == "Café & bar")
        #expect(calls["html"] == 1)
        remote.close()
    }

    @Test("a move reaches the destination once; the source removes the item only after the commit")
    func moveAcrossProcesses() async throws {
        let (path, directory) = try socketPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (left, right) = rowLists(["a", "b", "c"], ["x"])
        let session = try left.beginDrag(["b"])
        let publication = try DragSessionPublication(unhurriedPublishing: session, atPath: path)
        defer { publication.close() }
        let remote = try await RemoteDragSession.connectUnhurried(
            toPath: path, origin: sameApplicationElsewhere)
        let sourceDuringCommit = SanitizedMutex<[String]>([])
        let result = try await remote.drop(DropProposal(operation: .move)) { drop, operation in
            let rows = try await drop.loadObjects(ofClass: Row.self)
            #expect(operation == .move && drop.localDragSession == nil)
            sourceDuringCommit.withLock { $0 = left.elements.map(\.id) }
            try right.edit { $0.append(contentsOf: rows) }
        }
        #expect(result.operation == .move && result.transferredItems == ["b"])
        #expect(sourceDuringCommit.withLock { $0 } == ["a", "b", "c"])
        #expect(await session.ended() == .move)
        #expect(await publication.ended() == .move)
        #expect(left.elements.map(\.id) == ["a", "c"])
        #expect(right.elements.map(\.id) == ["x", "b"])
    }

    @Test("the move rule crosses too: another application gets cancel unless the source allows it")
    func moveRuleAcrossApplications() async throws {
        let (path, directory) = try socketPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (left, right) = rowLists(["a"], [])
        let session = try left.beginDrag(["a"])
        let publication = try DragSessionPublication(unhurriedPublishing: session, atPath: path)
        defer { publication.close() }
        let other = TransferSessionOrigin(applicationIdentifier: "com.example.other", processIdentifier: 5)
        let remote = try await RemoteDragSession.connectUnhurried(toPath: path, origin: other)
        #expect(remote.resolvedOperation(for: .move) == .cancel)
        let result = try await right.drop(remote, at: 0)
        #expect(result.operation == .cancel && result.transferredItems.isEmpty)
        #expect(left.elements.map(\.id) == ["a"] && right.elements.isEmpty)
        #expect(await session.ended() == .cancel)
    }

    @Test("a copy keeps the source and adds a copy")
    func copyAcrossProcesses() async throws {
        let (path, directory) = try socketPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (left, right) = rowLists(["a", "b"], ["x"])
        let session = try left.beginDrag(["a"])
        let publication = try DragSessionPublication(unhurriedPublishing: session, atPath: path)
        defer { publication.close() }
        let remote = try await RemoteDragSession.connectUnhurried(
            toPath: path, origin: sameApplicationElsewhere)
        let result = try await right.drop(remote, at: 1, operation: .copy)
        #expect(result.operation == .copy)
        #expect(left.elements.map(\.id) == ["a", "b"] && right.elements.map(\.id) == ["x", "a+"])
        #expect(await session.ended() == .copy)
    }

    @Test("a commit that throws leaves the source whole and the destination empty")
    func failedCommit() async throws {
        let (path, directory) = try socketPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (left, _) = rowLists(["a", "b"], [])
        let session = try left.beginDrag(["a"])
        let publication = try DragSessionPublication(unhurriedPublishing: session, atPath: path)
        defer { publication.close() }
        let remote = try await RemoteDragSession.connectUnhurried(
            toPath: path, origin: sameApplicationElsewhere)
        let error1 = await #expect(throws: TransferSessionError.self) {
            _ = try await remote.drop(DropProposal(operation: .move)) { _, _ in throw URLError(.cannotWriteToFile) }
        }
        #expect(error1?.code == .commitFailed)
        #expect(await session.ended() == .cancel)
        #expect(left.elements.map(\.id) == ["a", "b"])
        // A second drop from a new connection finds the session ended.
        let error2 = await #expect(throws: TransferSessionError.self) {
            _ = try await RemoteDragSession.connectUnhurried(toPath: path, origin: sameApplicationElsewhere)
        }
        #expect(error2?.code == .disconnected)
    }

    @Test("a destination that disconnects after the reservation leaves the items in the source")
    func destinationGoneBeforeCommit() async throws {
        let (path, directory) = try socketPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (left, _) = rowLists(["a", "b"], [])
        let session = try left.beginDrag(["a", "b"])
        let publication = try DragSessionPublication(unhurriedPublishing: session, atPath: path)
        defer { publication.close() }
        let remote = try await RemoteDragSession.connectUnhurried(
            toPath: path, origin: sameApplicationElsewhere)
        await #expect(throws: TransferSessionError.self) {
            _ = try await remote.drop(DropProposal(operation: .move)) { _, _ in
                remote.close()
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        #expect(await session.ended() == .cancel)
        #expect(left.elements.map(\.id) == ["a", "b"])
        // The reservation is gone: the items can be dragged again.
        #expect(try left.beginDrag(["a"]).items.count == 1)
    }

    @Test("cancelling a load at the destination stops the source's loader")
    func cancellationCrosses() async throws {
        let (path, directory) = try socketPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stopped = CallCounter()
        let provider = TransferProvider()
        // An endless loader: a chunk every 5 ms until its reader goes away.
        provider.registerStreamRepresentation(for: .data) { _ in
            let (chunks, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
            continuation.onTermination = { _ in stopped.count("loader") }
            Task {
                while case .enqueued = continuation.yield(Data(repeating: 7, count: 1024)) {
                    try await Task.sleep(for: .milliseconds(5))
                }
            }
            return TransferByteStream(chunks)
        }
        let session = DragSession(items: [DragItem(id: "1", provider: provider)], source: nil)
        let publication = try DragSessionPublication(unhurriedPublishing: session, atPath: path)
        defer { publication.close() }
        let remote = try await RemoteDragSession.connectUnhurried(
            toPath: path, origin: sameApplicationElsewhere)
        let progress = TransferProgress()
        let stream = try await remote.items[0].provider.loadStream(for: .data, progress: progress)
        var received = 0
        let error3 = await #expect(throws: TransferError.self) {
            for try await chunk in stream {
                received += chunk.count
                if received >= 8 * 1024 { progress.cancel() }
            }
        }
        #expect(error3?.code == .cancelled)
        #expect(received >= 8 * 1024)
        for _ in 0..<3000 where stopped["loader"] == 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(stopped["loader"] == 1)
    }

    @Test("a cancel at the source ends the destination's drop")
    func cancelAtSource() async throws {
        let (path, directory) = try socketPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (left, right) = rowLists(["a"], [])
        let session = try left.beginDrag(["a"])
        let publication = try DragSessionPublication(unhurriedPublishing: session, atPath: path)
        defer { publication.close() }
        let remote = try await RemoteDragSession.connectUnhurried(
            toPath: path, origin: sameApplicationElsewhere)
        await session.cancel()
        await #expect(throws: TransferSessionError.self) { _ = try await right.drop(remote, at: 0) }
        #expect(left.elements.map(\.id) == ["a"] && right.elements.isEmpty)
    }

    @Test("an observer that holds the offer past the time limit ends that connection with timedOut; the items stay")
    func observerPastTheLimit() async throws {
        let (path, directory) = try socketPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (left, _) = rowLists(["a"], [])
        let session = try left.beginDrag(["a"])
        let gate = Latch<Void>()
        let offered = Latch<Void>()
        defer { gate.open() }
        // The source's time limit is on a manual clock: it passes when the test says, not by a loaded machine.
        let clock = WireClock.manual()
        let publication = try DragSessionPublication(
            publishing: session, atPath: path, timeout: .seconds(30), clock: clock
        ) { event in
            if event == .offered {
                offered.open()
                await gate.wait()
            }
        }
        defer { publication.close() }
        // The observer holds the offer; once it runs, the limit's 30 s pass.
        Task {
            guard await offered.wait() != nil else { return }
            clock.advance(by: .seconds(30))
        }
        // The destination says hello and drops at once, then reads to the end. Its reads block a thread of their own,
        // which the suite's time limit cannot end: they give up after a minute of real time if the source never
        // answers.
        let rawPeerLimit: Duration = .seconds(60)
        let received = try await DedicatedThread.run { () throws -> [SourceMessage] in
            let socket = try UnixSocket.connect(toPath: path, deadline: .after(rawPeerLimit))
            defer { socket.close() }
            let hello = DestinationMessage.hello(version: SessionWire.version, application: "elsewhere", process: 1)
            try socket.sendAll(
                try SessionWire.frame(hello) + SessionWire.frame(DestinationMessage.drop(operation: .move)))
            var reader = SessionWire.frames
            var buffer = FrameBuffer()
            var messages: [SourceMessage] = []
            var bytes = [UInt8](repeating: 0, count: 4096)
            var descriptors: [Int32] = []
            while try socket.waitUntilReadable(timeout: rawPeerLimit) {
                let count = try bytes.withUnsafeMutableBytes { try socket.receive(into: $0, descriptors: &descriptors) }
                if count == 0 { break }
                buffer.append(bytes.prefix(count))
                while let frame = try reader.nextFrame(from: &buffer) {
                    messages.append(try SessionWire.decode(SourceMessage.self, from: frame[...]))
                }
            }
            return messages
        }
        #expect(received.count == 2, "\(received)")
        guard case .offer? = received.first, case .finished(.cancel, let code, _)? = received.last else {
            Issue.record("expected the offer and then the end, got \(received)")
            return
        }
        #expect(code == SessionWireCode.timedOut.rawValue)
        #expect(left.elements.map(\.id) == ["a"])
        #expect(session.phase == .active)
    }

    @Test("a file representation crosses as a file descriptor")
    func fileRepresentation() async throws {
        let (path, directory) = try socketPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("picture.png")
        let contents = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try contents.write(to: file)
        let provider = TransferProvider()
        provider.registerFileRepresentation(for: .png, openInPlace: true) { _ in file }
        let session = DragSession(items: [DragItem(id: "1", provider: provider)], source: nil)
        let publication = try DragSessionPublication(unhurriedPublishing: session, atPath: path)
        defer { publication.close() }
        let remote = try await RemoteDragSession.connectUnhurried(
            toPath: path, origin: sameApplicationElsewhere)
        #expect(try await remote.items[0].provider.loadDataRepresentation(for: .png) == contents)
    }
}

@Suite("Sessions across processes: hostile peers", .timeLimit(.minutes(5)))
struct HostileSessionPeerTests {
    /// Connects a raw socket to `path` and sends `bytes`; returns what the peer sent back before closing.
    private func exchange(_ bytes: [UInt8], at path: String) throws -> [UInt8] {
        let socket = try UnixSocket.connect(toPath: path)
        try socket.sendAll(bytes, timeout: .seconds(5))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while try socket.waitUntilReadable(timeout: .seconds(10)) {
            var descriptors: [Int32] = []
            let count = try buffer.withUnsafeMutableBytes { try socket.receive(into: $0, descriptors: &descriptors) }
            if count == 0 { break }
            received += buffer.prefix(count)
        }
        return received
    }

    @Test(
        "a source drops connections that send garbage and goes on serving",
        arguments: [
            [0xFF, 0xFF, 0xFF, 0xFF],  // a 4 GiB frame
            [0, 0, 0, 0],  // an empty frame
            [0, 0, 0, 3, 0xA1, 0x61, 0x78],  // a map with a key and no value
            [0, 0, 0, 2, 0xA0, 0x00],  // no message
            [0, 0, 0, 9, 0xA1, 0x66] + Array("commit".utf8) + [0xF6],  // a commit before any drop
        ] as [[UInt8]])
    func hostileDestination(bytes: [UInt8]) async throws {
        let (path, directory) = try socketPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (left, _) = rowLists(["a"], [])
        let session = try left.beginDrag(["a"])
        let publication = try DragSessionPublication(unhurriedPublishing: session, atPath: path)
        defer { publication.close() }
        _ = try exchange(bytes, at: path)
        // Still serving, and the session untouched.
        let remote = try await RemoteDragSession.connectUnhurried(
            toPath: path, origin: sameApplicationElsewhere)
        #expect(remote.items.map(\.id) == ["a"])
        #expect(session.phase == .active && left.elements.map(\.id) == ["a"])
    }

    @Test("a destination speaking another version is refused with the reason")
    func versionMismatch() async throws {
        let (path, directory) = try socketPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let session = DragSession(items: [], source: nil)
        let publication = try DragSessionPublication(unhurriedPublishing: session, atPath: path)
        defer { publication.close() }
        // {"hello": {"version": 3, "application": "x", "process": 1}}
        let body: [UInt8] =
            [0xA1, 0x65] + Array("hello".utf8) + [0xA3, 0x67] + Array("version".utf8) + [0x03, 0x6B]
            + Array("application".utf8) + [0x61, 0x78, 0x67] + Array("process".utf8) + [0x01]
        let reply = try exchange([0, 0, 0, UInt8(body.count)] + body, at: path)
        let text = String(decoding: reply, as: UTF8.self)
        #expect(text.contains("speaks versions 1 to 2 of the session protocol, not 3"))
        #expect(text.contains("protocolViolation"))
    }

    @Test("a version-1 destination gets a version-1 offer and version 1's spelling of a missing type")
    func versionOne() async throws {
        let (path, directory) = try socketPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let session = DragSession(items: [], source: nil)
        // The source closes the connection after this much silence, which ends `exchange`; a loaded machine may
        // stall the source's thread for a second between accepting the connection and reading the hello.
        let publication = try DragSessionPublication(publishing: session, atPath: path, timeout: .seconds(3))
        defer { publication.close() }
        let hello = try SessionWire.frame(
            DestinationMessage.hello(version: 1, application: "old", process: Syscall.processID))
        let load = try SessionWire.frame(DestinationMessage.load(request: 1, item: 0, type: "public.png"))
        var reader = SessionWire.frames
        var buffer = FrameBuffer()
        buffer.append(try exchange(hello + load, at: path))
        var messages: [SourceMessage] = []
        while let body = try reader.nextFrame(from: &buffer) {
            messages.append(try SessionWire.decode(SourceMessage.self, from: body[...]))
        }
        guard case .offer(let version, _, _, _, _, _, _)? = messages.first else {
            Issue.record("no offer: \(messages)")
            return
        }
        #expect(version == 1)
        #expect(
            messages.dropFirst().first == .failed(request: 1, code: "typeUnavailable", message: "There is no item 0."))
    }

    /// Runs a fake source that answers every connection with `reply` (nothing when empty).
    private func fakeSource(at path: String, reply: [UInt8]) throws -> UnixSocket {
        let listener = try UnixSocket.listen(atPath: path)
        Thread {
            while let connection = try? listener.accept() {
                if !reply.isEmpty { try? connection.sendAll(reply, timeout: .seconds(5)) }
                // Long enough that the client's own time limit, not this end, closes a silent connection.
                Thread.sleep(forTimeInterval: 150)
                connection.close()
            }
        }.start()
        return listener
    }

    @Test(
        "a source that sends garbage gives protocolViolation; one that never answers, timedOut",
        arguments: [
            ([0x7F, 0, 0, 0], "protocolViolation"),  // a 2 GiB frame
            ([0, 0, 0, 1, 0xFF], "protocolViolation"),  // a break with nothing to end
            ([0, 0, 0, 3, 0xA1, 0x63] + Array("end".utf8), "protocolViolation"),  // a message cut short
            ([], "timedOut"),  // silence
        ] as [([UInt8], String)])
    func hostileSource(reply: [UInt8], expected: String) async throws {
        let (path, directory) = try socketPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let listener = try fakeSource(at: path, reply: reply)
        defer { listener.shutdown() }
        // The limit is on a manual clock. It stands still for garbage, which ends the connection by itself, and
        // moves 30 s a millisecond for the silent source, which then times out at once.
        let clock = WireClock.manual()
        let connect: @Sendable () async throws -> RemoteDragSession = {
            try await RemoteDragSession.connect(toPath: path, timeout: .seconds(30), clock: clock)
        }
        let result: Result<RemoteDragSession, any Error>
        if expected == "timedOut" {
            result = await advancing(clock, by: .seconds(30), while: connect)
        } else {
            do {
                result = .success(try await connect())
            } catch {
                result = .failure(error)
            }
        }
        guard case .failure(let error as TransferSessionError) = result else {
            Issue.record("\(result)")
            return
        }
        #expect(error.code.description == expected)
    }

    @Test("nothing at the path is disconnected, naming it")
    func nothingThere() async throws {
        let error6 = await #expect(throws: TransferSessionError.self) {
            _ = try await RemoteDragSession.connect(toPath: "/nonexistent/transferkit/session")
        }
        #expect(error6?.code == .disconnected)
    }

    @Test("a listener whose queue stays full makes the connect wait until its time limit, then timedOut")
    func fullListenerQueue() async throws {
        let (path, directory) = try socketPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A backlog of 0 holds one pending connection; nobody accepts, so the next connect finds the queue full.
        let listener = try UnixSocket.listen(atPath: path, backlog: 0)
        defer { listener.close() }
        let pending = try UnixSocket.connect(toPath: path)
        defer { pending.close() }
        let started = ContinuousClock.now
        let error = await #expect(throws: TransferSessionError.self) {
            _ = try await RemoteDragSession.connect(toPath: path, timeout: .milliseconds(300))
        }
        #expect(error?.code == .timedOut)
        #expect(error?.message.contains("did not take the connection") == true)
        #expect(ContinuousClock.now - started >= .milliseconds(300))
    }
}

@Suite("Decision records", .timeLimit(.minutes(5)))
struct SessionDecisionRecordTests {
    @Test("the first decision wins and both sides read it")
    func firstDecisionWins() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let record = try SessionDecisionRecord(directory: directory)
        let session = DragSession.ID()
        #expect(try record.decision(for: session) == nil)
        #expect(try record.decide(.committed, for: session, items: ["a"]).outcome == .committed)
        #expect(try record.resolve(session, items: ["a"]).outcome == .committed)
        #expect(try record.decide(.aborted, for: session, items: []).itemIDs == ["a"])
        let other = DragSession.ID()
        #expect(try record.resolve(other, items: ["b"]).outcome == .aborted)
        #expect(try Set(record.decisions().map(\.session)) == [session.rawValue, other.rawValue])
        record.forget(session)
        #expect(try record.decision(for: session) == nil)
        // Only the decision files: no temporary file is left.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [other.rawValue + ".decision"])
    }

    @Test("a session identity that is not a plain name is refused")
    func hostileIdentity() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let record = try SessionDecisionRecord(directory: directory)
        let error7 = #expect(throws: TransferSessionError.self) {
            try record.decide(.committed, for: DragSession.ID(rawValue: "../escape"), items: [])
        }
        #expect(error7?.code == .protocolViolation)
    }
}

@Suite("Session frames: the bytes Schemas/transfer-session.md defines", .timeLimit(.minutes(5)))
struct SessionFrameTests {
    @Test("a message is a one-key map behind a 4-byte big-endian length; absent options are left out")
    func exactBytes() throws {
        #expect(
            try SessionWire.frame(DestinationMessage.commit) == [0, 0, 0, 9, 0xA1, 0x66] + Array("commit".utf8) + [0xA0]
        )
        let begin = try SessionWire.frame(SourceMessage.begin(request: 2, length: nil))
        // {"begin": {"request": 2}}
        #expect(
            begin == [0, 0, 0, 17, 0xA1, 0x65] + Array("begin".utf8) + [0xA1, 0x67] + Array("request".utf8) + [0x02])
        let chunk = try SessionWire.frame(SourceMessage.chunk(request: 1, bytes: Data([1, 2])))
        // {"chunk": {"bytes": h'0102', "request": 1}}: keys in deterministic order, bytes as a byte string.
        let body: [UInt8] =
            [0xA1, 0x65] + Array("chunk".utf8) + [0xA2, 0x65] + Array("bytes".utf8) + [0x42, 1, 2, 0x67]
            + Array("request".utf8) + [0x01]
        #expect(chunk == [0, 0, 0, UInt8(body.count)] + body)
    }

    @Test("the frame reader waits for whole frames, holds one at a time, and refuses oversized headers")
    func frameReader() throws {
        let commit = try SessionWire.frame(DestinationMessage.commit)
        var reader = SessionWire.frames
        var buffer = FrameBuffer()
        buffer.append(commit.prefix(3))
        #expect(try reader.nextFrame(from: &buffer) == nil)
        buffer.append(commit.dropFirst(3) + commit)
        #expect(
            try reader.nextFrame(from: &buffer).map { try SessionWire.decode(DestinationMessage.self, from: $0[...]) }
                == .commit)
        #expect(try reader.nextFrame(from: &buffer) != nil)
        #expect(try reader.nextFrame(from: &buffer) == nil && buffer.isEmpty)
        buffer.append([0x00, 0x10, 0x00, 0x01])
        let error = #expect(throws: WireViolation.self) { try reader.nextFrame(from: &buffer) }
        #expect(error?.message.hasPrefix("The peer announced a frame of 1048577 bytes") == true)
    }
}
