import Testing
import TransferSessions
import TransferSessionsTestSupport

// The seeds' own reorder code, transcribed as oracles: each moves rows by removing at the source index and
// inserting at UIKit's destination index (the position after the move). The helpers and `TransferList` take the
// same index, so for every source and destination in lists of 1 to 6 rows they must give the same lists.

/// Seed 002's `HomeViewModel`: the whole shelf ("All") and the tab on screen, each cover carrying its position in
/// the whole shelf as `order`. The body of `dragAndDropBookCover` is the seed's final version (after its
/// troubleshooting section), with `Row` for `BookCover` and the category in `title`.
private struct HomeViewModel {
    private(set) var bookCovers = [Row]()
    private(set) var currentBookCovers = [Row]()

    /// The shelf, its covers numbered as the seed numbers them, showing `category` (`nil`: the "All" tab).
    init(_ covers: [Row], showing category: String?) {
        bookCovers = covers.enumerated().map { index, cover in
            var numbered = cover
            numbered.order = index
            return numbered
        }
        currentBookCovers = bookCovers.filter { category == nil || $0.title == category }
    }

    mutating func dragAndDropBookCover(from currentIndex: Int, to destinationIndex: Int) {
        let currentBookCover = currentBookCovers[currentIndex]
        let targetBookCover = currentBookCovers[destinationIndex]
        bookCovers.remove(at: currentBookCover.order)
        bookCovers.insert(currentBookCover, at: targetBookCover.order)
        currentBookCovers.remove(at: currentIndex)
        currentBookCovers.insert(currentBookCover, at: destinationIndex)
    }
}

/// Seed 003's `EditClipViewController`: item 0 of the collection view is the fixed "add" cell, the clips follow it
/// (`clipList.clips`, hence the seed's `- 1`).
private struct EditClipViewController {
    var clips: [Row]

    /// `itemsForBeginning`: the add cell gives no drag items.
    func canDrag(item: Int) -> Bool {
        item != 0
    }

    /// `dropSessionDidUpdate` (during the collection view's own drag).
    func proposal(destination: Int) -> DropOperation {
        destination != 0 ? .move : .forbidden
    }

    /// `performDropWith`.
    mutating func performDrop(source: Int, destination: Int) {
        if destination != 0 {
            let sourceItem = clips.remove(at: source - 1)
            clips.insert(sourceItem, at: destination - 1)
        }
    }
}

/// Seed 004's table `model`. The seed calls `moveItem(at:to:)` and `addItem(_:at:)` without listing them; its
/// controller is Apple's "Adopting drag and drop in a table view" sample, whose model has these bodies.
/// `performDrop` is the seed's `performDropWith` for a drop from another table (`addItem` at the destination row
/// plus the item's index).
private struct TableModel {
    var placeNames: [String]

    mutating func moveItem(at sourceIndex: Int, to destinationIndex: Int) {
        guard sourceIndex != destinationIndex else { return }
        let place = placeNames[sourceIndex]
        placeNames.remove(at: sourceIndex)
        placeNames.insert(place, at: destinationIndex)
    }

    mutating func addItem(_ place: String, at index: Int) {
        placeNames.insert(place, at: index)
    }

    mutating func performDrop(_ items: [String], at destinationRow: Int?) {
        let row = destinationRow ?? placeNames.count
        for (index, item) in items.enumerated() {
            addItem(item, at: row + index)
        }
    }
}

/// Rows `r0 … r(n-1)`; `category(i)` is row i's title.
private func numberedRows(_ count: Int, category: (Int) -> String = { _ in "" }) -> [Row] {
    (0..<count).map { Row(id: "r\($0)", title: category($0)) }
}

/// Every (source, destination) pair of positions in a list with `indices`.
private func everyMove(in indices: Range<Int>) -> [(source: Int, destination: Int)] {
    indices.flatMap { source in indices.map { (source, $0) } }
}

/// Collects the cases where a helper and a seed disagree, so a failure shows a few of them, not thousands.
private struct Mismatches {
    private(set) var cases: [String] = []

    mutating func check(_ actual: [String], _ expected: [String], _ what: @autoclosure () -> String) {
        if actual != expected {
            cases.append("\(what()): got \(actual.joined(separator: " ")), seed \(expected.joined(separator: " "))")
        }
    }

    func expectNone(sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(
            cases.isEmpty, "\(cases.count) cases differ from the seed, e.g. \(cases.prefix(4))",
            sourceLocation: sourceLocation)
    }
}

@Suite("The helpers take UIKit's index, as the seeds' remove-then-insert code does", .timeLimit(.minutes(5)))
struct SeedReorderTests {
    @Test("the issue's case: b1 to row 1 of the family tab lands after b3, in the tab and in All (seed 002)")
    func familyTabDownward() {
        // All: b1 (family), b2 (friends), b3 (family), b4 (friends); the family tab shows b1 b3.
        var books = [("b1", "family"), ("b2", "friends"), ("b3", "family"), ("b4", "friends")].map {
            Row(id: $0, title: $1)
        }
        let before = books
        let change = books.moveElements(withIDs: ["b1"], toIndex: 1, inViewWhere: { $0.title == "family" })
        #expect(books.filter { $0.title == "family" }.map(\.id) == ["b3", "b1"])
        #expect(books.map(\.id) == ["b2", "b3", "b1", "b4"])
        #expect(before.applying(change)?.map(\.id) == books.map(\.id))
    }

    @Test(
        "seed 002: a move in a category tab or in All, every source and destination, as the seed's view model",
        arguments: 1...6)
    func categoryTabs(count: Int) {
        var mismatches = Mismatches()
        // Every way to file `count` books under two categories.
        for filing in 0..<(1 << count) {
            let books = numberedRows(count) { (filing >> $0) & 1 == 0 ? "family" : "friends" }
            for tab in [nil, "family", "friends"] {
                let shown = books.filter { tab == nil || $0.title == tab }
                for (source, destination) in everyMove(in: shown.indices) {
                    var seed = HomeViewModel(books, showing: tab)
                    seed.dragAndDropBookCover(from: source, to: destination)
                    var whole = books
                    whole.moveElements(
                        withIDs: [shown[source].id], toIndex: destination,
                        inViewWhere: { tab == nil || $0.title == tab })
                    let what = "\(books.map { "\($0.id)/\($0.title)" }) tab \(tab ?? "All") \(source)→\(destination)"
                    mismatches.check(whole.map(\.id), seed.bookCovers.map(\.id), "All, \(what)")
                    mismatches.check(
                        whole.filter { tab == nil || $0.title == tab }.map(\.id),
                        seed.currentBookCovers.map(\.id), "tab, \(what)")
                }
            }
        }
        mismatches.expectNone()
    }

    @Test(
        "seed 002: a drop in a category tab or in All on a TransferList, proposed and dropped, as the seed's view model",
        arguments: 1...6)
    func categoryTabDrops(count: Int) async throws {
        var mismatches = Mismatches()
        for filing in 0..<(1 << count) {
            let books = numberedRows(count) { (filing >> $0) & 1 == 0 ? "family" : "friends" }
            for tab in [nil, "family", "friends"] {
                let isShown: @Sendable (Row) -> Bool = { tab == nil || $0.title == tab }
                let shown = books.filter(isShown)
                for (source, destination) in everyMove(in: shown.indices) {
                    var seed = HomeViewModel(books, showing: tab)
                    seed.dragAndDropBookCover(from: source, to: destination)
                    let list = TransferList(books, makeProvider: Row.provider, renumbering: \.order)
                    let session = try list.beginDrag([shown[source].id])
                    let proposed = list.proposal(for: session, at: destination, inViewWhere: isShown).operation
                    _ = try await list.drop(session, at: destination, inViewWhere: isShown)
                    let what = "\(books.map { "\($0.id)/\($0.title)" }) tab \(tab ?? "All") \(source)→\(destination)"
                    mismatches.check(["\(proposed)"], ["\(DropOperation.move)"], "proposal, \(what)")
                    mismatches.check(list.elements.map(\.id), seed.bookCovers.map(\.id), "All, \(what)")
                    mismatches.check(
                        list.elements.filter(isShown).map(\.id), seed.currentBookCovers.map(\.id), "tab, \(what)")
                    // The seed's `order` is each cover's place in All, which the list keeps by itself.
                    mismatches.check(
                        list.elements.map { "\($0.order)" }, list.elements.indices.map { "\($0)" }, "order, \(what)")
                }
            }
        }
        mismatches.expectNone()
    }

    @Test(
        "seed 003: a pinned add cell first; drags, proposals and drops on TransferList as the seed's delegate",
        arguments: 1...6)
    func pinnedAddCell(count: Int) async throws {
        var mismatches = Mismatches()
        let cells = [Row(id: "add", title: "add")] + numberedRows(count - 1)
        for (source, destination) in everyMove(in: cells.indices) {
            var seed = EditClipViewController(clips: Array(cells.dropFirst()))
            let list = TransferList(cells, isPinned: { $0.id == "add" }, makeProvider: Row.provider)
            let what = "\(source)→\(destination) of \(cells.count)"
            guard seed.canDrag(item: source) else {
                let refused = #expect(throws: TransferSessionError.self) { try list.beginDrag([cells[source].id]) }
                #expect(refused?.code == .forbiddenByList)
                continue
            }
            let session = try list.beginDrag([cells[source].id])
            let proposed = list.proposal(for: session, at: destination).operation
            mismatches.check(["\(proposed)"], ["\(seed.proposal(destination: destination))"], "proposal \(what)")
            seed.performDrop(source: source, destination: destination)
            let expected = ["add"] + seed.clips.map(\.id)
            if seed.proposal(destination: destination) == .forbidden {
                let refused = await #expect(throws: TransferSessionError.self) {
                    try await list.drop(session, at: destination)
                }
                #expect(refused?.code == .forbiddenByList)
            } else {
                _ = try await list.drop(session, at: destination)
            }
            mismatches.check(list.elements.map(\.id), expected, "drop \(what)")
            var array = cells
            array.moveElements(withIDs: [cells[source].id], toIndex: destination)
            if seed.proposal(destination: destination) == .move {
                mismatches.check(array.map(\.id), expected, "moveElements \(what)")
            }
        }
        mismatches.expectNone()
    }

    @Test(
        "seed 004: moveRowAt:to: and drops from another table, as the seed's model",
        arguments: 1...6)
    func tableRows(count: Int) async throws {
        var mismatches = Mismatches()
        let rows = numberedRows(count)
        for (source, destination) in everyMove(in: rows.indices) {
            var seed = TableModel(placeNames: rows.map(\.id))
            seed.moveItem(at: source, to: destination)
            let what = "\(source)→\(destination) of \(count)"
            var edited = rows
            edited.moveRow(at: source, to: destination)
            mismatches.check(edited.map(\.id), seed.placeNames, "moveRow \(what)")
            var moved = rows
            moved.moveElements(withIDs: [rows[source].id], toIndex: destination)
            mismatches.check(moved.map(\.id), seed.placeNames, "moveElements \(what)")
            let list = TransferList(rows, makeProvider: Row.provider)
            _ = try await list.drop(try list.beginDrag([rows[source].id]), at: destination)
            mismatches.check(list.elements.map(\.id), seed.placeNames, "drop in place \(what)")
        }
        // From another table: a copy (the seed proposes .copy when the drag is not its own), one or two items.
        let copy: @Sendable (Row) -> Row = { Row(id: $0.id + "+", title: $0.title) }
        for dragged in [["x"], ["x", "y"]] {
            for destination in [nil] + Array(0...count) {
                var seed = TableModel(placeNames: rows.map(\.id))
                seed.performDrop(dragged.map { $0 + "+" }, at: destination)
                let list = TransferList(rows, makeCopy: copy, makeProvider: Row.provider)
                let other = TransferList(dragged.map { Row(id: $0, title: $0) }, makeProvider: Row.provider)
                _ = try await list.drop(try other.beginDrag(dragged), at: destination ?? count, operation: .copy)
                mismatches.check(list.elements.map(\.id), seed.placeNames, "copy \(dragged) to \(destination ?? -1)")
            }
        }
        mismatches.expectNone()
    }
}
