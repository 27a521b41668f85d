import Foundation
import Testing
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport
import TransferSessions
import TransferSessionsTestSupport
import UniformTypes

/// The system's Python 3, which runs the hostile peers (`Tests/Interop/session_peer.py`, standard library only).
let python3 = SystemTool.location(of: "python3")

/// A peer process running `session_peer.py ROLE SOCKET ARGS…`.
final class PeerProcess: Sendable {
    let process: Process
    private let output: Pipe

    init(_ role: String, _ path: String, _ arguments: [String] = []) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(python3))
        process.arguments = [repositoryFile("Tests/Interop/session_peer.py").path, role, path] + arguments
        output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        try process.run()
    }

    /// The next line the peer prints (its readiness, or its result); the peer is killed if it prints nothing in
    /// `limit`. The limit is far above what the peer needs alone: under the thread sanitizer the whole suite keeps
    /// the task pool busy for a minute or more, and the publication under test runs on that pool.
    func line(within limit: Duration = .seconds(200)) async throws -> String {
        let descriptor = output.fileHandleForReading.fileDescriptor
        let process = process
        let timer = WireTimer.shared.schedule(at: .after(limit)) { process.terminate() }
        defer { WireTimer.shared.cancel(timer) }
        // Read on a thread of its own: a blocked read on the task pool would stall every other test.
        return await DedicatedThread.run { () -> String in
            var bytes: [UInt8] = []
            var byte: [UInt8] = [0]
            while (try? Syscall.read(descriptor, into: &byte)) == 1, byte[0] != UInt8(ascii: "\n") {
                bytes.append(byte[0])
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}

/// A session of one item whose plain text is `text`.
private func textSession(_ text: String = "hello", source: (any DragSource)? = nil) -> DragSession {
    let provider = TransferProvider()
    provider.registerDataRepresentation(for: .utf8PlainText) { _ in Data(text.utf8) }
    return DragSession(items: [DragItem(id: "a", provider: provider)], source: source)
}

/// The seconds in a peer's `… after N s` line.
private func seconds(in line: String) -> Double? {
    guard let range = line.range(of: #"after [0-9.]+ s"#, options: .regularExpression) else { return nil }
    return Double(line[range].dropFirst("after ".count).dropLast(" s".count))
}

@Suite(
    "Sessions against hostile peer processes (issue 21's defects)", .timeLimit(.minutes(5)),
    .enabled(if: python3 != nil, "the hostile peers are Python 3 scripts"))
struct HostilePeerTests {
    @Test("a request id is free again as soon as its end is read: 200 loads all on request 7 succeed")
    func requestIDsReusable() async throws {
        let (path, directory) = try socketPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let publication = try DragSessionPublication(publishing: textSession(), atPath: path, timeout: patience)
        defer { publication.close() }
        let peer = try PeerProcess("reuse-ids", path, ["200", "public.utf8-plain-text"])
        #expect(try await peer.line() == "ends 200")
    }

    @Test("10 000 pipelined loads with at most 64 in flight all succeed on one connection")
    func pipelinedLoads() async throws {
        let (path, directory) = try socketPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let publication = try DragSessionPublication(publishing: textSession(), atPath: path, timeout: patience)
        defer { publication.close() }
        let peer = try PeerProcess("pipelined", path, ["10000", "64", "public.utf8-plain-text"])
        #expect(try await peer.line(within: .seconds(200)) == "ends 10000")
    }

    @Test("a destination that says nothing, before or after its hello, is disconnected at the silence limit")
    func silentPeersDropped() async throws {
        let (path, directory) = try socketPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let publication = try DragSessionPublication(publishing: textSession(), atPath: path, timeout: .seconds(1))
        defer { publication.close() }
        let peer = try PeerProcess("silent", path, ["50"])
        let line = try await peer.line()
        #expect(line.hasPrefix("closed 50 after"))
        #expect(try #require(seconds(in: line)) < 20)
        // Every connection's thread and descriptor is gone.
        for _ in 0..<100 where publication.connectionCount > 0 { try await Task.sleep(for: .milliseconds(50)) }
        #expect(publication.connectionCount == 0)
    }

    @Test("a destination that goes quiet after a reservation is dropped and the reservation released")
    func quietAfterReservation() async throws {
        let (path, directory) = try socketPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let list = TransferList([Row(id: "a", title: "row a")], makeProvider: Row.provider)
        let session = try list.beginDrag(["a"], allowsMoveToOtherApplications: true)
        let publication = try DragSessionPublication(publishing: session, atPath: path, timeout: .seconds(3))
        defer { publication.close() }
        let peer = try PeerProcess("quiet-after-reserved", path)
        let line = try await peer.line()
        #expect(line.hasPrefix("after reserved: closed after"), "\(line)")
        #expect(try #require(seconds(in: line)) < 20)
        // The drop failed: the row is back in the list, free to move again.
        let ended = try await publication.ended(within: .seconds(150))
        #expect(ended == .cancel)
        #expect(list.elements.map(\.id) == ["a"])
    }

    @Test("a source's ended(within:) fails with timedOut when no destination comes")
    func endedDeadline() async throws {
        let (path, directory) = try socketPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let publication = try DragSessionPublication(publishing: textSession(), atPath: path, timeout: patience)
        defer { publication.close() }
        let error = await #expect(throws: TransferSessionError.self) {
            try await publication.ended(within: .milliseconds(200))
        }
        #expect(error?.code == .timedOut)
    }

    @Test(
        "a destination's waits end at the time limit, each with its own error",
        arguments: [
            ("source-mute", TransferSessionError.Code.timedOut),
            ("source-endless-pipe", .timedOut),
            ("source-file-without-descriptor", .protocolViolation),
            ("source-big-chunk", .protocolViolation),
        ])
    func destinationDeadlines(role: String, expected: TransferSessionError.Code) async throws {
        let (path, directory) = try socketPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let peer = try PeerProcess(role, path)
        #expect(try await peer.line() == "listening")
        let remote = try await RemoteDragSession.connect(toPath: path, timeout: .seconds(3))
        let started = ContinuousClock.now
        let error = await #expect(throws: TransferError.self) {
            _ = try await remote.items[0].provider.loadDataRepresentation(for: .plainText)
        }
        // The limit is 3 seconds; the bound only tells a deadline from none (the suite's own limit), because a
        // loaded machine running the thread sanitizer took 29.7 seconds here.
        #expect(started.duration(to: .now) < .seconds(120))
        #expect(error?.code == .loaderFailed)
        #expect((error?.cause as? TransferSessionError)?.code == expected, "\(String(describing: error))")
        remote.close()
    }

    @Test("a drop whose source never answers fails with timedOut at the time limit")
    func noReservation() async throws {
        let (path, directory) = try socketPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let peer = try PeerProcess("source-no-reservation", path)
        #expect(try await peer.line() == "listening")
        let remote = try await RemoteDragSession.connect(toPath: path, timeout: .seconds(3))
        let error = await #expect(throws: TransferSessionError.self) {
            _ = try await remote.drop(DropProposal(operation: .copy)) { _, _ in }
        }
        #expect(error?.code == .timedOut)
    }

    @Test("a connect to a listener whose queue is full fails with timedOut at the time limit")
    func connectDeadline() async throws {
        let (path, directory) = try socketPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let peer = try PeerProcess("source-full-queue", path)
        #expect(try await peer.line() == "listening")
        let started = ContinuousClock.now
        let error = await #expect(throws: TransferSessionError.self) {
            _ = try await RemoteDragSession.connect(toPath: path, timeout: .milliseconds(500))
        }
        #expect(error?.code == .timedOut)
        // As above: the bound tells the 500 ms deadline from none, with room for a loaded machine.
        #expect(started.duration(to: .now) < .seconds(120))
        peer.process.terminate()
    }

    @Test("a process of another executable that claims this application's identifier may not move its items")
    func peerCredentials() async throws {
        let (path, directory) = try socketPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A Python process claiming this application's identifier runs another executable: not the same application.
        let list = TransferList([Row(id: "a", title: "row a")], makeProvider: Row.provider)
        let session = try list.beginDrag(["a"])
        let publication = try DragSessionPublication(publishing: session, atPath: path, timeout: .seconds(5))
        defer { publication.close() }
        let peer = try PeerProcess(
            "quiet-after-reserved", path, [TransferSessionOrigin.current.applicationIdentifier])
        // The claim is not believed: the drop of a move that only this application may make is cancelled.
        let line = try await peer.line()
        #expect(line.hasPrefix("after finished"), "\(line)")
        #expect(list.elements.map(\.id) == ["a"])
    }
}

@Suite(
    "Session frames against the CDDL, between TransferKit and a Python peer", .timeLimit(.minutes(5)),
    .enabled(if: python3 != nil, "the checking peer is a Python 3 script"))
struct SessionCDDLTests {
    private let cddl = repositoryFile("Schemas/transfer-session.cddl").path

    @Test("every frame a TransferKit source sends matches the CDDL, load failures included")
    func sourceFrames() async throws {
        let (path, directory) = try socketPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let list = TransferList([Row(id: "a", title: "row a")], makeProvider: Row.provider)
        let session = try list.beginDrag(["a"], allowsMoveToOtherApplications: true)
        // A long silence limit: in whole-suite runs the source's own work after the commit (on the test pool) took
        // past 10 s, the limit closed the connection before `finished`, and the peer counted 7 frames.
        let publication = try DragSessionPublication(publishing: session, atPath: path, timeout: .seconds(120))
        defer { publication.close() }
        let peer = try PeerProcess("check-source", path, [cddl])
        let line = try await peer.line()
        // An offer; begin, chunk and end of the good load; two failures; the reservation; the end of the move.
        #expect(line == "valid 8 frames; codes unavailableRepresentation", "\(line)")
        // The move committed: the row left the source.
        #expect(try await publication.ended(within: .seconds(150)) == .move)
        #expect(list.elements.isEmpty)
    }

    @Test("every frame a TransferKit destination sends matches the CDDL")
    func destinationFrames() async throws {
        let (path, directory) = try socketPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let peer = try PeerProcess("source-check", path, [cddl])
        #expect(try await peer.line() == "listening")
        let remote = try await RemoteDragSession.connect(toPath: path, timeout: .seconds(10))
        let result = try await remote.drop(DropProposal(operation: .copy)) { drop, _ in
            try await drop.items[0].provider.loadDataRepresentation(for: .utf8PlainText)
        }
        #expect(result.value == Data("hello".utf8))
        #expect(try await peer.line() == "valid 4 frames: hello drop load commit")
    }

    @Test("the CDDL's code lists are exactly the codes this library writes")
    func codeLists() async throws {
        let peer = try PeerProcess("codes", cddl)
        let line = try await peer.line()
        let lists = try JSONDecoder().decode([String: [String]].self, from: Data(line.utf8))
        let load: Set<SessionWireCode> = [.unavailableRepresentation, .cancelled, .loaderFailed]
        #expect(Set(lists["load-code"] ?? []) == Set(load.map(\.rawValue)))
        let session = Set(SessionWireCode.allCases).subtracting([.unavailableRepresentation, .loaderFailed])
        #expect(Set(lists["session-code"] ?? []) == Set(session.map(\.rawValue)))
    }
}
