import Foundation
import Testing
import TransferClipboard
import TransferDisplayTestSupport
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting

/// A data-control client in another process (`transferkit-clipboard-probe wayland types 2000`) offering 2 000 types
/// under a private headless sway: once a `protocolViolation` for every reader, now an offer taken up to the cap.
@Suite(
    "Hostile Wayland owners", .serialized, .timeLimit(.minutes(5)),
    .enabled(if: waylandToolsPresent, "needs sway, wl-clipboard and setpriv (Debian: sway, wl-clipboard, util-linux)"))
final class HostileOwnerWaylandTests {
    let compositor: WaylandCompositor
    let folder: URL
    let environment: [String: String]
    var cap: Int { ClipboardLimits.maximumOfferedTypes }

    init() async throws {
        compositor = try await WaylandCompositor.start()
        folder = try makeTemporaryDirectory(prefix: "clipboard-hostile-wayland")
        environment = try keeperEnvironment(compositor.environment, runtime: folder.appendingPathComponent("runtime"))
    }

    deinit {
        compositor.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    func transferkit(_ arguments: [String]) async throws -> ChildProcess.Result {
        try await ChildProcess.run(TransferKitExecutable.defaultPath, arguments: arguments, environment: environment)
    }

    @Test("2 000 offered types: paste, watch and keep take the cap and report the rest once")
    func floodOfTypes() async throws {
        let keeper = try RunningKeeper([], environment: environment, folder: folder)
        let text = folder.appendingPathComponent("first.txt")
        try Data("first".utf8).write(to: text)
        try await compositor.wlCopy(text, type: "text/plain;charset=utf-8")
        try await keeper.waitForLines(startingWith: "kept clipboard")
        let watchOutput = folder.appendingPathComponent("watch.out").path
        let watch = try BackgroundProcess(
            [TransferKitExecutable.defaultPath, "watch", "--json", "--count", "1"], environment: environment,
            outputFile: watchOutput)
        defer { watch.stop() }
        // watch is up once it has connected: a moment's head start, then the owner (a late watch only misses it).
        try await Task.sleep(for: .seconds(1))

        let owner = try await HostileOwner("wayland", ["types", "2000"], environment: environment, folder: folder)
        try await keeper.waitForLines(startingWith: "kept clipboard: \(cap) names")
        #expect(keeper.lines.filter { $0.hasPrefix("ignored clipboard: \(2000 - cap) ") }.count == 1, "\(keeper.lines)")
        #expect(!keeper.lines.contains { $0.contains("protocolViolation") }, "\(keeper.lines)")

        let list = try await transferkit(["paste", "--list"])
        #expect(list.status == 0, "\(list.errorText)")
        #expect(list.outputText.split(separator: "\n").count == cap)
        #expect(list.errorText.contains("\(2000 - cap) more names"), "\(list.errorText)")
        let paste = try await transferkit(["paste", "--type", "com.example.flood-3"])
        #expect(paste.status == 0, "\(paste.errorText)")
        #expect(paste.outputText == "com.example.flood-3")

        #expect(try await watch.exitStatus() == 0)
        let watched = String(decoding: FileManager.default.contents(atPath: watchOutput) ?? Data(), as: UTF8.self)
        #expect(watched.contains("com.example.flood-0"), "\(watched.prefix(300))")
        #expect(!watched.contains("protocolViolation"), "\(watched.prefix(300))")
        owner.process.stop()
    }
}
