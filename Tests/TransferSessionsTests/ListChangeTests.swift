import Foundation
import Testing
import TransferKit
import TransferSessions
import TransferSessionsTestSupport

private func rowList(_ ids: String...) -> TransferList<Row> {
    TransferList(ids.map { Row(id: $0, title: "row \($0)") }, makeProvider: Row.provider)
}

/// The offsets a difference removes and inserts at.
private func offsets(_ difference: CollectionDifference<Row>) -> (removed: [Int], inserted: [Int]) {
    (difference.removals.map(\.offset), difference.insertions.map(\.offset))
}

extension CollectionDifference.Change {
    fileprivate var offset: Int {
        switch self {
        case .insert(let offset, _, _), .remove(let offset, _, _): offset
        }
    }
}

@Suite("Both sides' changes: each list reports its own", .timeLimit(.minutes(5)))
struct ListChangeTests {
    @Test("a move in one process: the destination reports the insertion, the source the removal")
    func moveInOneProcess() async throws {
        let (left, right) = (rowList("a", "b", "c"), rowList("x"))
        var leftChanges = left.changes().makeAsyncIterator()
        var rightChanges = right.changes().makeAsyncIterator()
        let session = try left.beginDrag(["b"])
        let result = try await right.drop(session, at: 0)

        let removal = try #require(await leftChanges.next())
        #expect(removal.cause == .movedAway(session.id))
        #expect(offsets(removal.difference) == ([1], []))
        #expect(removal.elements.map(\.id) == ["a", "c"])
        let insertion = try #require(await rightChanges.next())
        #expect(insertion.cause == .dropped(session.id))
        #expect(insertion.difference == result.value)
        #expect(offsets(insertion.difference) == ([], [0]))
    }

    @Test("a move to another process: the source's list reports its removal when the other process commits")
    func moveAcrossProcesses() async throws {
        let (path, directory) = try socketPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (left, right) = (rowList("a", "b", "c"), rowList("x"))
        var leftChanges = left.changes().makeAsyncIterator()
        var rightChanges = right.changes().makeAsyncIterator()
        let session = try left.beginDrag(["b"])
        let publication = try DragSessionPublication(unhurriedPublishing: session, atPath: path)
        defer { publication.close() }
        let remote = try await RemoteDragSession.connectUnhurried(
            toPath: path, origin: sameApplicationElsewhere)
        let result = try await right.drop(remote, at: 1)
        #expect(result.operation == .move)
        #expect(await publication.ended() == .move)

        let removal = try #require(await leftChanges.next())
        #expect(removal.cause == .movedAway(session.id))
        #expect(offsets(removal.difference) == ([1], []))
        let insertion = try #require(await rightChanges.next())
        #expect(insertion.cause == .dropped(session.id))
        #expect(offsets(insertion.difference) == ([], [1]))
        #expect(insertion.elements.map(\.id) == ["x", "b"])
    }

    @Test("edits and reorders are reported in order; an edit that changes nothing is not")
    func editsAndReorders() async throws {
        let list = rowList("a", "b", "c")
        var changes = list.changes().makeAsyncIterator()
        try list.edit { $0.append(Row(id: "d", title: "row d")) }
        try list.edit { _ in }
        let session = try list.beginDrag(["c"])
        _ = try await list.drop(session, at: 0)
        try list.edit { $0.removeAll { $0.id == "a" } }

        let appended = try #require(await changes.next())
        #expect(appended.cause == .edited && offsets(appended.difference) == ([], [3]))
        let reordered = try #require(await changes.next())
        #expect(reordered.cause == .dropped(session.id))
        #expect(reordered.elements.map(\.id) == ["c", "a", "b", "d"])
        #expect(reordered.difference.inferringMoves() == reordered.difference)
        let removed = try #require(await changes.next())
        #expect(removed.cause == .edited && offsets(removed.difference) == ([1], []))
    }

    @Test("elementsAndChanges: the elements and every later change, so applying them gives the list")
    func elementsThenChanges() async throws {
        let (left, right) = (rowList("a", "b"), rowList("x", "y"))
        var (shown, stream) = right.elementsAndChanges()
        var changes = stream.makeAsyncIterator()
        _ = try await right.drop(try left.beginDrag(["a"]), at: 1)
        try right.edit { $0.removeAll { $0.id == "x" } }
        for _ in 0..<2 {
            let change = try #require(await changes.next())
            shown = try #require(shown.applying(change.difference))
        }
        #expect(shown.map(\.id) == right.elements.map(\.id))
        #expect(shown.map(\.id) == ["a", "y"])
    }

    @Test("a stream of changes ends when its list is gone")
    func streamEndsWithTheList() async {
        var stream: AsyncStream<TransferList<Row>.Change>?
        do {
            let list = rowList("a")
            stream = list.changes()
        }
        var changes = stream?.makeAsyncIterator()
        #expect(await changes?.next() == nil)
    }
}
