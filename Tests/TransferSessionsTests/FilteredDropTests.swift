import Foundation
import Testing
import TransferKit
import TransferSessions
import TransferSessionsTestSupport

/// Seed 002's shelf as the issue has it: `a b c d e f`, the family tab showing `a c d f`, each book's `order` stale
/// (99) so a renumbering shows.
private func shelf() -> [Row] {
    [("a", "family"), ("b", "friends"), ("c", "family"), ("d", "family"), ("e", "friends"), ("f", "family")].map {
        Row(id: $0, title: $1, order: 99)
    }
}

private let isFamily: @Sendable (Row) -> Bool = { $0.title == "family" }

private let copy: @Sendable (Row) -> Row = { Row(id: $0.id + "+", title: $0.title) }

/// The list's identities, and the family tab's.
private func ids(_ list: TransferList<Row>) -> (all: [String], family: [String]) {
    let elements = list.elements
    return (elements.map(\.id), elements.filter(isFamily).map(\.id))
}

/// Whether every element's `order` is its index in the whole list.
private func isNumbered(_ list: TransferList<Row>) -> Bool {
    list.elements.enumerated().allSatisfy { $1.order == $0 }
}

@Suite("Drops and proposals in a filtered view of a TransferList (seed 002's category tabs)", .timeLimit(.minutes(5)))
struct FilteredDropTests {
    @Test("the issue's case: a to row 2 of the family tab gives c d a f, as UIKit, renumbered in the whole list")
    func reorderInTab() async throws {
        let books = TransferList(shelf(), makeProvider: Row.provider, renumbering: \.order)
        var changes = books.changes().makeAsyncIterator()
        let session = try books.beginDrag(["a"])
        let proposal = books.proposal(for: session, at: 2, inViewWhere: isFamily)
        #expect(proposal.operation == .move && proposal.intent == .insertAtIndex(2))
        let result = try await books.drop(session, at: 2, inViewWhere: isFamily)
        #expect(result.operation == .move)
        #expect(ids(books).family == ["c", "d", "a", "f"])
        #expect(ids(books).all == ["b", "c", "d", "a", "e", "f"])
        #expect(isNumbered(books))
        // The change reported on the list is the one the drop returned, and it turns the old list into the new one.
        let change = try #require(await changes.next())
        #expect(change.cause == .dropped(session.id))
        #expect(shelf().applying(try #require(result.value))?.map(\.id) == ids(books).all)
        #expect(change.difference == result.value)
    }

    @Test("a main-actor view controller drops in the tab it shows with a closure literal")
    @MainActor func mainActorCaller() async throws {
        final class ShelfController {
            let books = TransferList(shelf(), makeProvider: Row.provider)
            var tab = "family"

            func drop(_ ids: [String], atRow row: Int) async throws {
                let tab = self.tab
                let session = try books.beginDrag(ids)
                _ = books.proposal(for: session, at: row, inViewWhere: { $0.title == self.tab })
                _ = try await books.drop(session, at: row, inViewWhere: { $0.title == tab })
            }
        }
        let controller = ShelfController()
        try await controller.drop(["a"], atRow: 2)
        #expect(ids(controller.books).family == ["c", "d", "a", "f"])
    }

    @Test(
        "a move from another list lands before the tab's row at the index, at the list's end past the tab's end",
        arguments: [
            (0, ["x", "a", "b", "c", "d", "e", "f"]),
            (1, ["a", "b", "x", "c", "d", "e", "f"]),
            (3, ["a", "b", "c", "d", "e", "x", "f"]),
            (4, ["a", "b", "c", "d", "e", "f", "x"]),
            (99, ["a", "b", "c", "d", "e", "f", "x"]),
            (-1, ["x", "a", "b", "c", "d", "e", "f"]),
        ])
    func moveIntoTab(index: Int, expected: [String]) async throws {
        let books = TransferList(shelf(), makeProvider: Row.provider, renumbering: \.order)
        let other = TransferList([Row(id: "x", title: "family")], makeProvider: Row.provider)
        let session = try other.beginDrag(["x"])
        #expect(books.proposal(for: session, at: index, inViewWhere: isFamily).operation == .move)
        let result = try await books.drop(session, at: index, inViewWhere: isFamily)
        #expect(result.operation == .move)
        #expect(ids(books).all == expected)
        let row = min(max(index, 0), 4)
        #expect(ids(books).family.firstIndex(of: "x") == row)
        #expect(isNumbered(books))
        #expect(other.elements.isEmpty)
    }

    @Test("a copy from the list itself into another tab's view goes by that view's rows")
    func copyIntoTab() async throws {
        let books = TransferList(shelf(), makeCopy: copy, makeProvider: Row.provider, renumbering: \.order)
        // From the All tab, copy e (friends) onto row 1 of the friends tab (b e): before e.
        let isFriend: @Sendable (Row) -> Bool = { $0.title == "friends" }
        let session = try books.beginDrag(["e"])
        let result = try await books.drop(session, at: 1, inViewWhere: isFriend, operation: .copy)
        #expect(result.operation == .copy)
        #expect(ids(books).all == ["a", "b", "c", "d", "e+", "e", "f"])
        #expect(books.elements.filter(isFriend).map(\.id) == ["b", "e+", "e"])
        #expect(isNumbered(books))
    }

    @Test("a drop from another process lands by the tab's rows too")
    func remoteIntoTab() async throws {
        let (path, directory) = try socketPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = TransferList([Row(id: "x", title: "family")], makeProvider: Row.provider)
        let books = TransferList(shelf(), makeProvider: Row.provider, renumbering: \.order)
        let session = try source.beginDrag(["x"])
        let publication = try DragSessionPublication(unhurriedPublishing: session, atPath: path)
        defer { publication.close() }
        let remote = try await RemoteDragSession.connectUnhurried(
            toPath: path, origin: sameApplicationElsewhere)
        let result = try await books.drop(remote, at: 2, inViewWhere: isFamily)
        #expect(result.operation == .move)
        #expect(await session.ended() == .move)
        #expect(ids(books).family == ["a", "c", "x", "d", "f"])
        #expect(ids(books).all == ["a", "b", "c", "x", "d", "e", "f"])
        #expect(isNumbered(books))
        #expect(source.elements.isEmpty)
    }

    @Test("a pinned element the tab hides: refused where the drop would shift it, allowed past it")
    func pinnedHiddenElement() async throws {
        // All: a b P, P pinned and not in the tab (a b).
        let rows = [Row(id: "a", title: "tab"), Row(id: "b", title: "tab"), Row(id: "P", title: "pinned")]
        let inTab: @Sendable (Row) -> Bool = { $0.title == "tab" }
        let list = TransferList(rows, isPinned: { $0.id == "P" }, makeProvider: Row.provider)
        let other = TransferList([Row(id: "x", title: "tab")], makeProvider: Row.provider)
        let incoming = try other.beginDrag(["x"])
        #expect(list.proposal(for: incoming, at: 0, inViewWhere: inTab).operation == .forbidden)
        // The tab's end is the list's end, past P; in the whole list, index 2 would be before P.
        #expect(list.proposal(for: incoming, at: 2, inViewWhere: inTab).operation == .move)
        #expect(list.proposal(for: incoming, at: 2).operation == .forbidden)
        let refused = await #expect(throws: TransferSessionError.self) {
            try await list.drop(incoming, at: 0, inViewWhere: inTab)
        }
        #expect(refused?.code == .forbiddenByList)
        #expect(list.elements.map(\.id) == ["a", "b", "P"])
        #expect(other.elements.map(\.id) == ["x"])
        _ = try await list.drop(try other.beginDrag(["x"]), at: 2, inViewWhere: inTab)
        #expect(list.elements.map(\.id) == ["a", "b", "P", "x"])
    }

    @Test("a reorder in a tab that would shift a pinned element the tab shows is refused; others go by the tab")
    func pinnedShownElement() async throws {
        // All: P h a b, P pinned and shown, h hidden; the tab shows P a b.
        let rows = [
            Row(id: "P", title: "tab"), Row(id: "h", title: "hidden"), Row(id: "a", title: "tab"),
            Row(id: "b", title: "tab"),
        ]
        let inTab: @Sendable (Row) -> Bool = { $0.title == "tab" }
        let list = TransferList(rows, isPinned: { $0.id == "P" }, makeProvider: Row.provider)
        let session = try list.beginDrag(["b"])
        #expect(list.proposal(for: session, at: 0, inViewWhere: inTab).operation == .forbidden)
        #expect(list.proposal(for: session, at: 1, inViewWhere: inTab).operation == .move)
        let refused = await #expect(throws: TransferSessionError.self) {
            try await list.drop(session, at: 0, inViewWhere: inTab)
        }
        #expect(refused?.code == .forbiddenByList)
        #expect(list.elements.map(\.id) == ["P", "h", "a", "b"])
        // Row 1 of the tab is before a; h, which the tab hides, stays before it (the whole list's 1 is before h).
        _ = try await list.drop(try list.beginDrag(["b"]), at: 1, inViewWhere: inTab)
        #expect(list.elements.map(\.id) == ["P", "h", "b", "a"])
    }
}
