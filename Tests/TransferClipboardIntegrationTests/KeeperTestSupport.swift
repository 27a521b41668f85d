import Foundation
import Testing
import TransferDisplayTestSupport
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting
import UniformTypes

/// A `transferkit keep` running in the background against a test desktop, its output in a file.
final class RunningKeeper: Sendable {
    let process: BackgroundProcess
    let outputPath: String

    /// Starts `transferkit keep` (or `executable`) with `arguments` in `environment`.
    init(
        _ arguments: [String], environment: [String: String], folder: URL,
        executable: String = TransferKitExecutable.defaultPath
    ) throws {
        outputPath = folder.appendingPathComponent("keep-\(UUID().uuidString).out").path
        process = try BackgroundProcess(
            [executable, "keep"] + arguments, environment: environment, outputFile: outputPath)
    }

    deinit { process.stop() }

    /// The lines the keeper printed so far.
    var lines: [String] {
        String(decoding: FileManager.default.contents(atPath: outputPath) ?? Data(), as: UTF8.self)
            .split(separator: "\n").map(String.init)
    }

    /// Waits until the keeper has printed `count` lines that start with `prefix` (a guard of one minute against a
    /// hang, not a timing assertion); they are returned.
    @discardableResult
    func waitForLines(startingWith prefix: String, count: Int = 1) async throws -> [String] {
        for _ in 0..<3000 {
            let matching = lines.filter { $0.hasPrefix(prefix) }
            if matching.count >= count { return matching }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("the keeper never printed \(count) lines starting with '\(prefix)'; it printed: \(lines)")
        throw XvfbError(message: "no '\(prefix)' line")
    }

    /// The keeper's peak resident memory so far (`VmHWM`), in KiB.
    func peakMemory() throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(process.pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        return try #require(Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? ""))
    }
}

/// The environment of `desktop`'s clients with the keeper's runtime folder (its spool and history) in `folder`.
func keeperEnvironment(_ environment: [String: String], runtime folder: URL) throws -> [String: String] {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    var environment = environment
    environment["XDG_RUNTIME_DIR"] = folder.path
    return environment
}

/// The types of the several-type item the keeper tests copy, and their bytes.
let keptItem: [(type: UniformType, bytes: Data)] = [
    (.utf8PlainText, Data("Ada Lovelace ✓".utf8)),
    (.html, Data("<b>Ada</b> Lovelace".utf8)),
    (.png, pngBytes),
    (UniformType(exportedAs: "com.example.kept-card"), Data(#"{"name":"Ada"}"#.utf8)),
]

/// Writes an archive of one item with every representation of ``keptItem`` to `path`.
func writeKeptItemArchive(to path: URL) async throws {
    let provider = TransferProvider()
    for (type, bytes) in keptItem {
        provider.registerDataRepresentation(for: type) { _ in bytes }
    }
    try await TransferArchive(providers: [provider]).encoded(as: .cbor).write(to: path)
}
