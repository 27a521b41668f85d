import Foundation
import Testing
import TransferClipboard
import TransferDisplayTestSupport
import TransferKit
import TransferKitPlatform
import TransferKitTesting
import UniformTypes

let cardType = UniformType(exportedAs: "com.example.card")
/// A real 4×4 RGBA PNG, so that the BMP, PAM, PPM and pixels that converters derive from it decode.
let pngBytes = Data([
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00,
    0x04, 0x00, 0x00, 0x00, 0x04, 0x08, 0x06, 0x00, 0x00, 0x00, 0xA9, 0xF1, 0x9E, 0x7E, 0x00, 0x00, 0x00, 0x38, 0x49,
    0x44, 0x41, 0x54, 0x78, 0xDA, 0x0D, 0xC8, 0x41, 0x01, 0x00, 0x20, 0x0C, 0x03, 0xB1, 0x2A, 0x41, 0xC9, 0x29, 0x99,
    0x92, 0x3E, 0xA7, 0x02, 0x25, 0xF5, 0x57, 0xC8, 0x33, 0x92, 0xB4, 0xE8, 0xD4, 0xA2, 0xD1, 0xAC, 0xC4, 0x29, 0x50,
    0x33, 0x1B, 0x5C, 0xC9, 0x14, 0xCF, 0xDA, 0x6E, 0x7C, 0x7F, 0x64, 0x96, 0xB8, 0xCE, 0x6D, 0x92, 0x7D, 0x58, 0x34,
    0x1D, 0xD7, 0x24, 0xD6, 0x62, 0x11, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
])

/// A provider with three representations whose loaders count their calls.
func threeRepresentationProvider(_ counter: CallCounter) -> TransferProvider {
    let provider = TransferProvider()
    provider.registerDataRepresentation(for: cardType) { _ in
        counter.hit("card")
        return Data(#"{"name":"Ada"}"#.utf8)
    }
    provider.registerDataRepresentation(for: .utf8PlainText) { _ in
        counter.hit("text")
        return Data("Ada Lovelace ✓".utf8)
    }
    provider.registerDataRepresentation(for: .png) { _ in
        counter.hit("png")
        return pngBytes
    }
    return provider
}

/// The stock X11 tool against TransferKit, under a private Xvfb with a real MIT-MAGIC-COOKIE-1.
@Suite(
    "X11 clipboard with xclip", .serialized, .timeLimit(.minutes(5)),
    .enabled(if: x11ToolsPresent, "needs Xvfb and xclip (Debian: xvfb, xclip)"))
final class X11XclipTests {
    let server: XvfbServer

    init() async throws {
        server = try await XvfbServer.start()
    }

    deinit {
        server.stop()
    }

    @Test("TARGETS lists every representation; xclip gets exact bytes; only the asked loader runs")
    func writeThreeRepresentations() async throws {
        let clipboard = try await Clipboard(backend: .x11, environment: server.environment, timeout: patience)
        defer { clipboard.close() }
        let counter = CallCounter()
        let handle = try await clipboard.write([threeRepresentationProvider(counter)])

        let targets = try await server.xclip(["-o", "-selection", "clipboard", "-t", "TARGETS"])
        #expect(targets.status == 0, "\(targets.error)")
        let names = String(decoding: targets.output, as: UTF8.self).split(separator: "\n").map(String.init)
        for expected in [
            "com.example.card", "public.utf8-plain-text", "text/plain;charset=utf-8", "UTF8_STRING",
            "text/plain", "STRING", "public.png", "image/png", "TARGETS",
        ] {
            #expect(names.contains(expected), "TARGETS lacks \(expected): \(names)")
        }
        #expect(counter.count("card") + counter.count("text") + counter.count("png") == 0)

        let text = try await server.xclip(["-o", "-selection", "clipboard", "-t", "text/plain"])
        #expect(text.output == Data("Ada Lovelace ✓".utf8))
        #expect(counter.count("text") == 1)
        #expect(counter.count("png") == 0)

        let png = try await server.xclip(["-o", "-selection", "clipboard", "-t", "image/png"])
        #expect(png.output == pngBytes)
        #expect(counter.count("png") == 1)
        #expect(counter.count("card") == 0)
        #expect(counter.count("text") == 1)

        let missing = try await server.xclip(["-o", "-selection", "clipboard", "-t", "image/jpeg"])
        #expect(missing.status != 0)
        await handle.release()
    }

    @Test("a custom type conforming to public.json is offered as application/json too, for tools that know only JSON")
    func customTypeOffersItsSupertypesMIMEType() async throws {
        let clipboard = try await Clipboard(backend: .x11, environment: server.environment, timeout: patience)
        defer { clipboard.close() }
        let noteType = UniformType(exportedAs: "com.example.clipboard-note", conformingTo: .json)
        let provider = TransferProvider()
        provider.registerDataRepresentation(for: noteType) { _ in Data(#"{"note":"Ada"}"#.utf8) }
        let opaque = TransferProvider()
        opaque.registerDataRepresentation(for: cardType) { _ in Data("opaque".utf8) }
        let handle = try await clipboard.write([provider])
        let names = try await clipboard.offeredTypes().map(\.name)
        #expect(names.contains("com.example.clipboard-note") && names.contains("application/json"), "\(names)")
        // public.json is more specific than public.text: text/plain is no MIME type of its supertypes here, but the
        // checked plain text that every text type gets, after the derived marker.
        let marker = try #require(names.firstIndex(of: ClipboardTypeMapping.derivedName), "\(names)")
        #expect(names.firstIndex(of: "text/plain").map { $0 > marker } == true, "\(names)")
        let json = try await server.xclip(["-o", "-selection", "clipboard", "-t", "application/json"])
        #expect(json.output == Data(#"{"note":"Ada"}"#.utf8))
        await handle.release()
        // A type whose only supertype with a MIME type is public.data adds no application/octet-stream.
        let opaqueHandle = try await clipboard.write([opaque])
        let opaqueNames = try await clipboard.offeredTypes().map(\.name)
        #expect(opaqueNames.contains("com.example.card") && !opaqueNames.contains("application/octet-stream"))
        await opaqueHandle.release()
    }

    @Test("a provider marked isConcealed is offered with the hints, and is read back concealed, without them")
    func concealedProvider() async throws {
        let clipboard = try await Clipboard(backend: .x11, environment: server.environment, timeout: patience)
        defer { clipboard.close() }
        let secret = TransferProvider(data: Data("hunter2".utf8), type: .utf8PlainText)
        secret.isConcealed = true
        let handle = try await clipboard.write([secret])
        let names = try await clipboard.offeredTypes().map(\.name)
        #expect(names.contains("x-kde-passwordManagerHint"), "\(names)")
        #expect(names.contains("application/x-nspasteboard-concealed-type"), "\(names)")
        let item = try #require(try await clipboard.read().first)
        #expect(item.isConcealed)
        #expect(item.registeredTypes.allSatisfy { $0.preferredMIMEType != "application/x-nspasteboard-concealed-type" })
        #expect(try await item.loadObject(ofClass: String.self) == "hunter2")
        await handle.release()
        let plain = try await clipboard.write([TransferProvider(data: Data("hello".utf8), type: .utf8PlainText)])
        #expect(try await clipboard.read().first?.isConcealed == false)
        await plain.release()
    }

    @Test("xclip -i -t image/png, then read public.image by conformance")
    func readFromXclip() async throws {
        let file = server.directory.appendingPathComponent("in.png")
        try pngBytes.write(to: file)
        let xclip = try server.startXclipServing(["-selection", "clipboard", "-t", "image/png"], file: file.path)
        defer { xclip.stop() }
        let clipboard = try await Clipboard(backend: .x11, environment: server.environment, timeout: patience)
        defer { clipboard.close() }
        try await waitUntilOffered("image/png", clipboard)

        let offered = try await clipboard.offeredTypes()
        #expect(offered.contains(ClipboardOfferedType(name: "image/png", type: .png)))
        let items = try await clipboard.read()
        let provider = try #require(items.first)
        #expect(provider.hasRepresentation(conformingTo: .image))
        let progress = TransferProgress()
        let bytes = try await provider.loadDataRepresentation(for: .image, progress: progress)
        #expect(bytes == pngBytes)
        #expect(progress.isFinished)
    }

    @Test("Another client taking the clipboard ends the ownership")
    func ownershipLost() async throws {
        let clipboard = try await Clipboard(backend: .x11, environment: server.environment, timeout: patience)
        defer { clipboard.close() }
        let handle = try await clipboard.write([TransferProvider(data: Data("mine".utf8), type: .utf8PlainText)])
        let file = server.directory.appendingPathComponent("theirs.txt")
        try Data("theirs".utf8).write(to: file)
        let xclip = try server.startXclipServing(["-selection", "clipboard"], file: file.path)
        defer { xclip.stop() }
        await handle.ownershipLost()
        let now = try await server.xclip(["-o", "-selection", "clipboard"])
        #expect(now.output == Data("theirs".utf8))
    }

    @Test("The primary selection is separate from the clipboard")
    func primarySelection() async throws {
        let clipboard = try await Clipboard(backend: .x11, environment: server.environment, timeout: patience)
        defer { clipboard.close() }
        let handle = try await clipboard.write(
            [TransferProvider(data: Data("selected".utf8), type: .utf8PlainText)], to: .primary)
        let primary = try await server.xclip(["-o", "-selection", "primary"])
        #expect(primary.output == Data("selected".utf8))
        #expect(try await clipboard.offeredTypes(on: .clipboard).isEmpty)
        await handle.release()
        #expect(try await clipboard.offeredTypes(on: .primary).isEmpty)
    }

    @Test("A concealed write offers the password-manager hints")
    func concealed() async throws {
        let clipboard = try await Clipboard(backend: .x11, environment: server.environment, timeout: patience)
        defer { clipboard.close() }
        let handle = try await clipboard.write(
            [TransferProvider(data: Data("hunter2".utf8), type: .utf8PlainText)], options: .concealed)
        let hint = try await server.xclip(["-o", "-selection", "clipboard", "-t", "x-kde-passwordManagerHint"])
        #expect(hint.output == Data("secret".utf8))
        let names = try await clipboard.offeredTypes().map(\.name)
        #expect(names.contains("application/x-nspasteboard-concealed-type"))
        await handle.release()
    }

    @Test("File URLs offer text/uri-list and gnome-copied-files with cut")
    func fileURLs() async throws {
        let clipboard = try await Clipboard(backend: .x11, environment: server.environment, timeout: patience)
        defer { clipboard.close() }
        let urls = [URL(fileURLWithPath: "/tmp/a b.txt"), URL(fileURLWithPath: "/tmp/c.txt")]
        let handle = try await clipboard.write(
            urls.map { TransferProvider(object: $0) }, options: ClipboardWriteOptions(isCut: true))
        let list = try await server.xclip(["-o", "-selection", "clipboard", "-t", "text/uri-list"])
        #expect(String(decoding: list.output, as: UTF8.self) == "file:///tmp/a%20b.txt\r\nfile:///tmp/c.txt\r\n")
        let gnome = try await server.xclip(["-o", "-selection", "clipboard", "-t", "x-special/gnome-copied-files"])
        #expect(String(decoding: gnome.output, as: UTF8.self) == "cut\nfile:///tmp/a%20b.txt\nfile:///tmp/c.txt")
        let kde = try await server.xclip(["-o", "-selection", "clipboard", "-t", "application/x-kde-cutselection"])
        #expect(kde.status == 0 && kde.output == Data("1".utf8), "\(kde.error)")
        await handle.release()
    }

    @Test("Copied files offer no KDE cut mark, and a reader sees them as not cut")
    func copiedFilesHaveNoCutMark() async throws {
        let clipboard = try await Clipboard(backend: .x11, environment: server.environment, timeout: patience)
        defer { clipboard.close() }
        let handle = try await clipboard.write([TransferProvider(object: URL(fileURLWithPath: "/tmp/a.txt"))])
        let names = try await clipboard.offeredTypes().map(\.name)
        #expect(names.contains("x-special/gnome-copied-files"))
        #expect(!names.contains("application/x-kde-cutselection"))
        let read = try #require(try await clipboard.read().first)
        #expect(!read.isCut)
        await handle.release()
    }

    @Test(
        "A reader learns that files were cut from either desktop's mark",
        arguments: [
            ("org.transferkit.kde-cut-selection", "1", true), ("org.transferkit.kde-cut-selection", "0", false),
            ("org.transferkit.gnome-copied-files", "cut\nfile:///tmp/a.txt", true),
            ("org.transferkit.gnome-copied-files", "copy\nfile:///tmp/a.txt", false),
            ("org.transferkit.gnome-copied-files", "cutting\nfile:///tmp/a.txt", false),
        ])
    func readsEitherCutMark(markType: String, bytes: String, isCut: Bool) async throws {
        let clipboard = try await Clipboard(backend: .x11, environment: server.environment, timeout: patience)
        defer { clipboard.close() }
        // Another program's item: a URL list and one desktop's mark as its own bytes, no cut option.
        let provider = TransferProvider()
        provider.registerDataRepresentation(for: .uriList) { _ in Data("file:///tmp/a.txt\r\n".utf8) }
        provider.registerDataRepresentation(for: UniformType(exportedAs: markType)) { _ in Data(bytes.utf8) }
        let handle = try await clipboard.write([provider])
        let reader = try await Clipboard(backend: .x11, environment: server.environment, timeout: patience)
        defer { reader.close() }
        let read = try #require(try await reader.read().first)
        #expect(read.isCut == isCut)
        await handle.release()
    }

    @Test("Watching reports changes with the new owner's types")
    func watch() async throws {
        let watcher = try await Clipboard(backend: .x11, environment: server.environment, timeout: patience)
        defer { watcher.close() }
        let writer = try await Clipboard(backend: .x11, environment: server.environment, timeout: patience)
        defer { writer.close() }
        let changes = watcher.changes(of: .clipboard)
        // Set by the watching task when it sees its first change: polled, never awaited, so that a wait cannot
        // outlast the loop (awaiting the task's value, which cancellation does not end, once hung a run here).
        let firstChange = SanitizedMutex<ClipboardChange?>(nil)
        let first = Task {
            var iterator = changes.makeAsyncIterator()
            let change = try await iterator.next()
            firstChange.withLock { $0 = change }
        }
        // The subscription reaches the server a moment after `changes` returns, and nothing says when: write until
        // a change is seen.
        let watched = UniformType(exportedAs: "com.example.watched")
        var handles: [ClipboardWriteHandle] = []
        var change: ClipboardChange?
        for _ in 0..<100 where change == nil {
            handles.append(try await writer.write([TransferProvider(data: Data("w".utf8), type: watched)]))
            for _ in 0..<10 where change == nil {
                try await Task.sleep(for: .milliseconds(10))
                change = firstChange.withLock { $0 }
            }
        }
        first.cancel()
        let seen = try #require(change)
        #expect(seen.selection == .clipboard)
        #expect(seen.offeredTypes.first == ClipboardOfferedType(name: "com.example.watched", type: watched))
        for handle in handles { await handle.release() }
    }

    @Test("64 MiB both ways through INCR, with bounded memory")
    func largeTransfers() async throws {
        let growth = try await server.largeTransferGrowth()
        // 64 MiB through a process that held it whole would grow by 65 536 KiB at least.
        #expect(growth.writing < 24 << 10, "writing grew the peak RSS by \(growth.writing) KiB")
        #expect(growth.reading < 24 << 10, "reading grew the peak RSS by \(growth.reading) KiB")
        #expect(growth.restoring < 24 << 10, "restoring an archive grew the peak RSS by \(growth.restoring) KiB")
        print(
            "64 MiB INCR: peak RSS growth writing \(growth.writing) KiB, reading \(growth.reading) KiB, "
                + "restoring an archive \(growth.restoring) KiB")
    }

    func waitUntilOffered(_ name: String, _ clipboard: Clipboard) async throws {
        for _ in 0..<100 {
            if try await clipboard.offeredTypes().contains(where: { $0.name == name }) { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("\(name) was never offered")
    }
}
