import Foundation
import Testing
import TransferKit
import TransferKitTestSupport
import TransferSessions
import TransferSessionsTestSupport

/// Thousands of random drags over two lists: moves within and between them, copies, cancels, drops that fail
/// (undecodable items from another application, pinned positions, cancelled tasks), drags of items that are
/// edited away meanwhile, and pairs of drops running at the same time. After every step each identity is in at
/// most one list and exactly once, and the lists hold exactly the identities the test expects: a move changes
/// no count, a copy adds one identity per copied item, a failure changes nothing.
@Suite("Exactly-once moves under random drags", .timeLimit(.minutes(5)))
struct MovePropertyTests {
    private static let elsewhere = TransferSessionOrigin(
        applicationIdentifier: "com.example.elsewhere", processIdentifier: 2)

    /// A pair of lists and the identities they must hold between them.
    private final class World: @unchecked Sendable {
        let lists: [TransferList<Row>]
        var expected: Set<String>
        /// What another application received by moves into it.
        var elsewhere: [String] = []
        var next = 0
        /// How the drops ended, by operation or error code, so the test can show every path ran.
        var outcomes: [String: Int] = [:]

        func tally<Value>(_ body: () async throws(TransferSessionError) -> DropResult<Value>) async {
            do {
                outcomes[try await body().operation.description, default: 0] += 1
            } catch {
                outcomes[error.code.description, default: 0] += 1
            }
        }

        /// Two lists in memory, or stored in `directory` with one decision record there.
        init(storedIn directory: URL? = nil) throws {
            let copy: @Sendable (Row) -> Row = { Row(id: "\($0.id).c\(UUID().uuidString.prefix(8))", title: $0.title) }
            let pinned: @Sendable (Row) -> Bool = { $0.title == "pinned" }
            var left: [Row] = (0..<6).map { Row(id: "l\($0)", title: $0 == 2 ? "undecodable" : "plain") }
            left.append(Row(id: "pin", title: "pinned"))
            let right: [Row] = (0..<4).map { Row(id: "r\($0)", title: "plain") }
            if let directory {
                let record = try SessionDecisionRecord(directory: directory.appendingPathComponent("record"))
                lists = try [("left", left), ("right", right)].map { name, rows throws(TransferSessionError) in
                    try TransferList(
                        storedIn: directory.appendingPathComponent(name), initialElements: rows, decisions: record,
                        isPinned: pinned, makeCopy: copy, makeProvider: Row.provider)
                }
            } else {
                lists = [
                    TransferList(left, isPinned: pinned, makeCopy: copy, makeProvider: Row.provider),
                    TransferList(right, isPinned: pinned, makeCopy: copy, makeProvider: Row.provider),
                ]
            }
            self.directory = directory
            expected = Set((left + right).map(\.id))
        }

        /// Where stored lists are.
        let directory: URL?

        /// Checks the invariants; returns a description of the first breach.
        func breach() -> String? {
            if let directory {
                // Stored lists: the file says what memory says, and no move is left marked once its drop ended.
                for (list, name) in zip(lists, ["left", "right"]) {
                    let url = directory.appendingPathComponent(name).appendingPathComponent("list.json")
                    let object = (try? Data(contentsOf: url)).flatMap { try? JSONSerialization.jsonObject(with: $0) }
                    let file = object as? [String: Any] ?? [:]
                    let ids = (file["elements"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
                    if ids != list.elements.map(\.id) {
                        return "\(name)'s file holds \(ids), the list \(list.elements.map(\.id))"
                    }
                    let marks = [file["pending"], file["outgoing"]].compactMap { $0 as? [String: Any] }
                    if marks.count != 2 || marks.contains(where: { !$0.isEmpty }) {
                        return "\(name)'s file still marks a move: \(marks)"
                    }
                }
            }
            let all = lists.flatMap { $0.elements.map(\.id) } + elsewhere
            if Set(all).count != all.count {
                return "an identity is twice: \(lists.map { $0.elements.map(\.id) })"
            }
            if Set(all) != expected {
                return "holds \(Set(all).sorted()), expected \(expected.sorted())"
            }
            return nil
        }
    }

    private enum Ending: CaseIterable {
        case moveSameApplication, moveElsewhere, copy, cancel, cancelTask, refusedMove
        /// The drop comes from another process over the session socket.
        case acrossProcesses
    }

    /// Publishes `session` on a fresh socket and connects to it as this application in another process.
    private func remote(_ session: DragSession) async throws -> (RemoteDragSession, DragSessionPublication, URL) {
        let (path, directory) = try socketPath()
        let publication = try DragSessionPublication(unhurriedPublishing: session, atPath: path)
        return (
            try await RemoteDragSession.connectUnhurried(toPath: path, origin: sameApplicationElsewhere),
            publication, directory
        )
    }

    /// One random drag and its ending; updates the expected identities.
    private func step(_ world: World, _ generator: inout SplitMix64, endings: [Ending]) async throws {
        let from = world.lists[Int.random(in: 0...1, using: &generator)]
        let to = world.lists[Int.random(in: 0...1, using: &generator)]
        let available = from.elements.filter { $0.title != "pinned" }
        guard !available.isEmpty else {
            return
        }
        let picked = Array(available.shuffled(using: &generator).prefix(Int.random(in: 1...3, using: &generator)))
        guard
            let session = try? from.beginDrag(
                picked.map(\.id), allowsMoveToOtherApplications: Bool.random(using: &generator))
        else {
            return
        }
        // Edits while the drag is in flight: delete a picked row, add a row, or shuffle.
        switch Int.random(in: 0..<6, using: &generator) {
        case 0:
            let victim = picked[0].id
            try from.edit { $0.removeAll { $0.id == victim } }
            world.expected.remove(victim)
        case 1:
            world.next += 1
            let added = Row(id: "n\(world.next)", title: "plain")
            try to.edit { $0.insert(added, at: 0) }
            world.expected.insert(added.id)
        case 2:
            var order = generator
            try from.edit { list in
                let pin = list.firstIndex { $0.title == "pinned" }
                let rest = list.filter { $0.title != "pinned" }.shuffled(using: &order)
                list = rest
                if let pin { list.insert(Row(id: "pin", title: "pinned"), at: min(pin, list.count)) }
            }
            generator = order
        default:
            break
        }
        let index = Int.random(in: 0...(to.elements.count + 1), using: &generator)
        switch endings.randomElement(using: &generator) ?? .cancel {
        case .moveSameApplication:
            await world.tally { () async throws(TransferSessionError) in try await to.drop(session, at: index) }
        case .moveElsewhere:
            await world.tally { () async throws(TransferSessionError) in
                try await session.drop(DropProposal(operation: .move), on: Self.elsewhere) { drop, operation in
                    let rows = try await drop.loadObjects(ofClass: Row.self)
                    // The other application commits: it holds a move's rows, or copies of them.
                    for row in rows where operation == .move {
                        world.elsewhere.append(row.id)
                    }
                }
            }
        case .copy:
            await world.tally { () async throws(TransferSessionError) in
                let result = try await to.drop(session, at: index, operation: .copy)
                for case .insert(_, let row, _) in result.value?.insertions ?? [] {
                    world.expected.insert(row.id)
                }
                return result
            }
        case .cancel:
            await session.cancel()
        case .cancelTask:
            let task = Task { try await to.drop(session, at: index) }
            task.cancel()
            await world.tally { () async throws(TransferSessionError) in
                do {
                    return try await task.value
                } catch let error as TransferSessionError {
                    throw error
                } catch {
                    throw TransferSessionError(code: .commitFailed, message: "unexpected \(error)")
                }
            }
        case .refusedMove:
            await world.tally { () async throws(TransferSessionError) in
                try await session.drop(DropProposal(operation: .move)) { _, _ in throw URLError(.cancelled) }
            }
        case .acrossProcesses:
            guard let (remote, publication, directory) = try? await remote(session) else {
                Issue.record("the session could not be published")
                return
            }
            defer {
                publication.close()
                try? FileManager.default.removeItem(at: directory)
            }
            switch Int.random(in: 0..<3, using: &generator) {
            case 0:
                await world.tally { () async throws(TransferSessionError) in try await to.drop(remote, at: index) }
            case 1:
                await world.tally { () async throws(TransferSessionError) in
                    let result = try await to.drop(remote, at: index, operation: .copy)
                    for case .insert(_, let row, _) in result.value?.insertions ?? [] {
                        world.expected.insert(row.id)
                    }
                    return result
                }
            default:
                // The destination process goes away during its commit.
                await world.tally { () async throws(TransferSessionError) in
                    try await remote.drop(DropProposal(operation: .move)) { _, _ in
                        remote.close()
                        try await Task.sleep(for: .milliseconds(1))
                    }
                }
            }
            // Every drop ends its session, failed or not: a session that did not end holds this wait until the
            // suite's time limit cancels it, which fails the test.
            _ = await session.ended()
        }
    }

    @Test("500 random steps for each of 8 seeds keep every item in exactly one list", arguments: UInt64(1)...8)
    func randomSequences(seed: UInt64) async throws {
        let world = try World()
        var generator = SplitMix64(state: seed)
        for number in 0..<500 {
            try await step(world, &generator, endings: Ending.allCases)
            if let breach = world.breach() {
                Issue.record("seed \(seed), step \(number): \(breach)")
                return
            }
        }
        // Every kind of ending happened: moves, copies, cancels, and each failure.
        for outcome in ["move", "copy", "cancel", "cancelled", "commitFailed", "itemsUnavailable"] {
            #expect(world.outcomes[outcome, default: 0] > 0, "seed \(seed): \(world.outcomes)")
        }
    }

    @Test(
        "300 random steps across processes for each of 6 seeds keep every item in exactly one list",
        arguments: UInt64(11)...16)
    func randomSequencesAcrossProcesses(seed: UInt64) async throws {
        let world = try World()
        var generator = SplitMix64(state: seed)
        for number in 0..<300 {
            try await step(world, &generator, endings: [.acrossProcesses, .acrossProcesses, .acrossProcesses, .cancel])
            if let breach = world.breach() {
                Issue.record("seed \(seed), step \(number): \(breach)")
                return
            }
        }
        // Moves, copies and each failure happened across the socket.
        for outcome in ["move", "copy", "disconnected", "forbiddenByList"] {
            #expect(world.outcomes[outcome, default: 0] > 0, "seed \(seed): \(world.outcomes)")
        }
    }

    @Test(
        "stored lists: random steps in one process and across keep every item in one list and the files in step",
        arguments: UInt64(21)...23)
    func randomSequencesOfStoredLists(seed: UInt64) async throws {
        let directory = try makeTemporaryDirectory(prefix: "tk-stored-moves")
        defer { try? FileManager.default.removeItem(at: directory) }
        var seen: [String] = []
        do {
            let world = try World(storedIn: directory)
            var generator = SplitMix64(state: seed)
            for number in 0..<150 {
                try await step(world, &generator, endings: Ending.allCases + [.acrossProcesses, .acrossProcesses])
                if let breach = world.breach() {
                    Issue.record("seed \(seed), step \(number): \(breach)")
                    return
                }
            }
            for outcome in ["move", "copy", "cancel", "commitFailed"] {
                #expect(world.outcomes[outcome, default: 0] > 0, "seed \(seed): \(world.outcomes)")
            }
            seen = world.lists.flatMap { $0.elements.map(\.id) }
        }
        // Opened again (copies: a drag the steps left undropped may still hold a list open), they are as they were.
        let record = try SessionDecisionRecord(directory: directory.appendingPathComponent("record"))
        let reopened = try ["left", "right"].flatMap { name in
            let copy = directory.appendingPathComponent("reopened-" + name)
            try FileManager.default.copyItem(at: directory.appendingPathComponent(name), to: copy)
            return try TransferList<Row>(storedIn: copy, decisions: record).elements
        }
        #expect(reopened.map(\.id) == seen)
    }

    @Test("drops of the same rows at the same time move each row once", arguments: UInt64(1)...4)
    func concurrentDrops(seed: UInt64) async throws {
        var generator = SplitMix64(state: seed)
        for _ in 0..<100 {
            let world = try World()
            let ids = world.lists[0].elements.filter { $0.title == "plain" }.map(\.id)
            let sessions = try (0..<4).map { _ in
                try world.lists[0].beginDrag(Array(ids.shuffled(using: &generator).prefix(2)))
            }
            let targets = (0..<4).map { _ in Int.random(in: 0...1, using: &generator) }
            await withTaskGroup(of: Void.self) { group in
                for (session, target) in zip(sessions, targets) {
                    let list = world.lists[target]
                    group.addTask { _ = try? await list.drop(session, at: 0) }
                }
            }
            #expect(world.breach() == nil)
        }
    }
}
