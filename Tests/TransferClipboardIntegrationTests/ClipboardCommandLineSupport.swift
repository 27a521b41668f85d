import Foundation
import Testing
import TransferDisplayTestSupport
import TransferKitPlatform
import TransferKitTesting

/// With a `text/uri-list` of `list` on the clipboard (from xclip or wl-copy): `paste --type public.file-url` and
/// `--type public.url` write it exactly, and `paste --archive` to `archive` snapshots it as
/// `org.transferkit.uri-list`, with no dynamic type.
/// - Parameter transferkit: Runs the tool against the test's display server.
func expectFileURLsAndSnapshot(
    _ list: Data, archive: String, transferkit: ([String]) async throws -> ChildProcess.Result
) async throws {
    for type in ["public.file-url", "public.url"] {
        let paste = try await transferkit(["paste", "--type", type])
        #expect(paste.status == 0, "\(type): \(paste.errorText)")
        #expect(Data(paste.standardOutput) == list, "\(type)")
    }
    let snapshot = try await transferkit(["paste", "--archive", "-o", archive])
    #expect(snapshot.status == 0, "\(snapshot.errorText)")
    let inspect = try await transferkit(["inspect", archive, "--json"])
    #expect(inspect.outputText.contains(#""type":"org.transferkit.uri-list""#), "\(inspect.outputText)")
    #expect(!inspect.outputText.contains("dyn."), "\(inspect.outputText)")
}

/// Waits (within a minute) until no process has `marker` on its command line (a serving copy that should end), and
/// with `variable` (`DISPLAY=:7`) that entry in the environment it started with; whether none is left.
@discardableResult
func waitUntilNoProcess(containing marker: String, startedWith variable: String? = nil) async throws -> Bool {
    for _ in 0..<3000 {
        // Each look reads every process's command line: stop at the first that finds none.
        if processes(containing: marker, startedWith: variable).isEmpty { return true }
        try await Task.sleep(for: .milliseconds(20))
    }
    return processes(containing: marker, startedWith: variable).isEmpty
}

/// What `watch --count 1 --exec` gave its command: the whole environment as `env` printed it, and standard input.
struct HookRun {
    var environment: String
    var input: Data?

    /// The `CLIPBOARD_*` variables (the first line of a multi-line value).
    var variables: [String: String] {
        Dictionary(
            environment.split(separator: "\n").compactMap { line -> (String, String)? in
                guard line.hasPrefix("CLIPBOARD_"), let equals = line.firstIndex(of: "=") else { return nil }
                return (String(line[..<equals]), String(line[line.index(after: equals)...]))
            }, uniquingKeysWith: { first, _ in first })
    }

    /// Runs `transferkit watch --count 1 --exec` with a command that saves its environment and input in `folder`,
    /// calling `change` until watch has seen a change (it subscribes a moment after it starts, silently).
    static func run(
        environment: [String: String], folder: URL, change: () async throws -> Void
    ) async throws -> HookRun {
        let environmentFile = folder.appendingPathComponent("hook-\(UUID().uuidString).env").path
        let inputFile = folder.appendingPathComponent("hook-\(UUID().uuidString).in").path
        let command = "cat > \(inputFile); env > \(environmentFile).part; mv \(environmentFile).part \(environmentFile)"
        let watch = try BackgroundProcess(
            [TransferKitExecutable.defaultPath, "watch", "--count", "1", "--exec", command], environment: environment)
        defer { watch.stop() }
        for _ in 0..<60 where watch.isRunning {
            try await change()
            for _ in 0..<50 where watch.isRunning { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(try await watch.exitStatus() == 0)
        return HookRun(
            environment: String(
                decoding: FileManager.default.contents(atPath: environmentFile) ?? Data(), as: UTF8.self),
            input: FileManager.default.contents(atPath: inputFile))
    }
}
