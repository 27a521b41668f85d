import Foundation
import Testing
import TransferClipboard
import TransferDesktop
import TransferKit
import TransferSessions

/// Seed 002's shelf as issue 42 has it: `a b c d e f`, the family tab showing `a c d f`.
private func shelf() -> TransferList<Card> {
    TransferList(
        [("a", "family"), ("b", "friends"), ("c", "family"), ("d", "family"), ("e", "friends"), ("f", "family")].map {
            Card(id: $0, title: $1)
        })
}

private let isFamily: @Sendable (Card) -> Bool = { $0.title == "family" }

/// A window on `desktop` that proposes `operation` and takes its first drop into `books` at `row` of the family tab.
private func familyTab(
    on desktop: FakeDesktop, into books: TransferList<Card>, row: Int, proposing operation: DropOperation = .move
) async throws -> (FakeWindow, DesktopWindow, Task<DropResult<CollectionDifference<Card>>, any Error>) {
    let window = try await DesktopWindow.open(
        DesktopWindow.Options(title: "family", lines: ["a"], timeout: .seconds(120)), on: desktop, closeConnection: {})
    let fake = try #require(desktop.windows.last)
    let drops = window.drops { _ in DropProposal(operation: operation) }
    let target = Task {
        var iterator = drops.makeAsyncIterator()
        let drop = try #require(try await iterator.next())
        return try await books.drop(drop, at: row, inViewWhere: isFamily)
    }
    return (fake, window, target)
}

@Suite("Desktop drops on a filtered view of a TransferList (seed 002's category tabs)", .timeLimit(.minutes(5)))
struct FilteredListDropTests {
    @Test("a reorder dragged in the window counts the tab's rows: a to row 2 of the family tab gives c d a f")
    func reorderInTab() async throws {
        let desktop = FakeDesktop()
        let books = shelf()
        let (fake, window, target) = try await familyTab(on: desktop, into: books, row: 2)
        fake.whenDragged { offer in await fake.receiveDrop(offer) }
        let result = try await window.drag(try books.beginDrag(["a"]))
        if result.operation == .cancel { window.close() }
        #expect(result.operation == .move)
        #expect(try await target.value.operation == .move)
        #expect(books.elements.filter(isFamily).map(\.id) == ["c", "d", "a", "f"])
        #expect(books.elements.map(\.id) == ["b", "c", "d", "a", "e", "f"])
    }

    @Test("another program's item dropped on row 1 of the family tab goes before c, the tab's row 1")
    func programDropInTab() async throws {
        let desktop = FakeDesktop()
        let books = shelf()
        let (fake, window, target) = try await familyTab(on: desktop, into: books, row: 1, proposing: .copy)
        let card = try JSONEncoder().encode(Card(id: "x", title: "family"))
        let offer = DesktopDragOffer(targets: ["com.example.desktop.card"], actions: [.copy]) { _ in
            TransferByteStream(data: card)
        }
        let outcome = await fake.receiveDrop(offer)
        if case .refused = outcome { window.close() }
        #expect(outcome == .dropped(performed: .copy, target: fake.identifier))
        #expect(try await target.value.operation == .copy)
        #expect(books.elements.map(\.id) == ["a", "b", "x", "c", "d", "e", "f"])
    }
}
