import Foundation
import Testing
import TransferClipboard
import TransferDisplayTestSupport
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting
import UniformTypes

/// `transferkit keep` under a private headless sway: what wl-copy and TransferKit owners copied survives their exit.
@Suite(
    "transferkit keep on Wayland", .serialized, .timeLimit(.minutes(5)),
    .enabled(if: waylandToolsPresent, "needs sway, wl-clipboard and setpriv (Debian: sway, wl-clipboard, util-linux)"))
final class KeeperWaylandTests {
    let compositor: WaylandCompositor
    let folder: URL
    let environment: [String: String]

    init() async throws {
        compositor = try await WaylandCompositor.start()
        folder = try makeTemporaryDirectory(prefix: "clipboard-keeper-wayland")
        environment = try keeperEnvironment(compositor.environment, runtime: folder.appendingPathComponent("runtime"))
    }

    deinit {
        compositor.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    func file(_ name: String, _ bytes: Data) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try bytes.write(to: url)
        return url
    }

    @Test("every type of a TransferKit owner survives its exit; wl-paste gets each with its exact bytes")
    func everyTypeSurvives() async throws {
        let archive = folder.appendingPathComponent("several.transferkit")
        try await writeKeptItemArchive(to: archive)
        let keeper = try RunningKeeper([], environment: environment, folder: folder)
        let owner = try BackgroundProcess(
            [TransferKitExecutable.defaultPath, "copy", "--foreground", archive.path], environment: environment)
        try await keeper.waitForLines(startingWith: "kept clipboard")
        owner.stop()
        try await keeper.waitForLines(startingWith: "restored clipboard")
        let listed = try await compositor.offeredNames()
        for (type, bytes) in keptItem {
            let mime = type.preferredMIMEType ?? type.identifier
            #expect(listed.contains(mime), "\(mime) is not offered: \(listed)")
            let pasted = try await compositor.wlPaste(["--no-newline", "--type", mime])
            #expect(pasted.status == 0, "\(mime): \(pasted.error)")
            #expect(pasted.output == bytes, "\(mime)")
        }
    }

    @Test("wl-copy's text survives the exit of wl-copy's serving process")
    func wlCopySurvives() async throws {
        let keeper = try RunningKeeper([], environment: environment, folder: folder)
        let text = try file("text.txt", Data("May the Force be with you.".utf8))
        try await compositor.wlCopy(text, type: "text/plain;charset=utf-8")
        try await keeper.waitForLines(startingWith: "kept clipboard")
        // Only this compositor's wl-copy: other tests (and other test runs) have their own.
        let servers = processes(containing: "wl-copy").filter { pid in
            let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ") ?? Data()
            return String(decoding: environment, as: UTF8.self).contains("WAYLAND_DISPLAY=\(compositor.socketPath)")
        }
        #expect(!servers.isEmpty)
        for pid in servers { kill(pid, SIGKILL) }
        try await keeper.waitForLines(startingWith: "restored clipboard")
        let pasted = try await compositor.wlPaste(["--no-newline"])
        #expect(pasted.status == 0, "\(pasted.error)")
        #expect(pasted.output == Data("May the Force be with you.".utf8))
    }

    @Test("files copied as cut are offered again as cut on Wayland too")
    func cutStaysCut() async throws {
        let keeper = try RunningKeeper([], environment: environment, folder: folder)
        let moved = try file("moved.txt", Data("to be moved".utf8))
        let owner = try BackgroundProcess(
            [TransferKitExecutable.defaultPath, "copy", "--foreground", "--cut", moved.path], environment: environment)
        try await keeper.waitForLines(startingWith: "kept clipboard")
        owner.stop()
        try await keeper.waitForLines(startingWith: "restored clipboard")
        let gnome = try await compositor.wlPaste(["--no-newline", "--type", "x-special/gnome-copied-files"])
        #expect(String(decoding: gnome.output, as: UTF8.self) == "cut\n" + moved.standardizedFileURL.absoluteString)
        let kde = try await compositor.wlPaste(["--no-newline", "--type", "application/x-kde-cutselection"])
        #expect(kde.output == Data("1".utf8), "\(kde.error)")
    }

    @Test("a concealed copy is never kept on Wayland either")
    func concealedIsNeverKept() async throws {
        let keeper = try RunningKeeper([], environment: environment, folder: folder)
        let secret = try BackgroundProcess(
            [
                TransferKitExecutable.defaultPath, "copy", "--foreground", "--concealed",
                try file("secret.txt", Data("hunter2".utf8)).path,
            ], environment: environment)
        let skipped = try await keeper.waitForLines(startingWith: "skipped clipboard")
        #expect(skipped == ["skipped clipboard: concealed"])
        secret.stop()
        try await compositor.wlCopy(try file("after.txt", Data("after".utf8)), type: "text/plain")
        try await keeper.waitForLines(startingWith: "kept clipboard")
        #expect(!keeper.lines.contains { $0.hasPrefix("restored") }, "\(keeper.lines)")
    }
}
