import Foundation
import Testing
import TransferDisplayTestSupport
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting

/// A hostile clipboard owner in another process: `transferkit-clipboard-probe` in one of its modes (`types N`,
/// `endless`, `drip`), its report lines in a file.
final class HostileOwner: Sendable {
    let process: BackgroundProcess
    let outputPath: String

    /// Starts the probe on `backend` (`x11` or `wayland`) in `mode`, in `environment`, and waits until it owns the
    /// clipboard.
    init(_ backend: String, _ mode: [String], environment: [String: String], folder: URL) async throws {
        outputPath = folder.appendingPathComponent("hostile-\(UUID().uuidString).out").path
        process = try BackgroundProcess(
            [TransferKitExecutable.product(named: "transferkit-clipboard-probe"), backend] + mode,
            environment: environment, outputFile: outputPath)
        try await waitFor("ready")
    }

    deinit { process.stop() }

    /// The lines the owner printed so far.
    var lines: [String] {
        String(decoding: FileManager.default.contents(atPath: outputPath) ?? Data(), as: UTF8.self)
            .split(separator: "\n").map(String.init)
    }

    /// Waits until the owner printed `line` (a guard of one minute against a hang, not a timing assertion).
    func waitFor(_ line: String) async throws {
        for _ in 0..<3000 {
            if lines.contains(line) { return }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("the hostile owner never printed '\(line)'; it printed: \(lines.suffix(5))")
        throw XvfbError(message: "no '\(line)' line")
    }
}

/// The names of the files in `folder` (none when it is missing).
func fileNames(in folder: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
}
