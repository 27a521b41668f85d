import Foundation
import Testing
import TransferKit
import TransferKitTestSupport
import TransferSessions
import TransferSessionsTestSupport

/// A fresh folder for a test's stored lists, with a decision record of its own in it.
private struct Folder {
    let url: URL
    let record: SessionDecisionRecord

    init() throws {
        url = try makeTemporaryDirectory(prefix: "tk-stored")
        record = try SessionDecisionRecord(directory: url.appendingPathComponent("record"))
    }

    func list(_ name: String, _ ids: String...) throws(TransferSessionError) -> TransferList<Row> {
        try TransferList(
            storedIn: url.appendingPathComponent(name), initialElements: ids.map { Row(id: $0, title: "row \($0)") },
            decisions: record, makeProvider: Row.provider)
    }

    /// The identities and marks in a list's file, as another program reads it.
    func file(_ name: String) throws -> (ids: [String], pending: [String: [String]], outgoing: [String: [String]]) {
        let data = try Data(contentsOf: url.appendingPathComponent(name).appendingPathComponent("list.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["format"] as? String == "org.transferkit.list" && object["version"] as? Int == 1)
        let elements = object["elements"] as? [[String: Any]] ?? []
        return (
            elements.compactMap { $0["id"] as? String }, object["pending"] as? [String: [String]] ?? [:],
            object["outgoing"] as? [String: [String]] ?? [:]
        )
    }

    func write(_ name: String, _ text: String) throws {
        let directory = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: directory.appendingPathComponent("list.json"))
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

@Suite(
    "Stored lists: durable changes, exactly-once moves with no app code, settled when opened", .timeLimit(.minutes(5)))
struct StoredListTests {
    @Test("a stored list is opened as it was left: edits and drops are written at once")
    func keepsItsChanges() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        do {
            let list = try folder.list("L", "a", "b")
            try list.edit { $0.append(Row(id: "c", title: "row c")) }
            let other = TransferList([Row(id: "x", title: "row x")], makeProvider: Row.provider)
            _ = try await list.drop(try other.beginDrag(["x"]), at: 0)
            #expect(try folder.file("L").ids == ["x", "a", "b", "c"])
        }
        let reopened = try folder.list("L", "ignored")
        #expect(reopened.elements.map(\.id) == ["x", "a", "b", "c"])
        #expect(reopened.decisions?.directory == folder.record.directory)
    }

    @Test("a stored list keeps an order field renumbered, and new initial elements must have distinct identities")
    func renumberingAndInitialIdentities() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let rows = ["a", "b"].map { Row(id: $0, title: "row \($0)", order: 9) }
        let list = try TransferList(
            storedIn: folder.url.appendingPathComponent("L"), initialElements: rows, decisions: folder.record,
            renumbering: \.order)
        try list.edit { $0.insert(Row(id: "c", title: "row c", order: -1), at: 0) }
        #expect(list.elements.map { "\($0.id)\($0.order)" } == ["c0", "a1", "b2"])
        let error = #expect(throws: TransferSessionError.self) {
            try TransferList(
                storedIn: folder.url.appendingPathComponent("M"), initialElements: rows + rows.prefix(1),
                decisions: folder.record)
        }
        #expect(error?.code == .forbiddenByList)
    }

    @Test("one open list per directory: a second one is storeUnavailable until the first is gone")
    func oneOpenListPerDirectory() throws {
        let folder = try Folder()
        defer { folder.remove() }
        do {
            let first = try folder.list("L", "a")
            let error = #expect(throws: TransferSessionError.self) { try folder.list("L") }
            #expect(error?.code == .storeUnavailable)
            _ = first
        }
        #expect(try folder.list("L").elements.map(\.id) == ["a"])
    }

    @Test("a change a stored list cannot write is not made: edit throws storeUnavailable and reports nothing")
    func unwritableChange() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let list = try folder.list("L", "a")
        var changes = list.changes().makeAsyncIterator()
        // The directory goes away under the open list: nothing can be written there any more.
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("L"))
        let error = #expect(throws: TransferSessionError.self) {
            try list.edit { $0.append(Row(id: "b", title: "row b")) }
        }
        #expect(error?.code == .storeUnavailable)
        #expect(list.elements.map(\.id) == ["a"])
        // A drop that cannot be written fails the same way, and its source keeps the row.
        let other = TransferList([Row(id: "x", title: "row x")], makeProvider: Row.provider)
        let dropError = await #expect(throws: TransferSessionError.self) {
            try await list.drop(try other.beginDrag(["x"]), at: 0)
        }
        #expect(dropError?.code == .storeUnavailable)
        #expect(list.elements.map(\.id) == ["a"] && other.elements.map(\.id) == ["x"])
        // Once it can write again, the next change reported is the next one made: the failed ones never were.
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("L"), withIntermediateDirectories: true)
        try list.edit { $0.append(Row(id: "c", title: "row c")) }
        let next = try #require(await changes.next())
        #expect(next.cause == .edited && next.elements.map(\.id) == ["a", "c"])
        #expect(try folder.file("L").ids == ["a", "c"])
    }

    static let damaged: [(String, String)] = [
        ("empty", ""),
        ("truncated", #"{"elements":[{"id":"a","order":0,"title":"row a"}],"format":"org.transferkit.li"#),
        ("not JSON", "list: a, b"),
        ("another shape", #"{"cards":[]}"#),
        (
            "a newer version",
            #"{"elements":[],"format":"org.transferkit.list","outgoing":{},"pending":{},"version":2}"#
        ),
        ("another format", #"{"elements":[],"format":"com.example.other","outgoing":{},"pending":{},"version":1}"#),
        (
            "an element that does not decode",
            #"{"elements":[{"id":1}],"format":"org.transferkit.list","outgoing":{},"pending":{},"version":1}"#
        ),
        (
            "an identity twice",
            #"{"elements":[{"id":"a","order":0,"title":"t"},{"id":"a","order":0,"title":"t"}],"#
                + #""format":"org.transferkit.list","outgoing":{},"pending":{},"version":1}"#
        ),
    ]

    @Test("a damaged store is storeCorrupted, and is left as it was", arguments: damaged)
    func damagedStore(what: String, text: String) throws {
        let folder = try Folder()
        defer { folder.remove() }
        try folder.write("L", text)
        let error = #expect(throws: TransferSessionError.self, "\(what)") { try folder.list("L", "a") }
        #expect(error?.code == .storeCorrupted)
        let left = try String(contentsOf: folder.url.appendingPathComponent("L/list.json"), encoding: .utf8)
        #expect(left == text)
    }

    @Test("a list file that is a directory is storeCorrupted")
    func listFileIsADirectory() throws {
        let folder = try Folder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("L/list.json"), withIntermediateDirectories: true)
        let error = #expect(throws: TransferSessionError.self) { try folder.list("L") }
        #expect(error?.code == .storeCorrupted)
    }

    @Test("opening settles what a crash left: moves out by their decision, moves in likewise, undecided ones aborted")
    func settlesWhenOpened() throws {
        let folder = try Folder()
        defer { folder.remove() }
        func row(_ id: String) -> String { #"{"id":"\#(id)","order":0,"title":"row \#(id)"}"# }
        try folder.write(
            "L",
            #"{"elements":[\#(["a", "b", "x", "y", "z"].map(row).joined(separator: ","))],"#
                + #""format":"org.transferkit.list","version":1,"#
                + #""outgoing":{"S1":["a"],"S2":["b"]},"pending":{"S3":["x"],"S4":["y"],"S5":["z"]}}"#)
        let decided: [(String, SessionDecisionRecord.Outcome, String)] = [
            ("S1", .committed, "a"), ("S3", .aborted, "x"), ("S4", .committed, "y"),
        ]
        for (session, outcome, item) in decided {
            try folder.record.decide(outcome, for: DragSession.ID(rawValue: session), items: [TransferItemID(item)])
        }
        let list = try folder.list("L")
        // a left with a committed move, b stays (nobody decided: aborted now), x's move was aborted, y's committed,
        // z's undecided (aborted now).
        #expect(list.elements.map(\.id) == ["b", "y"])
        #expect(try folder.record.decision(for: DragSession.ID(rawValue: "S2"))?.outcome == .aborted)
        #expect(try folder.record.decision(for: DragSession.ID(rawValue: "S5"))?.outcome == .aborted)
        let file = try folder.file("L")
        #expect(file.ids == ["b", "y"] && file.pending.isEmpty && file.outgoing.isEmpty)
    }

    @Test("a move across processes between stored lists needs nothing but the lists: the record decides it")
    func moveAcrossProcesses() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let (path, socketDirectory) = try socketPath()
        defer { try? FileManager.default.removeItem(at: socketDirectory) }
        let (left, right) = (try folder.list("A", "a", "b", "c"), try folder.list("B", "x"))
        var leftChanges = left.changes().makeAsyncIterator()
        let session = try left.beginDrag(["b"])
        let publication = try DragSessionPublication(unhurriedPublishing: session, atPath: path)
        defer { publication.close() }
        #expect(publication.decisions?.directory == folder.record.directory)
        let remote = try await RemoteDragSession.connectUnhurried(
            toPath: path, origin: sameApplicationElsewhere)
        let result = try await right.drop(remote, at: 0)
        #expect(result.operation == .move)
        #expect(await publication.ended() == .move)
        #expect(try folder.record.decision(for: session.id)?.outcome == .committed)
        #expect(try #require(await leftChanges.next()).cause == .movedAway(session.id))
        let (a, b) = (try folder.file("A"), try folder.file("B"))
        #expect(a.ids == ["a", "c"] && a.outgoing.isEmpty)
        #expect(b.ids == ["b", "x"] && b.pending.isEmpty)
    }

    @Test("a move the record says was aborted: the destination takes the items back, the source keeps them")
    func abortedMoveIsUndone() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let (path, socketDirectory) = try socketPath()
        defer { try? FileManager.default.removeItem(at: socketDirectory) }
        let (left, right) = (try folder.list("A", "a", "b"), try folder.list("B", "x"))
        var rightChanges = right.changes().makeAsyncIterator()
        let session = try left.beginDrag(["b"])
        // The source gave the move up first (it lost its destination, as far as it knew).
        try folder.record.decide(.aborted, for: session.id, items: ["b"])
        let publication = try DragSessionPublication(unhurriedPublishing: session, atPath: path)
        defer { publication.close() }
        let remote = try await RemoteDragSession.connectUnhurried(
            toPath: path, origin: sameApplicationElsewhere)
        let error = await #expect(throws: TransferSessionError.self) { try await right.drop(remote, at: 0) }
        #expect(error?.code == .commitFailed)
        #expect(await publication.ended() == .cancel)
        #expect(try #require(await rightChanges.next()).cause == .dropped(session.id))
        #expect(try #require(await rightChanges.next()).cause == .undone(session.id))
        #expect(right.elements.map(\.id) == ["x"] && left.elements.map(\.id) == ["a", "b"])
        let (a, b) = (try folder.file("A"), try folder.file("B"))
        #expect(a.ids == ["a", "b"] && a.outgoing.isEmpty)
        #expect(b.ids == ["x"] && b.pending.isEmpty)
    }

    @Test("a move between stored lists of one record in one process is decided there too")
    func moveInOneProcess() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let (left, right) = (try folder.list("A", "a", "b"), try folder.list("B"))
        let session = try left.beginDrag(["a"])
        let result = try await right.drop(session, at: 0)
        #expect(result.operation == .move)
        #expect(try folder.record.decision(for: session.id)?.outcome == .committed)
        #expect(try folder.file("A").ids == ["b"] && folder.file("B").ids == ["a"])
        #expect(try folder.file("A").outgoing.isEmpty && folder.file("B").pending.isEmpty)
    }

    @Test("the standard record is in the user's state directory, found from the environment alone")
    func standardRecordDirectory() {
        let cases: [([String: String], String?)] = [
            (["XDG_STATE_HOME": "/s", "HOME": "/h"], "/s/transferkit/session-decisions"),
            (["HOME": "/h"], "/h/.local/state/transferkit/session-decisions"),
            (["XDG_STATE_HOME": "relative", "HOME": "/h"], "/h/.local/state/transferkit/session-decisions"),
            ([:], nil),
        ]
        for (environment, expected) in cases {
            #expect(SessionDecisionRecord.standardDirectory(environment: environment)?.path == expected)
        }
    }
}
