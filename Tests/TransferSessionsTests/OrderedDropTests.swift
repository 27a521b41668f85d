import Testing
import TransferSessions
import TransferSessionsTestSupport

private func rows(_ ids: [String]) -> [Row] {
    ids.map { Row(id: $0, title: $0) }
}

@Suite("Ordered-list edits of drops", .timeLimit(.minutes(5)))
struct OrderedDropTests {
    @Test(
        "moving by identity takes UIKit's index: where the first moved element is after the move",
        arguments: [
            (["b"], 0, ["b", "a", "c", "d"]),
            (["b"], 2, ["a", "c", "b", "d"]),
            (["b"], 3, ["a", "c", "d", "b"]),
            (["a", "c"], 2, ["b", "d", "a", "c"]),
            (["a", "c"], 3, ["b", "d", "a", "c"]),
            (["d", "a"], 1, ["b", "a", "d", "c"]),
            (["c"], 99, ["a", "b", "d", "c"]),
            (["c"], -5, ["c", "a", "b", "d"]),
            (["gone"], 1, ["a", "b", "c", "d"]),
        ])
    func moveByIdentity(ids: [String], index: Int, expected: [String]) {
        let before = rows(["a", "b", "c", "d"])
        var list = before
        let change = list.moveElements(withIDs: ids, toIndex: index)
        #expect(list.map(\.id) == expected)
        #expect(before.applying(change)?.map(\.id) == expected)
        // Moves are inferred: every removal is matched with an insertion.
        #expect(change.removals.allSatisfy { if case .remove(_, _, let other) = $0 { other != nil } else { false } })
    }

    @Test("a move in a category tab lands next to the tab's neighbours in the whole list, order renumbered (seed 002)")
    func filteredView() {
        // Whole list: novels n1 n2 n3 interleaved with comics c1 c2.
        var shelf = rows(["n1", "c1", "n2", "c2", "n3"])
        let isNovel: (Row) -> Bool = { $0.id.hasPrefix("n") }
        // In the novels tab (n1 n2 n3), drag n3 to position 0.
        let change = shelf.moveElements(withIDs: ["n3"], toIndex: 0, inViewWhere: isNovel)
        #expect(shelf.map(\.id) == ["n3", "n1", "c1", "n2", "c2"])
        #expect(shelf.filter(isNovel).map(\.id) == ["n3", "n1", "n2"])
        #expect(shelf.filter { !isNovel($0) }.map(\.id) == ["c1", "c2"])
        #expect(rows(["n1", "c1", "n2", "c2", "n3"]).applying(change)?.map(\.id) == shelf.map(\.id))
        // To the tab's end (its last position after the move): after the last novel, not after the last element.
        shelf.moveElements(withIDs: ["n1"], toIndex: 2, inViewWhere: isNovel)
        #expect(shelf.map(\.id) == ["n3", "c1", "n2", "n1", "c2"])
        shelf.renumber(\.order, from: 1)
        #expect(shelf.map(\.order) == [1, 2, 3, 4, 5])
    }

    @Test("several rows moved in a category tab land together, the first at the tab's index")
    func filteredViewSeveral() {
        let before = rows(["n1", "c1", "n2", "c2", "n3"])
        let isNovel: (Row) -> Bool = { $0.id.hasPrefix("n") }
        var shelf = before
        // Novels tab n1 n2 n3: n1 and n3 to row 1, below n2; the comics keep their order.
        let change = shelf.moveElements(withIDs: ["n3", "n1"], toIndex: 1, inViewWhere: isNovel)
        #expect(shelf.filter(isNovel).map(\.id) == ["n2", "n1", "n3"])
        #expect(shelf.map(\.id) == ["c1", "n2", "n1", "n3", "c2"])
        #expect(before.applying(change)?.map(\.id) == shelf.map(\.id))
        // Dropped where they already are (row 0 of the tab): nothing else moves past them.
        shelf = before
        shelf.moveElements(withIDs: ["n1"], toIndex: 0, inViewWhere: isNovel)
        #expect(shelf.map(\.id) == before.map(\.id))
        // An index past the tab's end is its end; unknown identities change nothing.
        shelf.moveElements(withIDs: ["n1"], toIndex: 99, inViewWhere: isNovel)
        #expect(shelf.map(\.id) == ["c1", "n2", "c2", "n3", "n1"])
        #expect(shelf.moveElements(withIDs: ["gone"], toIndex: 0, inViewWhere: isNovel).isEmpty)
    }

    @Test(
        "an insertion in a category tab goes before the tab's row at the index, at the list's end past the tab's end",
        arguments: [
            (0, ["x", "n1", "c1", "n2", "c2", "n3", "c3"]),
            (1, ["n1", "c1", "x", "n2", "c2", "n3", "c3"]),
            (2, ["n1", "c1", "n2", "c2", "x", "n3", "c3"]),
            (3, ["n1", "c1", "n2", "c2", "n3", "c3", "x"]),
            (99, ["n1", "c1", "n2", "c2", "n3", "c3", "x"]),
            (-2, ["x", "n1", "c1", "n2", "c2", "n3", "c3"]),
        ])
    func insertionInFilteredView(index: Int, expected: [String]) {
        let before = rows(["n1", "c1", "n2", "c2", "n3", "c3"])
        var shelf = before
        let change = shelf.insertElements(rows(["x"]), at: index, inViewWhere: { !$0.id.hasPrefix("c") })
        #expect(shelf.map(\.id) == expected)
        #expect(before.applying(change)?.map(\.id) == expected)
        // Unfiltered, the same call is the plain insertion.
        var whole = before
        whole.insertElements(rows(["x"]), at: 2, inViewWhere: { _ in true })
        var plain = before
        plain.insertElements(rows(["x"]), at: 2)
        #expect(whole.map(\.id) == plain.map(\.id))
    }

    @Test("an insertion into an empty view goes to the list's end")
    func insertionInEmptyView() {
        var shelf = rows(["c1", "c2"])
        shelf.insertElements(rows(["x", "y"]), at: 0, inViewWhere: { $0.id.hasPrefix("n") })
        #expect(shelf.map(\.id) == ["c1", "c2", "x", "y"])
    }

    @Test("the edit-mode move takes the final index, and refuses positions outside the list (seed 004)")
    func moveRow() throws {
        var list = rows(["a", "b", "c"])
        let change = list.moveRow(at: 0, to: 2)
        #expect(list.map(\.id) == ["b", "c", "a"])
        #expect(rows(["a", "b", "c"]).applying(try #require(change))?.map(\.id) == ["b", "c", "a"])
        #expect(list.moveRow(at: 3, to: 0) == nil)
        #expect(list.moveRow(at: 0, to: -1) == nil)
        #expect(list.map(\.id) == ["b", "c", "a"])
    }
}
