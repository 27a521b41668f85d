import Foundation
import Testing
import TransferKitPlatform
import TransferKitTestSupport
import TransferKitTesting
import TransferSessions

/// Seed 000's move between two real processes, and the same move with either process killed at each step.
@Suite("Seed 000 between two processes", .serialized, .timeLimit(.minutes(5)))
struct TwoProcessSessionTests {
    private static let executable = TransferKitExecutable.product(named: "CharacterCards")

    private static let cards = #"""
        {"cards":[{"name":"Luke","character":"Jedi","favorite":"blue milk"},\#
        {"name":"Leia","character":"General","favorite":"Alderaan sunsets"},\#
        {"name":"Han","character":"Smuggler","favorite":"the Falcon"}],"pending":{}}
        """#

    /// A running example process whose output goes to a file.
    ///
    /// Started and reaped with the package's own spawner, not Foundation's `Process`: every wait here has a limit,
    /// and no descriptor of this test process leaks into the child.
    private final class Running {
        let pid: Int32
        let arguments: [String]
        let output: URL
        private(set) var status: Int32?

        init(
            _ arguments: [String], output: URL, descriptorLimit: Int? = nil, environment: [String: String]? = nil
        ) throws {
            self.arguments = arguments
            self.output = output
            let descriptor = try Syscall.openForWriting(output.path)
            defer { Syscall.close(descriptor) }
            let input = try Syscall.openForReading("/dev/null")
            defer { Syscall.close(input) }
            // prlimit (util-linux) starts the example with fewer descriptors, for the flood test.
            let command =
                descriptorLimit.map {
                    [SystemTool.path("prlimit"), "--nofile=\($0):\($0)", TwoProcessSessionTests.executable]
                }
                ?? [TwoProcessSessionTests.executable]
            pid = try ChildProcess.spawn(
                command[0], arguments: Array(command.dropFirst()) + arguments, environment: environment,
                standardInput: input,
                standardOutput: descriptor, standardError: descriptor)
        }

        deinit {
            if status == nil {
                kill(pid, SIGKILL)
                _ = try? ChildProcess.waitForExit(pid, executable: TwoProcessSessionTests.executable)
            }
        }

        var text: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }

        /// Whether the process still runs (reaps it once it has ended).
        var isRunning: Bool {
            get throws {
                if status == nil {
                    status = try ChildProcess.exitStatusIfEnded(pid, executable: TwoProcessSessionTests.executable)
                }
                return status == nil
            }
        }

        /// Waits until the output contains `marker` (or the process ends); false after the time limit.
        func wait(for marker: String) async throws -> Bool {
            for _ in 0..<2000 {
                if text.contains(marker) { return true }
                if try !isRunning { return text.contains(marker) }
                try await Task.sleep(for: .milliseconds(10))
            }
            return false
        }

        /// Waits for the end; kills the process if it takes longer than the limit.
        func finish() async throws {
            for _ in 0..<2000 where try isRunning { try await Task.sleep(for: .milliseconds(10)) }
            if try isRunning {
                Issue.record("\(arguments) did not end: \(text)")
                kill(pid, SIGKILL)
                status = try ChildProcess.waitForExit(pid, executable: TwoProcessSessionTests.executable)
            }
        }
    }

    /// How the example keeps its lists.
    enum Storage: String, CustomStringConvertible {
        /// Its own JSON files, pending marks and recovery, with a record it names (`session-…`).
        case exampleFiles
        /// Stored `TransferList`s and the user's standard record, found through `XDG_STATE_HOME` (`stored-…`).
        case storedLists

        var description: String { rawValue }
    }

    /// The two lists' card names after a drag of Han from the source to the destination, with `killed` killed at
    /// `event` and both recovered, and what the source printed.
    private func run(
        killing killed: String?, at event: RemoteSessionEvent?, flooding: Bool = false,
        storage: Storage = .exampleFiles
    ) async throws -> (
        source: [String], destination: [String], sourceOutput: String
    ) {
        let directory = try makeTemporaryDirectory(prefix: "tk-2p")
        defer { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        try Self.cards.write(toFile: path("A.json"), atomically: true, encoding: .utf8)
        try #"{"cards":[],"pending":{}}"#.write(toFile: path("B.json"), atomically: true, encoding: .utf8)
        // Both processes of the stored lists find the same record without being told: the user's state directory.
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = path("state")
        let stored = storage == .storedLists
        let pause = { (role: String) in killed == role ? ["--pause-at", event?.rawValue ?? ""] : [] }
        let source = try Running(
            (stored
                ? ["stored-source", path("A"), path("s"), "Han"]
                : ["session-source", path("A.json"), path("s"), path("record"), "Han"]) + pause("source"),
            output: directory.appendingPathComponent("source.out"), descriptorLimit: flooding ? 64 : nil,
            environment: environment)
        for _ in 0..<2000 where !FileManager.default.fileExists(atPath: path("s")) {
            try await Task.sleep(for: .milliseconds(10))
        }
        if flooding {
            // A real process holds a thousand connections at once: the source runs out of descriptors while they
            // last, and must go on accepting afterwards.
            let flood = try await ChildProcess.run(
                SystemTool.path("python3"),
                arguments: [repositoryFile("Tests/Interop/session_peer.py").path, "flood", path("s"), "1000"], input: []
            )
            let report = String(decoding: flood.standardOutput, as: UTF8.self)
            #expect(flood.status == 0 && report.hasPrefix("flooded "), "\(report)")
        }
        let destination = try Running(
            (stored
                ? ["stored-destination", path("B"), path("s")]
                : ["session-destination", path("B.json"), path("s"), path("record")]) + pause("destination"),
            output: directory.appendingPathComponent("destination.out"), environment: environment)
        if let killed, let event {
            let victim = killed == "source" ? source : destination
            #expect(try await victim.wait(for: "paused at \(event.rawValue)"), "\(victim.text)")
            kill(victim.pid, SIGKILL)
        }
        try await destination.finish()
        try await source.finish()
        // Each process, started again, settles its list by the record (a stored list, by being opened).
        var opened: [String: [String]] = [:]
        for (list, role) in [("A", "source"), ("B", "destination")] {
            let recovery = try await ChildProcess.run(
                Self.executable,
                arguments: stored
                    ? ["stored-open", path(list)] : ["session-recover", path(list + ".json"), path("record"), role],
                input: [], environment: environment)
            #expect(recovery.status == 0, "\(String(decoding: recovery.standardError, as: UTF8.self))")
            let printed = String(decoding: recovery.standardOutput, as: UTF8.self)
            opened[list] = printed.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(
                in: CharacterSet(charactersIn: "[]")
            ).split(separator: " ").map(String.init)
        }
        func names(_ list: String) throws -> [String] {
            if stored { return opened[list] ?? [] }
            let object = try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: path(list + ".json"))))
            let cards = (object as? [String: Any])?["cards"] as? [[String: Any]] ?? []
            return cards.compactMap { $0["name"] as? String }
        }
        return (try names("A"), try names("B"), source.text)
    }

    @Test(
        "a move between two processes: the card leaves the source only after the destination committed",
        arguments: [Storage.exampleFiles, .storedLists])
    func moveBetweenProcesses(storage: Storage) async throws {
        let lists = try await run(killing: nil, at: nil, storage: storage)
        #expect(lists.source == ["Luke", "Leia"])
        #expect(lists.destination == ["Han"])
        if storage == .storedLists {
            // The source's own list reported its removal, for its table to animate.
            #expect(
                lists.sourceOutput.contains("source: move; [Luke Leia]; removed [Han@2 (movedAway("),
                "\(lists.sourceOutput)")
        }
    }

    @Test(
        "a source that ran out of descriptors under a flood of connections goes on accepting, and the move completes",
        .enabled(if: SystemTool.exists("prlimit"), "needs util-linux's prlimit"),
        .enabled(if: SystemTool.exists("python3"), "the flood is a Python peer"))
    func acceptsAfterFlood() async throws {
        let lists = try await run(killing: nil, at: nil, flooding: true)
        #expect(lists.source == ["Luke", "Leia"])
        #expect(lists.destination == ["Han"])
    }

    /// Who is killed at which step, and where the card must end.
    static let killTable: [(String, RemoteSessionEvent, String)] = [
        ("source", .offered, "source"),
        ("source", .reserved, "source"),
        ("source", .commitReceived, "destination"),
        ("source", .removed, "destination"),
        ("destination", .reservationReceived, "source"),
        ("destination", .committedLocally, "source"),
        ("destination", .decided, "destination"),
        ("destination", .commitSent, "destination"),
    ]

    @Test(
        "killing either process at any step leaves the card in exactly one list, the one the record names",
        arguments: killTable)
    func killed(process: String, event: RemoteSessionEvent, expected: String) async throws {
        try await expectOnePlace(killing: process, at: event, expected: expected, storage: .exampleFiles)
    }

    @Test(
        "stored lists, no code of the example's own: killing either process at any step leaves the card in one list",
        arguments: killTable)
    func killedWithStoredLists(process: String, event: RemoteSessionEvent, expected: String) async throws {
        try await expectOnePlace(killing: process, at: event, expected: expected, storage: .storedLists)
    }

    private func expectOnePlace(
        killing process: String, at event: RemoteSessionEvent, expected: String, storage: Storage
    ) async throws {
        let lists = try await run(killing: process, at: event, storage: storage)
        let places = [
            lists.source.contains("Han") ? "source" : nil, lists.destination.contains("Han") ? "destination" : nil,
        ]
        .compactMap { $0 }
        #expect(places == [expected], "source \(lists.source), destination \(lists.destination)")
        #expect(lists.source.filter { $0 != "Han" } == ["Luke", "Leia"])
    }
}
