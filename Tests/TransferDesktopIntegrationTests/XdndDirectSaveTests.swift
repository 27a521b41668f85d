import Foundation
import Testing
import TransferDisplayTestSupport
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport

@testable import TransferClipboard
@testable import TransferDesktop
@testable import TransferDisplay

/// XDS (direct save) between two of TransferKit's X11 windows on two connections, with a real xdotool drag under a
/// private Xvfb: a file promise is written by the source where the target asks (issue 23, item 4).
@Suite(
    "X11 direct save (XDS) between TransferKit windows", .timeLimit(.minutes(5)),
    .enabled(
        if: x11ToolsPresent && PointerDriver.isAvailable, "needs Xvfb, xclip and xdotool (Debian: xvfb, xclip, xdotool)"
    ))
final class XdndDirectSaveTests {
    let bed: DragAndDropBed

    init() async throws {
        bed = try await DragAndDropBed.start()
    }

    deinit {
        bed.stop()
    }

    /// How the source's promise behaves, and what the target must get.
    enum Case: String, Sendable, CaseIterable {
        /// The source writes the file: the target gets its URL.
        case saved
        /// The source's write fails: `E`, and the target's `transferFailed`.
        case writeFails
        /// The source suggests a name with a folder in it: the target refuses to ask (`invalidOptions`).
        case hostileName
        /// The drag promises no file: `typeUnavailable`.
        case noPromise
        /// A source that cannot save answers `F`: the target writes the first other type's bytes itself.
        case fallback
        /// `F`, and the other type carries 4 MiB, past the target's limit of 1 MiB: it stops there
        /// (`limitExceeded`) and removes the file (issue 35, item 6).
        case oversizedFallback
    }

    @Test(
        "A promised file is written by the source where the target asks, or the target learns why not",
        arguments: Case.allCases)
    func directSave(_ testCase: Case) async throws {
        let sourceBackend = try await X11Backend.connect(environment: bed.server.environment, timeout: patience)
        defer { sourceBackend.close() }
        let targetBackend = try await X11Backend.connect(environment: bed.server.environment, timeout: patience)
        defer { targetBackend.close() }
        let source = try await sourceBackend.openDesktopWindow(
            title: "xds source \(UUID().uuidString.prefix(8))", lines: ["drag me"], x: 0, y: 0)
        defer { source.close() }
        let target = try await targetBackend.openDesktopWindow(
            title: "xds target \(UUID().uuidString.prefix(8))", lines: ["drop here"], x: 300, y: 0)
        defer { target.close() }
        let folder = bed.server.directory.appendingPathComponent("saved-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)

        let contents = Data("promised contents ✓".utf8)
        let promise = PromisedFile(suggestedName: testCase == .hostileName ? "../escape.txt" : "card.txt") {
            url, _ in
            guard testCase != .writeFails else { throw CocoaError(.fileWriteNoPermission) }
            try contents.write(to: url, options: .withoutOverwriting)
        }
        var offer = DesktopDragOffer(
            targets: ["text/plain;charset=utf-8"], actions: [.copy],
            filePromise: testCase == .noPromise ? nil : promise
        ) { _ in TransferByteStream(data: contents) }
        if testCase == .fallback || testCase == .oversizedFallback {
            // Another program's XDS source, which names its file itself and answers F.
            let oversized = testCase == .oversizedFallback
            offer = DesktopDragOffer(targets: ["text/plain;charset=utf-8", XdndDirectSave.name], actions: [.copy]) {
                if $0 == XdndDirectSave.name { return TransferByteStream(data: Data("F".utf8)) }
                return oversized
                    ? TransferByteStream(chunks: Array(repeating: Data(count: 1 << 16), count: 64))
                    : TransferByteStream(data: contents)
            }
            try await XdndDirectSave.writeText(
                "card.txt", to: try await sourceBackend.atom(XdndDirectSave.name), of: source.window, on: sourceBackend)
        }

        let result = SanitizedMutex<Result<URL, ClipboardError>?>(nil)
        let names = SanitizedMutex<String?>(nil)
        let drops = target.drops { _, _ in .copy }
        let receiver = Task {
            for try await drop in drops {
                names.withLock { $0 = nil }
                let name = await drop.promisedFileName
                names.withLock { $0 = name }
                do {
                    let url = try await drop.receivePromisedFile(into: folder, limit: 1 << 20)
                    result.withLock { $0 = .success(url) }
                    await drop.finish(performed: .copy)
                } catch {
                    result.withLock {
                        $0 = .failure(
                            error as? ClipboardError ?? ClipboardError(code: .transferFailed, message: "\(error)"))
                    }
                    await drop.finish(performed: nil)
                }
                return
            }
        }
        defer { receiver.cancel() }
        let drag = try await source.startDragging(offer)
        try await bed.pointer.drag(from: ScreenPoint(x: 120, y: 60), to: ScreenPoint(x: 420, y: 60))
        let outcome = try await waylandWithin(60) { try await drag.value }
        let ended = ContinuousClock.now + .seconds(30)
        while result.withLock({ $0 }) == nil {
            guard ContinuousClock.now < ended else { throw DragPeerError(message: "the drop never ended") }
            try await Task.sleep(for: .milliseconds(10))
        }

        switch (testCase, result.withLock { $0 }) {
        case (.saved, .success(let url)):
            #expect(url == folder.appendingPathComponent("card.txt"))
            #expect(FileManager.default.contents(atPath: url.path) == contents)
            #expect(names.withLock { $0 } == "card.txt")
            #expect(outcome == .dropped(performed: .copy, target: target.identifier))
            // The drag took its promise's name away when it ended (read on the source's own connection, which
            // sent the deletion first).
            let property = try await sourceBackend.atom(XdndDirectSave.name)
            #expect(try await XdndDirectSave.readText(property, of: source.window, on: sourceBackend) == "")
        case (.fallback, .success(let url)):
            #expect(url == folder.appendingPathComponent("card.txt"))
            #expect(FileManager.default.contents(atPath: url.path) == contents)
        case (.oversizedFallback, .failure(let error)):
            #expect(error.code == .limitExceeded, "\(error)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        case (.writeFails, .failure(let error)):
            #expect(error.code == .transferFailed)
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("card.txt").path))
        case (.hostileName, .failure(let error)):
            #expect(error.code == .invalidOptions)
            #expect(
                !FileManager.default.fileExists(atPath: bed.server.directory.appendingPathComponent("escape.txt").path))
        case (.noPromise, .failure(let error)):
            #expect(error.code == .typeUnavailable)
            #expect(names.withLock { $0 } == nil)
        case (_, let other):
            Issue.record("\(testCase): the drop ended with \(String(describing: other))")
        }
    }
}
