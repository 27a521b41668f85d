import Foundation
import Testing
import TransferDisplayTestSupport
import TransferImaging
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting

extension TestDesktop {
    /// `paste -o FILE` without `--type` writes the type FILE's extension names: a stock tool's PNG pasted into
    /// `pic.bmp` arrives as a BMP (converted), into `pic.png` as the PNG's own bytes, into a name without an extension
    /// as the owner's first type, and into `notes.txt` not at all (exit 1, no file), rather than as PNG bytes.
    func expectPasteFollowsTheOutputsExtension() async throws {
        let pixels = try RGBAImage(decoding: pngBytes, as: .png)
        let png = directory.appendingPathComponent("manners-\(UUID().uuidString).png")
        try pngBytes.write(to: png)
        let stock = try await stockCopy(png, type: "image/png")
        defer { stock?.stop() }
        try await waitUntilOffered("image/png")

        let bmp = directory.appendingPathComponent("pic.bmp")
        let toBMP = try await transferkit(["paste", "-o", bmp.path])
        #expect(toBMP.status == 0, "\(toBMP.errorText)")
        let written = try Data(contentsOf: bmp)
        #expect(written.prefix(2) == Data("BM".utf8), "\(written.prefix(8).map { $0 })")
        #expect(try RGBAImage(decoding: written, as: .bmp) == pixels)

        let samePNG = directory.appendingPathComponent("pic.png")
        let toPNG = try await transferkit(["paste", "-o", samePNG.path])
        #expect(toPNG.status == 0, "\(toPNG.errorText)")
        #expect(try Data(contentsOf: samePNG) == pngBytes)

        let plain = directory.appendingPathComponent("picture")
        let toPlain = try await transferkit(["paste", "-o", plain.path])
        #expect(toPlain.status == 0, "\(toPlain.errorText)")
        #expect(try Data(contentsOf: plain) == pngBytes)

        let text = directory.appendingPathComponent("notes.txt")
        let toText = try await transferkit(["paste", "-o", text.path])
        #expect(toText.status == 1)
        #expect(
            toText.errorText.hasPrefix(
                "transferkit paste: the clipboard offers nothing of type public.plain-text (the type of notes.txt's "
                    + "extension; --type writes another type); it offers "), "\(toText.errorText)")
        #expect(toText.errorText.hasSuffix(" (typeNotOffered)\n"), "\(toText.errorText)")
        #expect(!FileManager.default.fileExists(atPath: text.path))
    }

    /// `keep` prints one line per copy, one terminal row wide (at most 100 columns) however many names the owner
    /// offers: a TransferKit copy of a text file offers about fifteen.
    func expectKeeperLinePerCopy(keeperEnvironment environment: [String: String]) async throws {
        let keeper = try RunningKeeper([], environment: environment, folder: directory)
        let notes = directory.appendingPathComponent("manners-notes-\(UUID().uuidString).txt")
        try Data("May the Force be with you.\n".utf8).write(to: notes)
        let copy = try await transferkit(["copy", notes.path])
        #expect(copy.status == 0, "\(copy.errorText)")
        let first = try await keeper.waitForLines(startingWith: "kept clipboard")
        let taker = directory.appendingPathComponent("manners-taker.txt")
        try Data("taker".utf8).write(to: taker)
        let stock = try await stockCopy(taker, type: "text/plain")
        defer { stock?.stop() }
        let kept = try await keeper.waitForLines(startingWith: "kept clipboard", count: 2)
        #expect(kept.count == 2, "\(keeper.lines)")
        for line in keeper.lines {
            #expect(line.count <= 100, "\(line.count) columns: \(line)")
        }
        let line = try #require(first.first)
        #expect(line.hasPrefix("kept clipboard: "), "\(line)")
        #expect(line.contains(" names, ") && line.contains(" bytes (public.utf8-plain-text "), "\(line)")
        #expect(line.hasSuffix(" more)"), "\(line)")
    }
}

/// `paste -o` and `keep` under a private Xvfb.
@Suite(
    "paste to a file's type, and the keeper's lines, on X11", .serialized, .timeLimit(.minutes(5)),
    .enabled(if: x11ToolsPresent, "needs Xvfb and xclip (Debian: xvfb, xclip)"))
final class CommandLineMannersX11Tests {
    let server: XvfbServer

    init() async throws {
        server = try await XvfbServer.start()
    }

    deinit { server.stop() }

    @Test("paste -o pic.bmp writes a BMP converted from the owner's PNG, and -o notes.txt refuses the PNG")
    func pasteFollowsTheExtension() async throws {
        try await server.expectPasteFollowsTheOutputsExtension()
    }

    @Test("keep prints one line per copy, at most 100 columns wide")
    func keeperLinePerCopy() async throws {
        let environment = try keeperEnvironment(
            server.environment, runtime: server.directory.appendingPathComponent("runtime"))
        try await server.expectKeeperLinePerCopy(keeperEnvironment: environment)
    }
}

/// `paste -o` and `keep` under a private headless sway.
@Suite(
    "paste to a file's type, and the keeper's lines, on Wayland", .serialized, .timeLimit(.minutes(5)),
    .enabled(if: waylandToolsPresent, "needs sway, wl-clipboard and setpriv (Debian: sway, wl-clipboard, util-linux)"))
final class CommandLineMannersWaylandTests {
    let compositor: WaylandCompositor

    init() async throws {
        compositor = try await WaylandCompositor.start()
    }

    deinit { compositor.stop() }

    @Test("paste -o pic.bmp writes a BMP converted from the owner's PNG, and -o notes.txt refuses the PNG")
    func pasteFollowsTheExtension() async throws {
        try await compositor.expectPasteFollowsTheOutputsExtension()
    }

    @Test("keep prints one line per copy, at most 100 columns wide")
    func keeperLinePerCopy() async throws {
        let environment = try keeperEnvironment(
            compositor.environment, runtime: compositor.directory.appendingPathComponent("keeper-runtime"))
        try await compositor.expectKeeperLinePerCopy(keeperEnvironment: environment)
    }
}
