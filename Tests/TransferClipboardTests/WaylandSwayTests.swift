import Foundation
import Testing
import TransferKit
import TransferKitTestSupport

@testable import TransferClipboard

/// The backend against a real compositor (headless sway) and the stock tools (wl-copy, wl-paste).
@Suite(
    "Wayland backend under headless sway", .serialized,
    .disabled(
        "not landed: reading from wl-copy passes; offering to wl-paste timed out once in a suite run, 64 MiB grew RSS by 67 MiB, ownership loss is not seen (see the lead's note)"
    ),
    .enabled(if: WaylandCompositor.isAvailable, "needs sway and wl-clipboard (Debian: sway, wl-clipboard)"))
struct WaylandSwayTests {
    let compositor: WaylandCompositor

    init() throws {
        compositor = try WaylandCompositor()
    }

    func connect() async throws -> WaylandBackend {
        try await WaylandBackend.connect(environment: compositor.environment, timeout: .seconds(30))
    }

    static let targets = ["text/plain;charset=utf-8", "image/png", "com.example.card"]
    static let payloads: [String: Data] = [
        "text/plain;charset=utf-8": Data("Hello, Wayland ✓".utf8),
        "image/png": Data([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] + (0..<3000).map { UInt8($0 % 251) }),
        "com.example.card": Data(#"{"name":"card"}"#.utf8),
    ]

    func serveCounting(_ counter: WaylandCallCounter) -> @Sendable (String) async throws -> TransferByteStream {
        { target in
            counter.record(target)
            return TransferByteStream(data: Self.payloads[target] ?? Data())
        }
    }

    @Test func offersThreeTargetsToWlPasteAndServesOnlyTheOneAsked() async throws {
        let backend = try await connect()
        defer { backend.close() }
        #expect(backend.protocolName == "Wayland (zwlr-data-control)")
        let counter = WaylandCallCounter()
        let ownership = try await backend.own(.clipboard, targets: Self.targets, serve: serveCounting(counter))
        let listed = try await compositor.run(WaylandCompositor.wlPastePath, ["-l"])
        #expect(String(decoding: listed, as: UTF8.self).split(separator: "\n").map(String.init) == Self.targets)
        let png = try await compositor.run(WaylandCompositor.wlPastePath, ["-n", "-t", "image/png"])
        #expect(png == Self.payloads["image/png"])
        #expect(counter.snapshot == ["image/png": 1])
        await ownership.release()
    }

    @Test func readsWhatWlCopyOffers() async throws {
        let file = compositor.runtimeDirectory.appendingPathComponent("in.png")
        let bytes = Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 * 13) })
        try bytes.write(to: file)
        try await compositor.copy(file, type: "image/png")
        let backend = try await connect()
        defer { backend.close() }
        #expect(try await backend.targets(of: .clipboard) == ["image/png"])
        var received = Data()
        for try await chunk in try await backend.receive("image/png", from: .clipboard) { received.append(chunk) }
        #expect(received == bytes)
        await #expect {
            _ = try await backend.receive("text/html", from: .clipboard)
        } throws: { error in
            (error as? ClipboardError)?.code == .typeUnavailable
        }
    }

    @Test func sixtyFourMebibytesBothWaysWithBoundedMemory() async throws {
        let chunk = WaylandPatternChunks.chunk(0, size: 1 << 20)
        let backend = try await connect()
        defer { backend.close() }
        let before = waylandPeakResidentBytes()
        // Out: the backend serves 64 chunks of 1 MiB to wl-paste.
        let ownership = try await backend.own(.clipboard, targets: ["application/octet-stream"]) { _ in
            TransferByteStream(length: 64 << 20, WaylandPatternChunks(count: 64, size: 1 << 20, finished: nil))
        }
        let file = compositor.runtimeDirectory.appendingPathComponent("big")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        try await compositor.runToFile(
            WaylandCompositor.wlPastePath, ["-n", "-t", "application/octet-stream"], output: file)
        let handle = try FileHandle(forReadingFrom: file)
        var blocks = 0
        while let block = try handle.read(upToCount: 1 << 20), !block.isEmpty {
            #expect(block == chunk)
            blocks += 1
        }
        try handle.close()
        #expect(blocks == 64)
        await ownership.release()
        // In: wl-copy offers the same 64 MiB file; the backend streams it.
        try await compositor.copy(file, type: "application/octet-stream")
        var total = 0
        var matches = true
        var pending = Data()
        for try await received in try await backend.receive("application/octet-stream", from: .clipboard) {
            total += received.count
            pending.append(received)
            while pending.count >= chunk.count {
                matches = matches && pending.prefix(chunk.count) == chunk
                pending.removeFirst(chunk.count)
            }
        }
        #expect(total == 64 << 20)
        #expect(matches && pending.isEmpty)
        let growth = waylandPeakResidentBytes() - before
        #expect(growth < 32 << 20, "peak RSS grew by \(growth) bytes for 128 MiB moved")
        print("Wayland 64 MiB both ways: VmHWM growth \(growth >> 10) KiB")
        try? FileManager.default.removeItem(at: file)
    }

    @Test func ownershipEndsWhenWlCopyTakesOver() async throws {
        let backend = try await connect()
        defer { backend.close() }
        let ownership = try await backend.own(.clipboard, targets: ["text/plain"]) { _ in
            TransferByteStream(data: Data())
        }
        let changes = backend.changes(of: .clipboard)
        let file = compositor.runtimeDirectory.appendingPathComponent("other.txt")
        try Data("other".utf8).write(to: file)
        try await compositor.copy(file, type: "text/x-other")
        try await waylandWithin(60) { await ownership.ended() }
        let sawOther = try await waylandWithin(60) {
            for try await types in changes where types == ["text/x-other"] { return true }
            return false
        }
        #expect(sawOther)
    }

    @Test func twoBackendsKeepCustomTypesAndReaderCancellationStopsTheServe() async throws {
        let writer = try await connect()
        defer { writer.close() }
        let reader = try await connect()
        defer { reader.close() }
        let stopped = WaylandCallCounter()
        let counter = WaylandCallCounter()
        let ownership = try await writer.own(.clipboard, targets: ["com.example.card", "application/x-endless"]) {
            target in
            counter.record(target)
            if target == "com.example.card" {
                return TransferByteStream(data: Self.payloads["com.example.card"] ?? Data())
            }
            return TransferByteStream(
                WaylandPatternChunks(count: .max, size: 1 << 16) { stopped.record("serve stopped") })
        }
        #expect(try await reader.targets(of: .clipboard) == ["com.example.card", "application/x-endless"])
        var card = Data()
        for try await chunk in try await reader.receive("com.example.card", from: .clipboard) { card.append(chunk) }
        #expect(card == Self.payloads["com.example.card"])

        let stream = try await reader.receive("application/x-endless", from: .clipboard)
        let task = Task {
            var count = 0
            for try await chunk in stream {
                count += chunk.count
                if count > 0 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return count
        }
        await #expect {
            _ = try await task.value
        } throws: { error in
            (error as? ClipboardError)?.code == .cancelled
        }
        // The reader's pipe closed: the writer's next write fails and its serve stream is dropped.
        try await waylandWithin(60) {
            while stopped.snapshot.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(counter.snapshot == ["com.example.card": 1, "application/x-endless": 1])
        await ownership.release()
    }

    @Test func primarySelectionBothWays() async throws {
        let backend = try await connect()
        defer { backend.close() }
        let counter = WaylandCallCounter()
        let ownership = try await backend.own(.primary, targets: Self.targets, serve: serveCounting(counter))
        let listed = try await compositor.run(WaylandCompositor.wlPastePath, ["-p", "-l"])
        #expect(String(decoding: listed, as: UTF8.self).split(separator: "\n").map(String.init) == Self.targets)
        let text = try await compositor.run(WaylandCompositor.wlPastePath, ["-p", "-n", "-t", "com.example.card"])
        #expect(text == Self.payloads["com.example.card"])
        #expect(try await backend.targets(of: .primary) == Self.targets)
        #expect(counter.snapshot == ["com.example.card": 1])
        await ownership.release()
        #expect(try await backend.targets(of: .primary) == [])
    }
}
