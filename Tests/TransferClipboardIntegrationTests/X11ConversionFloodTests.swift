import Foundation
import Synchronization
import Testing
import TransferClipboard
import TransferDisplayTestSupport
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport
import UniformTypes

/// One X11 client (python-xlib, from several windows) asking a TransferKit owner for far more conversions at once
/// than ``ClipboardLimits/maximumConcurrentConversions``, while every load it starts is held: the owner serves the
/// cap and refuses the rest at once, and serves another client meanwhile.
@Suite(
    "X11 owner: a flood of conversions from one client", .serialized, .timeLimit(.minutes(5)),
    .enabled(
        if: x11ToolsPresent && pythonXlibPresent,
        "needs Xvfb, xclip and python-xlib (Debian: xvfb, xclip, python3-xlib)"
    ))
final class X11ConversionFloodTests {
    let server: XvfbServer
    let folder: URL

    init() async throws {
        server = try await XvfbServer.start()
        folder = try makeTemporaryDirectory(prefix: "clipboard-flood")
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    @Test("200 conversions at once from three windows of one client: the cap is served, the rest refused at once")
    func flood() async throws {
        let cap = ClipboardLimits.maximumConcurrentConversions
        let count = 200
        // Every load waits here until the test opens it.
        let gate = Latch<Void>()
        let loads = Atomic(0)
        let provider = TransferProvider()
        provider.registerDataRepresentation(for: .utf8PlainText) { _ in
            loads.add(1, ordering: .relaxed)
            await gate.wait()
            return Data("flood".utf8)
        }
        provider.registerDataRepresentation(for: .html) { _ in Data("<b>other</b>".utf8) }
        let owner = try await Clipboard(backend: .x11, environment: server.environment, timeout: patience)
        let handle = try await owner.write([provider])
        defer { gate.open() }

        let flood = try BackgroundChild(
            SystemTool.path("python3"),
            [
                repositoryFile("Tests/Interop/x11_conversion_flood.py").path, "CLIPBOARD", "UTF8_STRING", String(count),
                "3",
            ],
            output: folder.appendingPathComponent("flood.out"), environment: server.environment)
        defer { flood.kill() }
        func lines(_ word: String) -> Int { flood.text.split(separator: "\n").count { $0 == word } }

        // Every request past the cap is refused while the served ones still wait for their loads.
        let deadline = ContinuousClock.now + .seconds(60)
        while lines("refused") < count - cap, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(lines("refused") == count - cap, "\(flood.text)")
        #expect(lines("answered") == 0, "\(flood.text)")

        // Another client is served while the flooding one holds all of its conversions.
        let other = try await server.xclip(["-selection", "clipboard", "-o", "-t", "text/html"])
        #expect(other.status == 0, "\(other.error)")
        #expect(String(decoding: other.output, as: UTF8.self) == "<b>other</b>")

        gate.open()
        #expect(try await flood.wait(for: "done", within: .seconds(60)), "\(flood.text)")
        #expect(lines("answered") == cap, "\(flood.text)")
        #expect(lines("refused") == count - cap, "\(flood.text)")
        #expect(loads.load(ordering: .relaxed) == cap)

        // The held conversions over, the type they asked for is served as before.
        let again = try await server.xclip(["-selection", "clipboard", "-o", "-t", "UTF8_STRING"])
        #expect(String(decoding: again.output, as: UTF8.self) == "flood", "\(again.error)")
        await handle.release()
    }
}
