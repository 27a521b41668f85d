import Foundation
import Testing
import TransferKit
import TransferSessions
import TransferSessionsTestSupport

/// Rows whose stored `order` is deliberately wrong, so a renumbering shows.
private func staleRows(_ ids: String...) -> [Row] {
    ids.map { Row(id: $0, title: "row \($0)", order: 99) }
}

/// Each row's id and order, `a0 b1 …`.
private func numbered(_ list: TransferList<Row>) -> String {
    list.elements.map { "\($0.id)\($0.order)" }.joined(separator: " ")
}

@Suite("A list keeps its elements' order field (renumbering:)", .timeLimit(.minutes(5)))
struct RenumberingTests {
    private static let copy: @Sendable (Row) -> Row = { Row(id: $0.id + "+", title: $0.title) }

    @Test("numbered from the start, after a reorder, and on both sides of a move between lists (seed 002)")
    func dropsRenumber() async throws {
        let left = TransferList(
            staleRows("a", "b", "c"), makeCopy: Self.copy, makeProvider: Row.provider, renumbering: \.order)
        let right = TransferList(
            staleRows("x", "y"), makeCopy: Self.copy, makeProvider: Row.provider, renumbering: \.order)
        #expect(numbered(left) == "a0 b1 c2" && numbered(right) == "x0 y1")

        let reorder = try await left.drop(try left.beginDrag(["a"]), at: 2)
        #expect(numbered(left) == "b0 c1 a2")
        // The change carries the renumbered element, so a UI that applies it shows the new order.
        let inserted = try #require(reorder.value?.insertions.first)
        if case .insert(let offset, let row, _) = inserted {
            #expect(offset == 2 && row.order == 2)
        }

        _ = try await right.drop(try left.beginDrag(["b"]), at: 1)
        #expect(numbered(left) == "c0 a1")
        #expect(numbered(right) == "x0 b1 y2")

        _ = try await left.drop(try right.beginDrag(["y"]), at: 0, operation: .copy)
        #expect(numbered(left) == "y+0 c1 a2")
        #expect(numbered(right) == "x0 b1 y2")
    }

    @Test("the app's own edits are renumbered, whatever they set the field to")
    func editsRenumber() throws {
        let list = TransferList(staleRows("a", "b"), renumbering: \.order)
        try list.edit { rows in
            rows.insert(Row(id: "n", title: "new", order: -7), at: 0)
        }
        #expect(numbered(list) == "n0 a1 b2")
        try list.edit { $0.removeAll { $0.id == "a" } }
        #expect(numbered(list) == "n0 b1")
    }

    @Test("a list without renumbering leaves the field alone")
    func optIn() async throws {
        let list = TransferList(staleRows("a", "b", "c"), makeProvider: Row.provider)
        _ = try await list.drop(try list.beginDrag(["a"]), at: 2)
        #expect(numbered(list) == "b99 c99 a99")
    }

    @Test("a drop from another process renumbers the destination, the move's removal the source")
    func acrossProcessesRenumber() async throws {
        let (path, directory) = try socketPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let left = TransferList(staleRows("a", "b", "c"), makeProvider: Row.provider, renumbering: \.order)
        let right = TransferList(staleRows("x", "y"), makeProvider: Row.provider, renumbering: \.order)
        let session = try left.beginDrag(["a"])
        let publication = try DragSessionPublication(unhurriedPublishing: session, atPath: path)
        defer { publication.close() }
        let remote = try await RemoteDragSession.connectUnhurried(
            toPath: path, origin: sameApplicationElsewhere)
        let result = try await right.drop(remote, at: 1)
        #expect(result.operation == .move)
        #expect(await session.ended() == .move)
        #expect(numbered(right) == "x0 a1 y2")
        #expect(numbered(left) == "b0 c1")
    }
}
