import Foundation
import Testing
import TransferDisplayTestSupport
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport

@testable import TransferClipboard
@testable import TransferDesktop
@testable import TransferDisplay

/// A file promise against a hostile XDS target (issue 35, item 1): a python-xlib process names paths that are no
/// new file in its folder (`%2e%2e`, a link to an existing file, an existing file, a folder that is a link, a hidden
/// name, another kind of file elsewhere); the source answers `E` to each without running the promise's `write`, and
/// nothing outside the folder changes. A plain new name in the folder still gets `S`.
@Suite(
    "X11 direct save (XDS) against a hostile target", .timeLimit(.minutes(5)),
    .enabled(
        if: x11ToolsPresent && PointerDriver.isAvailable, "needs Xvfb, xclip and xdotool (Debian: xvfb, xclip, xdotool)"
    ),
    .enabled(if: pythonXlibPresent, "needs python-xlib (Debian: python3-xlib)"))
final class XdndDirectSaveHostileTests {
    let bed: DragAndDropBed

    init() async throws {
        bed = try await DragAndDropBed.start()
    }

    deinit {
        bed.stop()
    }

    /// One answer the hostile target printed.
    struct Answer: Decodable, Equatable {
        var uri: String?
        var answer: String?
    }

    /// Every file under `folder` (links not followed) with its contents, or its link target.
    func snapshot(_ folder: URL) -> [String: String] {
        var files: [String: String] = [:]
        let manager = FileManager.default
        for name in (try? manager.subpathsOfDirectory(atPath: folder.path)) ?? [] {
            let path = folder.appendingPathComponent(name).path
            if let target = try? manager.destinationOfSymbolicLink(atPath: path) {
                files[name] = "-> " + target
            } else if let data = manager.contents(atPath: path) {
                files[name] = String(decoding: data, as: UTF8.self)
            } else {
                files[name] = "(folder)"
            }
        }
        return files
    }

    @Test("The source answers E to every path that is not a new file in the target's folder, and never writes there")
    func hostileTargetPathsAreRefused() async throws {
        let root = bed.server.directory.appendingPathComponent("xds-\(UUID().uuidString.prefix(8))")
        let folder = root.appendingPathComponent("target")
        let outside = root.appendingPathComponent("outside")
        let manager = FileManager.default
        try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        try manager.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("secret".utf8).write(to: outside.appendingPathComponent("secret.txt"))
        try Data("keep".utf8).write(to: folder.appendingPathComponent("existing.txt"))
        try manager.createSymbolicLink(
            atPath: folder.appendingPathComponent("link.txt").path,
            withDestinationPath: outside.appendingPathComponent("secret.txt").path)
        try manager.createSymbolicLink(
            atPath: folder.appendingPathComponent("linked-folder").path, withDestinationPath: outside.path)
        let outsideBefore = snapshot(outside)
        let folderBefore = snapshot(folder)

        let backend = try await X11Backend.connect(environment: bed.server.environment, timeout: patience)
        defer { backend.close() }
        let source = try await backend.openDesktopWindow(
            title: "xds hostile source \(UUID().uuidString.prefix(8))", lines: ["drag me"], x: 0, y: 0)
        defer { source.close() }
        let writes = SanitizedMutex([URL]())
        let promise = PromisedFile(suggestedName: "card.txt") { url, _ in
            writes.withLock { $0.append(url) }
            try Data("promised".utf8).write(to: url, options: .withoutOverwriting)
        }
        let offer = DesktopDragOffer(targets: ["text/plain;charset=utf-8"], actions: [.copy], filePromise: promise) {
            _ in TransferByteStream(data: Data("card".utf8))
        }

        let hostile: [String] = [
            "file://\(folder.path)/%2e%2e/outside/card.txt",
            "file://\(folder.path)/link.txt",
            "file://\(folder.path)/existing.txt",
            "file://\(folder.path)/linked-folder/card.txt",
            "file://\(outside.path)/.profile.txt",
            "file://\(outside.path)/card.sh",
            "file://\(folder.path)/.card.txt",
        ]
        let good = "file://\(folder.path)/card.txt"
        let output = root.appendingPathComponent("hostile.out")
        let peer = try BackgroundProcess(
            [SystemTool.path("python3"), repositoryFile("Tests/Interop/xds_hostile_target.py").path, source.identifier]
                + hostile + [good],
            environment: bed.server.environment, outputFile: output.path)
        defer { peer.stop() }

        let drag = try await source.startDragging(offer)
        defer { drag.cancel() }
        // The button stays down: the drag owns XdndSelection while the hostile target asks.
        try await bed.pointer.press(at: ScreenPoint(x: 60, y: 40))
        try await bed.pointer.move(to: ScreenPoint(x: 90, y: 60))
        try await bed.pointer.move(to: ScreenPoint(x: 300, y: 200))

        let answered = ContinuousClock.now + .seconds(90)
        var answers: [Answer] = []
        while answers.count < hostile.count + 1 {
            guard ContinuousClock.now < answered, peer.isRunning || answers.count > 0 else { break }
            try await Task.sleep(for: .milliseconds(100))
            let text = String(decoding: manager.contents(atPath: output.path) ?? Data(), as: UTF8.self)
            answers = text.split(whereSeparator: \.isNewline).compactMap {
                try? JSONDecoder().decode(Answer.self, from: Data($0.utf8))
            }.filter { $0.uri != nil }
        }
        try await bed.pointer.release()
        _ = try? await waylandWithin(60) { try await drag.value }

        let transcript = String(decoding: manager.contents(atPath: output.path) ?? Data(), as: UTF8.self)
        try #require(answers.count == hostile.count + 1, "the hostile target's answers:\n\(transcript)")
        for (uri, answer) in zip(hostile, answers) {
            #expect(answer == Answer(uri: uri, answer: "E"), "\(uri)")
        }
        #expect(answers.last == Answer(uri: good, answer: "S"))
        // The promise ran once, for the good name only, and nothing else changed.
        #expect(writes.withLock { $0.count } == 1)
        #expect(snapshot(outside) == outsideBefore)
        var expected = folderBefore
        expected["card.txt"] = "promised"
        #expect(snapshot(folder) == expected)
    }
}

/// The rule a target's path must meet before a promise runs (``XdndDirectSaveDestination``), case by case.
@Suite("XDS destination rule")
struct XdndDirectSaveDestinationTests {
    @Test(
        "A path that is not a plain new name in a plain folder is refused with invalidOptions",
        arguments: [
            "relative/card.txt", "/tmp/../etc/card.txt", "/tmp/./card.txt", "/tmp//card.txt", "/tmp/card.txt/",
            "/tmp/.card.txt", "/home/user/.config/card.txt", "/tmp/card.sh", "/tmp/card", "/tmp/ca\nrd.txt",
            "/tmp/" + String(repeating: "a", count: 256) + ".txt",
            "/" + String(repeating: "a/", count: 2100) + "card.txt",
        ])
    func refused(_ path: String) {
        #expect {
            try XdndDirectSaveDestination(path: path, suggestedName: "card.txt")
        } throws: { error in
            (error as? ClipboardError)?.code == .invalidOptions
        }
    }

    @Test("A plain path keeps its folders and name; the target may rename the file, keeping its extension")
    func accepted() throws {
        let destination = try XdndDirectSaveDestination(path: "/tmp/dir/Card (2).TXT", suggestedName: "card.txt")
        #expect(destination.folders == ["tmp", "dir"])
        #expect(destination.name == "Card (2).TXT")
    }
}
