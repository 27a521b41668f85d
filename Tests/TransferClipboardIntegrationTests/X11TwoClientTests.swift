import Foundation
import Testing
import TransferClipboard
import TransferDisplayTestSupport
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport
import UniformTypes

/// Two TransferKit clients (two X11 connections) on one private Xvfb.
@Suite(
    "X11 clipboard between two TransferKit clients", .serialized, .timeLimit(.minutes(5)),
    .enabled(if: x11ToolsPresent, "needs Xvfb and xclip (Debian: xvfb, xclip)"))
final class X11TwoClientTests {
    let server: XvfbServer

    init() async throws {
        server = try await XvfbServer.start()
    }

    deinit {
        server.stop()
    }

    @Test("A custom uniform type keeps full fidelity, and only the loaded representation's loader runs")
    func customTypeRoundTrip() async throws {
        let writer = try await Clipboard(backend: .x11, environment: server.environment, timeout: patience)
        defer { writer.close() }
        let reader = try await Clipboard(backend: .x11, environment: server.environment, timeout: patience)
        defer { reader.close() }
        let counter = CallCounter()
        let handle = try await writer.write([threeRepresentationProvider(counter)])

        let offered = try await reader.offeredTypes()
        #expect(offered.first == ClipboardOfferedType(name: "com.example.card", type: cardType))
        let item = try #require(try await reader.read().first)
        #expect(item.registeredTypes.first == cardType)
        #expect(item.hasRepresentation(conformingTo: .png))
        #expect(counter.count("card") + counter.count("text") + counter.count("png") == 0)

        let card = try await item.loadDataRepresentation(for: cardType)
        #expect(card == Data(#"{"name":"Ada"}"#.utf8))
        #expect(counter.count("card") == 1)
        #expect(counter.count("text") == 0)
        #expect(counter.count("png") == 0)
        let text = try await item.loadObject(ofClass: String.self)
        #expect(text == "Ada Lovelace ✓")
        #expect(counter.count("text") == 1)
        #expect(counter.count("png") == 0)
        await handle.release()
    }

    @Test("Cancelling the reader's load stops the writer's loader")
    func cancellation() async throws {
        let writer = try await Clipboard(backend: .x11, environment: server.environment, timeout: patience)
        defer { writer.close() }
        let reader = try await Clipboard(backend: .x11, environment: server.environment, timeout: patience)
        defer { reader.close() }
        let blob = UniformType(exportedAs: "com.example.endless")
        let stopped = SanitizedMutex(false)
        let provider = TransferProvider()
        provider.registerStreamRepresentation(for: blob) { _ in
            TransferByteStream(EndlessChunks { stopped.withLock { $0 = true } })
        }
        let handle = try await writer.write([provider])
        let item = try #require(try await reader.read().first)
        let started = SanitizedMutex(false)
        let load = Task {
            var received = 0
            for try await chunk in try await item.loadStream(for: blob) {
                received += chunk.count
                started.withLock { $0 = true }
            }
            return received
        }
        for _ in 0..<600 where !started.withLock({ $0 }) {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(started.withLock { $0 })
        load.cancel()
        let error = await #expect(throws: (any Error).self) { _ = try await load.value }
        #expect(
            error is CancellationError || (error as? ClipboardError)?.code == .cancelled
                || (error as? TransferError)?.code == .cancelled, "\(String(describing: error))")
        for _ in 0..<600 where !stopped.withLock({ $0 }) {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(stopped.withLock { $0 }, "the writer's stream still runs after the reader cancelled")
        await handle.release()
    }

    @Test("Reading a type the owner does not offer fails with typeUnavailable")
    func unavailable() async throws {
        let writer = try await Clipboard(backend: .x11, environment: server.environment, timeout: patience)
        defer { writer.close() }
        let reader = try await Clipboard(backend: .x11, environment: server.environment, timeout: patience)
        defer { reader.close() }
        let handle = try await writer.write([TransferProvider(data: Data("x".utf8), type: .utf8PlainText)])
        let error = await #expect(throws: ClipboardError.self) { _ = try await reader.stream(of: "image/png") }
        #expect(error?.code == .typeUnavailable)
        await handle.release()
        #expect(try await reader.read().isEmpty)
    }

    @Test("A requestor that never takes the next INCR chunk times the writer out, and its loader stops")
    func stalledRequestor() async throws {
        let writer = try await Clipboard(backend: .x11, environment: server.environment, timeout: .seconds(1))
        defer { writer.close() }
        let reader = try await Clipboard(backend: .x11, environment: server.environment, timeout: patience)
        defer { reader.close() }
        let blob = UniformType(exportedAs: "com.example.stalled")
        let stopped = SanitizedMutex(false)
        let provider = TransferProvider()
        provider.registerStreamRepresentation(for: blob) { _ in
            let chunks = AsyncStream<Data> { continuation in
                continuation.onTermination = { _ in stopped.withLock { $0 = true } }
                for _ in 0..<64 { continuation.yield(Data(repeating: 1, count: 1 << 16)) }
            }
            return TransferByteStream(chunks)
        }
        let handle = try await writer.write([provider])
        // Starts the INCR transfer (the INCR property is read and deleted) and then never reads a chunk.
        let stream = try await reader.stream(of: blob.identifier)
        for _ in 0..<600 where !stopped.withLock({ $0 }) {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(stopped.withLock { $0 }, "the writer still waits on a requestor that stopped reading")
        _ = stream
        await handle.release()
    }
}
