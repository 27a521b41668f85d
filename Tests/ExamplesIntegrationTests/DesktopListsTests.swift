import Foundation
import Testing
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting
import TransferSessions

extension BackgroundChild {
    /// The example's executable.
    static let example = TransferKitExecutable.product(named: "DesktopLists")
}

/// Seed 000's two lists in two windows of two processes: a card moved by a real (xdotool) drag under Xvfb, once,
/// and with either process killed mid-drop.
@Suite(
    "Seed 000 on the desktop: two windows of two processes", .serialized, .timeLimit(.minutes(5)),
    .enabled(if: PrivateXvfb.isAvailable, "needs Xvfb and xdotool (Debian: xvfb, xdotool)"))
struct DesktopListsTests {
    /// Drags Han from the left list's window to the right one's, `killing` one process at `event`; returns both
    /// lists as they are when each folder is opened again, and the two processes' output.
    private func drag(
        killing killed: String? = nil, at event: RemoteSessionEvent? = nil
    ) async throws -> (
        left: String, right: String, source: String, target: String
    ) {
        let directory = try makeTemporaryDirectory(prefix: "tk-desktop")
        defer { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        let xvfb = try await PrivateXvfb(directory: directory)
        var environment = xvfb.environment
        environment["XDG_STATE_HOME"] = path("state")
        environment["XDG_RUNTIME_DIR"] = directory.path
        let tag = UUID().uuidString.prefix(8)
        let pause = { (role: String) in killed == role ? ["--pause-at", event?.rawValue ?? ""] : [] }
        let target = try BackgroundChild(
            BackgroundChild.example,
            ["window", path("right"), "Right cards \(tag)", "--timeout", "20"] + pause("target"),
            output: directory.appendingPathComponent("target.out"), environment: environment)
        let source = try BackgroundChild(
            BackgroundChild.example,
            ["window", path("left"), "Left cards \(tag)", "--samples", "--drag", "Han", "--timeout", "20"]
                + pause("source"),
            output: directory.appendingPathComponent("source.out"), environment: environment)
        #expect(try await target.wait(for: "ready"), "\(target.text)")
        #expect(try await source.wait(for: "ready"), "\(source.text)")
        let pointer = PointerDriver(environment: environment)
        let left = try await pointer.window(titled: "Left cards \(tag)")
        let right = try await pointer.window(titled: "Right cards \(tag)")
        try await pointer.place(left, at: ScreenPoint(x: 0, y: 0))
        try await pointer.place(right, at: ScreenPoint(x: 400, y: 100))
        try await pointer.drag(from: ScreenPoint(x: 50, y: 30), to: ScreenPoint(x: 470, y: 160), steps: 6)
        if let killed, let event {
            let victim = killed == "source" ? source : target
            #expect(try await victim.wait(for: "paused at \(event.rawValue)"), "\(victim.text)")
            victim.kill()
        }
        let survivor = killed == "source" ? target : source
        _ = try await survivor.wait(for: killed == "source" ? "drop:" : "drag:")
        if killed == nil { _ = try await target.wait(for: "drop:") }
        source.kill()
        target.kill()
        func open(_ list: String) async throws -> String {
            let opened = try await ChildProcess.run(
                BackgroundChild.example, arguments: ["open", path(list)], input: [], environment: environment)
            return String(decoding: opened.standardOutput, as: UTF8.self).trimmingCharacters(
                in: .whitespacesAndNewlines)
        }
        return (try await open("left"), try await open("right"), source.text, target.text)
    }

    @Test("a card dragged from one window to the other moves once: the source removes it after the target's commit")
    func moveByARealDrag() async throws {
        let lists = try await drag()
        #expect(lists.source.contains("drag: move exactly-once=true [Luke Leia]"), "\(lists.source)")
        #expect(lists.target.contains("drop: move [Han]"), "\(lists.target)")
        #expect(lists.left == "[Luke Leia]")
        #expect(lists.right == "[Han]")
    }

    /// Who is killed at which step of the desktop drop, and which list must hold the card.
    static let killTable: [(String, RemoteSessionEvent, String)] = [
        ("source", .reserved, "left"),
        ("source", .commitReceived, "right"),
        ("source", .removed, "right"),
        ("target", .reservationReceived, "left"),
        ("target", .committedLocally, "left"),
        ("target", .decided, "right"),
        ("target", .commitSent, "right"),
    ]

    @Test(
        "killing either process at each step of the desktop drop leaves the card in exactly one list",
        arguments: killTable)
    func killed(process: String, event: RemoteSessionEvent, expected: String) async throws {
        let lists = try await drag(killing: process, at: event)
        let places = [lists.left.contains("Han") ? "left" : nil, lists.right.contains("Han") ? "right" : nil]
            .compactMap { $0 }
        #expect(places == [expected], "left \(lists.left), right \(lists.right)\n\(lists.source)\n\(lists.target)")
    }
}
