import Foundation
import Testing
import TransferClipboard
import TransferDisplayTestSupport
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting
import UniformTypes

/// A writer in another process (`transferkit-clipboard-probe`) and this process reading through the library: the
/// writer's loaders report each call on its output, so laziness and cancellation are seen across the process
/// boundary, on each backend.
struct TwoProcessClipboard {
    let backend: ClipboardBackendChoice
    let backendName: String
    let environment: [String: String]
    let folder: URL

    /// The lines the writer printed so far.
    func lines(_ output: String) -> [String] {
        String(decoding: FileManager.default.contents(atPath: output) ?? Data(), as: UTF8.self)
            .split(separator: "\n").map(String.init)
    }

    /// Waits (polling, at most `seconds`) until the writer printed `line`.
    func waitFor(_ line: String, in output: String, seconds: Int = 60) async throws {
        for _ in 0..<(seconds * 50) where !lines(output).contains(line) {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(lines(output).contains(line), "the writer never printed '\(line)': \(lines(output))")
    }

    func run() async throws {
        let output = folder.appendingPathComponent("probe-\(backendName).out").path
        let writer = try BackgroundProcess(
            [TransferKitExecutable.product(named: "transferkit-clipboard-probe"), backendName],
            environment: environment, outputFile: output)
        defer { writer.stop() }
        try await waitFor("ready", in: output)

        let reader = try await Clipboard(backend: backend, environment: environment, timeout: patience)
        defer { reader.close() }
        let card = UniformType(exportedAs: "com.example.probe-card", conformingTo: .json)
        let endless = UniformType(exportedAs: "com.example.probe-endless")
        let offered = try await reader.offeredTypes()
        #expect(offered.first == ClipboardOfferedType(name: "com.example.probe-card", type: card), "\(offered)")
        let item = try #require(try await reader.read().first)
        #expect(item.registeredTypes.first == card)
        #expect(item.hasRepresentation(conformingTo: endless))
        #expect(lines(output) == ["ready"], "listing the types loads nothing")

        // Full fidelity: the custom type, with exactly its bytes; only its loader ran.
        let bytes = try await item.loadDataRepresentation(for: card)
        #expect(bytes == Data(#"{"name":"Ada"}"#.utf8))
        #expect(lines(output) == ["ready", "loaded card"])
        let text = try await item.loadObject(ofClass: String.self)
        #expect(text == "Ada Lovelace ✓")
        #expect(lines(output) == ["ready", "loaded card", "loaded text"], "the PNG was never asked for")

        // The reader cancels: the writer's stream stops being read.
        try await expectCancelledAfterOneMiB(item, endless)
        try await waitFor("stopped endless", in: output)
        #expect(lines(output).filter { $0 == "loaded endless" }.count == 1)
        #expect(!lines(output).contains("loaded png"))

        // Taking the clipboard ends the writer, cleanly.
        let handle = try await reader.write([TransferProvider(data: Data("mine".utf8), type: .utf8PlainText)])
        #expect(try await writer.exitStatus() == 0, "\(lines(output))")
        #expect(lines(output).last == "lost")
        await handle.release()
    }
}

@Suite(
    "X11 clipboard between two TransferKit processes", .serialized,
    .enabled(if: x11ToolsPresent, "needs Xvfb and xclip (Debian: xvfb, xclip)"))
struct X11TwoProcessTests {
    @Test("Custom types keep full fidelity, loaders run only when asked, and cancellation reaches the writer")
    func twoProcesses() async throws {
        let server = try await XvfbServer.start()
        defer { server.stop() }
        let folder = try makeTemporaryDirectory(prefix: "clipboard-two-processes")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await TwoProcessClipboard(
            backend: .x11, backendName: "x11", environment: server.environment, folder: folder
        )
        .run()
    }
}

@Suite(
    "Wayland clipboard between two TransferKit processes", .serialized,
    .enabled(if: waylandToolsPresent, "needs sway, wl-clipboard and setpriv (Debian: sway, wl-clipboard, util-linux)"))
struct WaylandTwoProcessTests {
    @Test("Custom types keep full fidelity, loaders run only when asked, and cancellation reaches the writer")
    func twoProcesses() async throws {
        let compositor = try await WaylandCompositor.start()
        defer { compositor.stop() }
        let folder = try makeTemporaryDirectory(prefix: "clipboard-two-processes")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await TwoProcessClipboard(
            backend: .wayland, backendName: "wayland", environment: compositor.environment, folder: folder
        ).run()
    }
}

/// Streams `type` from `item` and cancels its progress after the first MiB: the load must end with `cancelled`.
func expectCancelledAfterOneMiB(_ item: TransferProvider, _ type: UniformType) async throws {
    let progress = TransferProgress()
    let load = Task {
        var received = 0
        for try await chunk in try await item.loadStream(for: type, progress: progress) {
            received += chunk.count
            if received > 1 << 20 { progress.cancel() }
        }
        return received
    }
    let error = await #expect(throws: (any Error).self) { _ = try await load.value }
    #expect(
        (error as? ClipboardError)?.code == .cancelled || (error as? TransferError)?.code == .cancelled,
        "\(String(describing: error))")
}
