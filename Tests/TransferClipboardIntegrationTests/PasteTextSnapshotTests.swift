import Foundation
import Testing
import TransferClipboard
import TransferDisplayTestSupport
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting
import UniformTypes

/// `paste --archive --format json` against owners whose payloads reach or pass the text form's 64 MiB limit: the
/// snapshot is refused with `limitExceeded` and bounded memory, leaves no file behind, and what it does write the
/// tool's own `inspect` reads.
@Suite(
    "paste --archive --format json and the text form's limit", .serialized, .timeLimit(.minutes(5)),
    .enabled(if: x11ToolsPresent, "needs Xvfb and xclip (Debian: xvfb, xclip)"))
final class PasteTextSnapshotTests {
    let server: XvfbServer
    let folder: URL

    init() async throws {
        server = try await XvfbServer.start()
        folder = try makeTemporaryDirectory(prefix: "clipboard-text-snapshot")
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Puts a stream of `total` pattern bytes of `com.example.blob` on the clipboard, served by this process.
    func offer(total: Int, _ clipboard: Clipboard) async throws -> ClipboardWriteHandle {
        let provider = TransferProvider()
        provider.registerStreamRepresentation(for: UniformType(exportedAs: "com.example.blob")) { _ in
            TransferByteStream(length: nil, PatternChunks(total: total))
        }
        return try await clipboard.write([provider])
    }

    /// The names in the test's folder that a failed write could leave: anything but what the test made.
    func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".transferkit-tmp-") }
    }

    @Test(
        "A 512 MiB or endless owner: refused with limitExceeded (exit 2), one chunk in memory, no file left",
        arguments: [512 << 20, Int.max])
    func refusedPastTheLimit(total: Int) async throws {
        let clipboard = try await Clipboard(backend: .x11, environment: server.environment, timeout: patience)
        defer { clipboard.close() }
        // The baseline: the same snapshot of five bytes, written.
        let small = try await offer(total: 5, clipboard)
        let baselineOutput = folder.appendingPathComponent("baseline.json").path
        let baseline = try await ChildProcess.run(
            TransferKitExecutable.product(named: "transferkit-memory-probe"),
            arguments: ["paste", "--archive", "--format", "json", "-o", baselineOutput], environment: server.environment
        )
        #expect(baseline.status == 0, "\(baseline.errorText)")
        await small.release()

        let handle = try await offer(total: total, clipboard)
        defer { Task { await handle.release() } }
        let output = folder.appendingPathComponent("snapshot.json").path
        let paste = try await ChildProcess.run(
            TransferKitExecutable.product(named: "transferkit-memory-probe"),
            arguments: ["paste", "--archive", "--format", "json", "-o", output], environment: server.environment)
        #expect(paste.status == 2, "\(paste.errorText)")
        #expect(paste.errorText.contains(" (limitExceeded)\n"), "\(paste.errorText)")
        #expect(!FileManager.default.fileExists(atPath: output))
        let left = try leftovers()
        #expect(left.isEmpty, "\(left)")
        // 64 MiB read before the refusal: held whole, they alone would grow the peak by 65 536 KiB.
        let peak = try reportedPeak(paste.errorText)
        let growth = peak - (try reportedPeak(baseline.errorText))
        #expect(growth < 24 << 10, "the refused snapshot grew the peak RSS by \(growth) KiB, to \(peak) KiB")
        print(
            "paste --archive --format json of \(total == Int.max ? "an endless" : "a \(total >> 20) MiB") payload: "
                + "exit status \(paste.status), peak RSS \(peak) KiB (\(growth) KiB over a 5-byte snapshot)")
    }

    @Test("Within the limit the JSON snapshot is written and inspect reads it; text past the limit is refused")
    func writerAndReaderAgree() async throws {
        let clipboard = try await Clipboard(backend: .x11, environment: server.environment, timeout: patience)
        defer { clipboard.close() }
        // 1 MiB of bytes that are not UTF-8: base64 in the text form.
        let small = try await offer(total: 1 << 20, clipboard)
        let output = folder.appendingPathComponent("small.json").path
        let paste = try await ChildProcess.run(
            TransferKitExecutable.defaultPath, arguments: ["paste", "--archive", "-o", output],
            environment: server.environment)
        #expect(paste.status == 0, "\(paste.errorText)")
        let inspect = try await ChildProcess.run(TransferKitExecutable.defaultPath, arguments: ["inspect", output])
        #expect(inspect.status == 0, "\(inspect.errorText)")
        #expect(inspect.outputText.contains("com.example.blob"), "\(inspect.outputText)")
        await small.release()

        // 56 MiB is under the limit as bytes, but its base64 (75 MiB) is over it: refused, not written.
        let large = try await offer(total: 56 << 20, clipboard)
        defer { Task { await large.release() } }
        let refused = folder.appendingPathComponent("large.json").path
        let over = try await ChildProcess.run(
            TransferKitExecutable.defaultPath, arguments: ["paste", "--archive", "-o", refused],
            environment: server.environment)
        #expect(over.status == 2, "\(over.errorText)")
        #expect(over.errorText.contains(" (limitExceeded)\n"), "\(over.errorText)")
        #expect(!FileManager.default.fileExists(atPath: refused))
        let left = try leftovers()
        #expect(left.isEmpty, "\(left)")
    }
}
