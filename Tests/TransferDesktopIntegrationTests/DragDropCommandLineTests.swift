import Foundation
import Testing
import TransferDisplayTestSupport
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting

/// `transferkit drag` and `drop`: what they refuse before any window opens (no display server is needed).
@Suite("transferkit drag and drop: usage", .timeLimit(.minutes(5)))
final class DragDropUsageTests {
    let folder: URL

    init() throws {
        folder = try makeTemporaryDirectory(prefix: "drag-drop-usage")
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs `transferkit` with `arguments` in the test's folder, without a display server.
    func transferkit(_ arguments: [String]) async throws -> ChildProcess.Result {
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "DISPLAY")
        environment.removeValue(forKey: "WAYLAND_DISPLAY")
        return try await ChildProcess.run(
            "/bin/sh",
            arguments: ["-c", #"cd "$0" && exec "$@""#, folder.path, TransferKitExecutable.defaultPath]
                + arguments, environment: environment)
    }

    @Test(
        "usage errors exit 2 with the reason, before a window opens",
        arguments: [
            (["drag"], "FILE"),
            (["drag", "-"], "standard input (-) cannot be dragged"),
            (["drag", "--backend", "x12", "card.json"], "'x12' is not a display protocol"),
            (["drag", "--backend", "wayland-focus", "card.json"], "'wayland-focus' is not a display protocol"),
            (["drag", "--move", "cards.transferkit"], "--move removes the dragged files"),
            (["drop", "--count", "0"], "--count needs a positive number"),
            (["drop", "--count", "many"], "--count needs a positive number"),
            (["drop", "-o", "out", "--archive", "x.transferkit"], "give one of them"),
            (["drop", "--format", "json"], "--format goes with --archive"),
            (["drop", "-o", "card.json"], "card.json is not a folder"),
            (["drop", "--backend", "carrier-pigeon"], "'carrier-pigeon' is not a display protocol"),
            (["drop", "--archive", "x.transferkit", "--format", "xml"], "xml"),
        ])
    func usageErrors(arguments: [String], reason: String) async throws {
        try Data(#"{"name":"Luke"}"#.utf8).write(to: folder.appendingPathComponent("card.json"))
        let pack = try await ChildProcess.run(
            TransferKitExecutable.defaultPath,
            arguments: [
                "pack", folder.appendingPathComponent("card.json").path, "-o",
                folder.appendingPathComponent("cards.transferkit").path,
            ])
        #expect(pack.status == 0, "\(pack.errorText)")
        let run = try await transferkit(arguments)
        #expect(run.status == 2, "\(arguments): \(run.errorText)")
        #expect(run.errorText.contains(reason), "\(arguments): \(run.errorText)")
        #expect(run.errorText.hasPrefix("transferkit \(arguments[0]): "), "\(run.errorText)")
        #expect(run.standardOutput.isEmpty)
    }

    @Test("drag --help names the lines drag prints ('dropped ACTION TARGET', 'not dropped: REASON'), no others")
    func dragHelpNamesItsLines() async throws {
        let run = try await transferkit(["drag", "--help"])
        #expect(run.status == 0, "\(run.errorText)")
        let help = run.outputText.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("'dropped ACTION TARGET'"), "\(help)")
        #expect(help.contains("'not dropped: REASON'"), "\(help)")
        #expect(!help.contains("'refused'") && !help.contains("'cancelled REASON'"), "\(help)")
    }

    @Test("a file that cannot be opened is refused with openFailed (status 2), and without a display noDisplay")
    func unreadableFileAndNoDisplay() async throws {
        let missing = try await transferkit(["drag", "no-such-file.json"])
        #expect(missing.status == 2)
        #expect(missing.errorText.contains("(openFailed)"), "\(missing.errorText)")
        try Data("hello".utf8).write(to: folder.appendingPathComponent("hello.txt"))
        for arguments in [["drag", "hello.txt"], ["drop"]] {
            let run = try await transferkit(arguments)
            #expect(run.status == 2, "\(arguments): \(run.errorText)")
            #expect(run.errorText.contains("(noDisplay)"), "\(arguments): \(run.errorText)")
        }
    }
}
