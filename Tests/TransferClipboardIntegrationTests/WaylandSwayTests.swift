import Foundation
import Testing
import TransferDisplayTestSupport
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting
import UniformTypes

@testable import TransferClipboard
@testable import TransferDisplay

/// The clipboard against a real compositor (a private headless sway) and the stock tools (wl-copy, wl-paste).
@Suite(
    "Wayland clipboard under headless sway", .serialized, .timeLimit(.minutes(5)),
    .enabled(if: waylandToolsPresent, "needs sway, wl-clipboard and setpriv (Debian: sway, wl-clipboard, util-linux)"))
final class WaylandSwayTests {
    let compositor: WaylandCompositor

    init() async throws {
        compositor = try await WaylandCompositor.start()
    }

    deinit {
        compositor.stop()
    }

    func clipboard() async throws -> Clipboard {
        try await Clipboard(backend: .wayland, environment: compositor.environment, timeout: waylandPatience)
    }

    func lines(_ result: ToolResult) -> [String] {
        String(decoding: result.output, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test("Automatic picks Wayland under WAYLAND_DISPLAY, with the data-control protocol sway has")
    func automaticChoice() async throws {
        let clipboard = try await Clipboard(environment: compositor.environment, timeout: waylandPatience)
        defer { clipboard.close() }
        #expect(clipboard.protocolName.hasPrefix("Wayland ("), "\(clipboard.protocolName)")
        #expect(clipboard.protocolName.contains("data-control"))
    }

    @Test("wl-paste -l lists every representation; wl-paste gets exact bytes; only the asked loader runs")
    func writeThreeRepresentations() async throws {
        let clipboard = try await clipboard()
        defer { clipboard.close() }
        let counter = CallCounter()
        let handle = try await clipboard.write([threeRepresentationProvider(counter)])

        let listed = try await compositor.wlPaste(["--list-types"])
        #expect(listed.status == 0, "\(listed.error)")
        let names = lines(listed)
        for expected in [
            "com.example.card", "public.utf8-plain-text", "text/plain;charset=utf-8", "text/plain", "public.png",
            "image/png",
        ] {
            #expect(names.contains(expected), "the offer lacks \(expected): \(names)")
        }
        // X11's target names are not MIME types: a Wayland offer leaves them out.
        #expect(!names.contains("UTF8_STRING") && !names.contains("STRING"))
        #expect(counter.count("card") + counter.count("text") + counter.count("png") == 0)

        let text = try await compositor.wlPaste(["--no-newline", "--type", "text/plain"])
        #expect(text.output == Data("Ada Lovelace ✓".utf8))
        #expect(counter.count("text") == 1)
        #expect(counter.count("png") == 0)

        let png = try await compositor.wlPaste(["--no-newline", "--type", "image/png"])
        #expect(png.output == pngBytes)
        #expect(counter.count("png") == 1)
        #expect(counter.count("card") == 0)
        #expect(counter.count("text") == 1)

        let missing = try await compositor.wlPaste(["--type", "image/jpeg"])
        #expect(missing.status != 0)
        await handle.release()
    }

    @Test("wl-copy -t image/png, then read public.image by conformance with progress; a type not offered is typed")
    func readFromWlCopy() async throws {
        let file = compositor.directory.appendingPathComponent("in.png")
        let bytes = pngBytes + Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        try bytes.write(to: file)
        try await compositor.wlCopy(file, type: "image/png")
        let clipboard = try await clipboard()
        defer { clipboard.close() }

        let offered = try await clipboard.offeredTypes()
        #expect(offered == [ClipboardOfferedType(name: "image/png", type: .png)])
        let items = try await clipboard.read()
        let provider = try #require(items.first)
        #expect(provider.hasRepresentation(conformingTo: .image))
        let progress = TransferProgress()
        let loaded = try await provider.loadDataRepresentation(for: .image, progress: progress)
        #expect(loaded == bytes)
        #expect(progress.isFinished)

        let backend = try await WaylandBackend.connect(environment: compositor.environment, timeout: waylandPatience)
        defer { backend.close() }
        await #expect {
            _ = try await backend.receive("text/html", from: .clipboard)
        } throws: { error in
            (error as? ClipboardError)?.code == .typeUnavailable
        }
    }

    @Test("wl-copy taking the clipboard ends the ownership, and a watcher sees its types")
    func ownershipLost() async throws {
        let clipboard = try await clipboard()
        defer { clipboard.close() }
        let watcher = try await self.clipboard()
        defer { watcher.close() }
        let changes = watcher.changes(of: .clipboard)
        let sawTheirs = Task {
            // wl-copy adds the plain-text names to a text type it offers.
            for try await change in changes where change.offeredTypes.map(\.name).first == "text/x-theirs" {
                return true
            }
            return false
        }
        let handle = try await clipboard.write([TransferProvider(data: Data("mine".utf8), type: .utf8PlainText)])
        let file = compositor.directory.appendingPathComponent("theirs.txt")
        try Data("theirs".utf8).write(to: file)
        try await compositor.wlCopy(file, type: "text/x-theirs")
        try await waylandWithin(60) { await handle.ownershipLost() }
        let now = try await compositor.wlPaste(["--no-newline"])
        #expect(now.output == Data("theirs".utf8))
        #expect(try await waylandWithin(60) { try await sawTheirs.value })
    }

    @Test("Two TransferKit clients keep custom types; a reader's cancellation stops the writer's loader")
    func twoClientsAndCancellation() async throws {
        let writer = try await clipboard()
        defer { writer.close() }
        let reader = try await clipboard()
        defer { reader.close() }
        let counter = CallCounter()
        let stopped = CallCounter()
        let endless = UniformType(exportedAs: "com.example.endless")
        let provider = threeRepresentationProvider(counter)
        provider.registerStreamRepresentation(for: endless) { _ in
            counter.hit("endless")
            return TransferByteStream(EndlessChunks { stopped.hit("serve stopped") })
        }
        let handle = try await writer.write([provider])

        let items = try await reader.read()
        let item = try #require(items.first)
        #expect(item.hasRepresentation(conformingTo: cardType))
        let card = try await item.loadDataRepresentation(for: cardType)
        #expect(card == Data(#"{"name":"Ada"}"#.utf8))
        #expect(counter.count("card") == 1 && counter.count("text") == 0 && counter.count("png") == 0)

        try await expectCancelledAfterOneMiB(item, endless)
        // The reader closed its pipe: the writer's next write fails and the serving stream is dropped.
        try await waylandWithin(60) {
            while stopped.count("serve stopped") == 0 { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(counter.count("endless") == 1)
        await handle.release()
    }

    @Test("A reader that stops reading: the write times out and ends that transfer only; other pastes are served")
    func stalledReader() async throws {
        // The limit on each write into a reader's pipe (and on the compositor's answers: generous enough for a busy
        // machine, which a 2-s limit was not always).
        let writer = try await Clipboard(backend: .wayland, environment: compositor.environment, timeout: .seconds(5))
        defer { writer.close() }
        let stopped = CallCounter()
        let stalled = UniformType(exportedAs: "com.example.stalled")
        let provider = TransferProvider()
        provider.registerDataRepresentation(for: .utf8PlainText) { _ in Data("still served".utf8) }
        provider.registerStreamRepresentation(for: stalled) { _ in
            TransferByteStream(EndlessChunks { stopped.hit("stopped") })
        }
        let handle = try await writer.write([provider])
        let reader = try await clipboard()
        defer { reader.close() }
        // The reader takes one chunk, then holds its pipe open without reading.
        var stalledChunks = try await reader.stream(of: stalled.identifier).makeAsyncIterator()
        #expect(try await stalledChunks.next()?.isEmpty == false)
        let text = try await compositor.wlPaste(["--no-newline", "--type", "text/plain"])
        #expect(text.output == Data("still served".utf8))
        // The writer's blocked write gives up after its 5-s limit, and its stream is dropped.
        try await waylandWithin(60) {
            while stopped.count("stopped") == 0 { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(try await reader.offeredTypes().contains { $0.name == stalled.identifier }, "the ownership stays")
        withExtendedLifetime(stalledChunks) {}
        await handle.release()
    }

    @Test("The primary selection both ways, separate from the clipboard")
    func primarySelection() async throws {
        let clipboard = try await clipboard()
        defer { clipboard.close() }
        let handle = try await clipboard.write(
            [TransferProvider(data: Data("selected".utf8), type: .utf8PlainText)], to: .primary)
        let primary = try await compositor.wlPaste(["--primary", "--no-newline", "--type", "text/plain"])
        #expect(primary.output == Data("selected".utf8))
        #expect(try await clipboard.offeredTypes(on: .clipboard).isEmpty)
        await handle.release()
        #expect(try await clipboard.offeredTypes(on: .primary).isEmpty)

        let file = compositor.directory.appendingPathComponent("primary.txt")
        try Data("from wl-copy".utf8).write(to: file)
        try await compositor.wlCopy(file, type: "text/x-primary", primary: true)
        #expect(try await clipboard.offeredTypes(on: .primary).map(\.name).first == "text/x-primary")
        #expect(try await clipboard.offeredTypes(on: .clipboard).isEmpty)
    }

    @Test("A concealed write offers the password managers' hints")
    func concealed() async throws {
        let clipboard = try await clipboard()
        defer { clipboard.close() }
        let handle = try await clipboard.write(
            [TransferProvider(data: Data("hunter2".utf8), type: .utf8PlainText)], options: .concealed)
        let hint = try await compositor.wlPaste(["--no-newline", "--type", "x-kde-passwordManagerHint"])
        #expect(hint.output == Data("secret".utf8))
        #expect(
            lines(try await compositor.wlPaste(["--list-types"])).contains("application/x-nspasteboard-concealed-type"))
        await handle.release()
    }
}
