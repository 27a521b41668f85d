import Foundation
import Testing
import TransferKit
import TransferSessions
import TransferSessionsTestSupport

/// Another application on this machine, for the rules that depend on where a drop happens.
private let otherApplication = TransferSessionOrigin(applicationIdentifier: "com.example.other", processIdentifier: 1)

private func rows(_ ids: String...) -> [Row] {
    ids.map { Row(id: $0, title: "row \($0)") }
}

private func lists(_ left: [Row], _ right: [Row]) -> (TransferList<Row>, TransferList<Row>) {
    let copy: @Sendable (Row) -> Row = { Row(id: $0.id + "+", title: $0.title) }
    return (
        TransferList(left, makeCopy: copy, makeProvider: Row.provider),
        TransferList(right, makeCopy: copy, makeProvider: Row.provider)
    )
}

@Suite("Drag sessions: moves, copies and their failures", .timeLimit(.minutes(5)))
struct DragSessionTests {
    @Test("a move puts the item in the destination once and removes it from the source")
    func moveBetweenLists() async throws {
        let (left, right) = lists(rows("a", "b", "c"), rows("x", "y"))
        let session = try left.beginDrag(["b"])
        let result = try await right.drop(session, at: 1)
        #expect(result.operation == .move)
        #expect(result.transferredItems == ["b"])
        #expect(left.elements.map(\.id) == ["a", "c"])
        #expect(right.elements.map(\.id) == ["x", "b", "y"])
        #expect(session.phase == .ended(.move))
        let change = try #require(result.value)
        #expect(change.insertions.count == 1)
        #expect(rows("x", "y").applying(change)?.map(\.id) == ["x", "b", "y"])
    }

    @Test("a copy leaves the source as it was and adds a copy with a new identity")
    func copyBetweenLists() async throws {
        let (left, right) = lists(rows("a", "b"), rows("x"))
        let result = try await right.drop(try left.beginDrag(["a", "b"]), at: 0, operation: .copy)
        #expect(result.operation == .copy)
        #expect(left.elements.map(\.id) == ["a", "b"])
        #expect(right.elements.map(\.id) == ["a+", "b+", "x"])
    }

    @Test("reordering is a move onto the same list: several rows, the index where the first of them ends up")
    func reorderInPlace() async throws {
        let (list, _) = lists(rows("a", "b", "c", "d", "e"), [])
        // Drop b and d before e: b ends up at 2 (UIKit's destinationIndexPath), d after it.
        let result = try await list.drop(try list.beginDrag(["d", "b"]), at: 2)
        #expect(result.operation == .move)
        #expect(list.elements.map(\.id) == ["a", "c", "b", "d", "e"])
        #expect(
            rows("a", "b", "c", "d", "e").applying(try #require(result.value))?.map(\.id) == ["a", "c", "b", "d", "e"])
        // Back to the front.
        _ = try await list.drop(try list.beginDrag(["b", "d"]), at: 0)
        #expect(list.elements.map(\.id) == ["b", "d", "a", "c", "e"])
    }

    @Test("a cancelled drag changes nothing and cannot be dropped afterwards")
    func cancelledDrag() async throws {
        let (left, right) = lists(rows("a"), rows("x"))
        let session = try left.beginDrag(["a"])
        await session.cancel()
        #expect(session.phase == .ended(.cancel))
        let error = await #expect(throws: TransferSessionError.self) { try await right.drop(session, at: 0) }
        #expect(error?.code == .sessionEnded)
        #expect(left.elements.map(\.id) == ["a"])
        #expect(right.elements.map(\.id) == ["x"])
    }

    @Test("waiting for the end with a time limit: timedOut while no drop ends it, the operation once one does")
    func endedWithinTimeLimit() async throws {
        let (left, right) = lists(rows("a"), rows("x"))
        let session = try left.beginDrag(["a"])
        let error = await #expect(throws: TransferSessionError.self) {
            _ = try await session.ended(within: .milliseconds(50))
        }
        #expect(error?.code == .timedOut)
        #expect(session.phase == .active)
        _ = try await right.drop(session, at: 1)
        #expect(await session.ended() == .move)
        #expect(right.elements.map(\.id) == ["x", "a"])
    }

    @Test("a wait for the end whose task is cancelled ends at once with timedOut, saying it was cancelled")
    func endedWaitCancelled() async throws {
        let (left, _) = lists(rows("a"), rows("x"))
        let session = try left.beginDrag(["a"])
        let waiting = Task { try await session.ended(within: .seconds(600)) }
        waiting.cancel()
        let error = await #expect(throws: TransferSessionError.self) { _ = try await waiting.value }
        #expect(error?.code == .timedOut)
        #expect(error?.message.contains("cancelled") == true, "\(error?.message ?? "")")
        await session.cancel()
        #expect(await session.ended() == .cancel)
    }

    @Test("ended() whose task is cancelled returns cancel at once; the session goes on, and a drop still moves")
    func endedCancelled() async throws {
        let (left, right) = lists(rows("a"), rows("x"))
        let session = try left.beginDrag(["a"])
        let waiting = Task { await session.ended() }
        waiting.cancel()
        #expect(await waiting.value == .cancel)
        #expect(session.phase == .active)
        _ = try await right.drop(session, at: 1)
        #expect(await session.ended() == .move)
        #expect(right.elements.map(\.id) == ["x", "a"])
    }

    @Test("a move the source does not allow resolves to cancel and moves nothing")
    func moveNotAllowed() async throws {
        let (left, right) = lists(rows("a"), rows("x"))
        let session = try left.beginDrag(["a"], allowsMoveOperation: false)
        #expect(session.resolvedOperation(for: .move, at: .current) == .cancel)
        #expect(session.resolvedOperation(for: .copy, at: .current) == .copy)
        let result = try await right.drop(session, at: 0)
        #expect(result.operation == .cancel)
        #expect(result.value == nil)
        #expect(left.elements.map(\.id) == ["a"])
        #expect(right.elements.map(\.id) == ["x"])
    }

    @Test("a move into another application is a cancel unless the source allows it; then it decodes")
    func moveToAnotherApplication() async throws {
        let (left, right) = lists(rows("a", "b"), [])
        let refused = try left.beginDrag(["a"])
        #expect(refused.resolvedOperation(for: .move, at: otherApplication) == .cancel)
        #expect(try await right.drop(refused, at: 0, destination: otherApplication).operation == .cancel)

        let allowed = try left.beginDrag(["a"], allowsMoveToOtherApplications: true)
        let result = try await allowed.drop(DropProposal(operation: .move), on: otherApplication) { drop, _ in
            // Another application never sees the local objects or the local context.
            #expect(drop.items.allSatisfy { $0.localObject == nil })
            #expect(drop.localDragSession == nil)
            #expect(drop.canLoadObjects(ofClass: Row.self))
            return try await drop.loadObjects(ofClass: Row.self)
        }
        #expect(result.operation == .move)
        #expect(result.value?.map(\.id) == ["a"])
        #expect(left.elements.map(\.id) == ["b"])
    }

    @Test("a drop whose items do not decode fails as commitFailed and leaves both sides unchanged")
    func decodingFailure() async throws {
        let left = TransferList([Row(id: "a", title: "undecodable")], makeProvider: Row.provider)
        let session = try left.beginDrag(["a"], allowsMoveToOtherApplications: true)
        let error = await #expect(throws: TransferSessionError.self) {
            _ = try await session.drop(DropProposal(operation: .move), on: otherApplication) { drop, _ in
                try await drop.loadObjects(ofClass: Row.self)
            }
        }
        #expect(error?.code == .commitFailed)
        #expect((error?.cause as? TransferError)?.code == .decodingFailed)
        #expect(session.phase == .ended(.cancel))
        #expect(left.elements.map(\.id) == ["a"])
        // The reservation ended with the failure: a new drag of the item moves it.
        let (_, right) = lists([], [])
        _ = try await right.drop(try left.beginDrag(["a"]), at: 0)
        #expect(left.elements.isEmpty)
        #expect(right.elements.map(\.id) == ["a"])
    }

    @Test("a drop cancelled while its destination commits is cancelled, and the source keeps the item")
    func cancelledWhileCommitting() async throws {
        let (left, _) = lists(rows("a"), [])
        let session = try left.beginDrag(["a"])
        let task = Task {
            try await session.drop(DropProposal(operation: .move)) { drop, _ in
                try await Task.sleep(for: .seconds(60))
                return try await drop.loadObjects(ofClass: Row.self)
            }
        }
        task.cancel()
        let error = await #expect(throws: TransferSessionError.self) { _ = try await task.value }
        #expect(error?.code == .cancelled)
        #expect(left.elements.map(\.id) == ["a"])
        #expect(session.phase == .ended(.cancel))
    }

    @Test("a move of items the source removed meanwhile is itemsUnavailable; one of several moves the rest")
    func itemsGoneBeforeTheDrop() async throws {
        let (left, right) = lists(rows("a", "b"), [])
        let session = try left.beginDrag(["a"])
        try left.edit { $0.removeAll { $0.id == "a" } }
        let error = await #expect(throws: TransferSessionError.self) { try await right.drop(session, at: 0) }
        #expect(error?.code == .itemsUnavailable)
        #expect(right.elements.isEmpty)

        try left.edit { $0.append(contentsOf: rows("c", "d")) }
        let several = try left.beginDrag(["b", "c", "d"])
        try left.edit { $0.removeAll { $0.id == "c" } }
        let result = try await right.drop(several, at: 0)
        #expect(result.transferredItems == ["b", "d"])
        #expect(result.unavailableItems == ["c"])
        #expect(left.elements.isEmpty)
        #expect(right.elements.map(\.id) == ["b", "d"])
    }

    @Test("two sessions dragging the same item: the first move takes it, the second finds it gone")
    func sameItemTwice() async throws {
        let (left, right) = lists(rows("a"), [])
        let first = try left.beginDrag(["a"])
        let second = try left.beginDrag(["a"])
        _ = try await right.drop(first, at: 0)
        let error = await #expect(throws: TransferSessionError.self) { try await right.drop(second, at: 0) }
        #expect(error?.code == .itemsUnavailable)
        #expect(right.elements.map(\.id) == ["a"])
    }

    @Test("a copy that would repeat an identity the list has is refused")
    func duplicateIdentity() async throws {
        let left = TransferList(rows("a"))
        let right = TransferList(rows("a"))
        let error = await #expect(throws: TransferSessionError.self) {
            try await right.drop(try left.beginDrag(["a"]), at: 0, operation: .copy)
        }
        #expect(error?.code == .forbiddenByList)
        #expect(right.elements.map(\.id) == ["a"])
    }

    @Test("pinned rows cannot be dragged, and drops that would shift them are forbidden (seed 003)")
    func pinnedRows() async throws {
        let list = TransferList(rows("a", "b", "c", "add"), isPinned: { $0.id == "add" })
        let error = #expect(throws: TransferSessionError.self) { try list.beginDrag(["add"]) }
        #expect(error?.code == .forbiddenByList)
        let missing = #expect(throws: TransferSessionError.self) { try list.beginDrag(["a", "gone"]) }
        #expect(missing?.code == .forbiddenByList)
        #expect(missing?.source == "gone")

        let session = try list.beginDrag(["a"])
        #expect(list.proposal(for: session, at: 2).operation == .move)
        // After the pinned row, a would pull it forward.
        #expect(list.proposal(for: session, at: 3).operation == .forbidden)
        let other = TransferList(rows("x"))
        let incoming = try other.beginDrag(["x"])
        #expect(list.proposal(for: incoming, at: 3).operation == .forbidden)
        #expect(list.proposal(for: incoming, at: 4).operation == .move)
        let refused = await #expect(throws: TransferSessionError.self) { try await list.drop(incoming, at: 1) }
        #expect(refused?.code == .forbiddenByList)
        #expect(other.elements.map(\.id) == ["x"])

        _ = try await list.drop(session, at: 2)
        #expect(list.elements.map(\.id) == ["b", "c", "a", "add"])
    }

    @Test("a drag without a source can be copied but never moved")
    func sourceless() async throws {
        let row = Row(id: "s", title: "loose")
        let session = DragSession(items: [DragItem(row)], source: nil)
        #expect(session.resolvedOperation(for: .move, at: .current) == .cancel)
        let right = TransferList([Row]())
        #expect(try await right.drop(session, at: 0).operation == .cancel)
        let again = DragSession(items: [DragItem(row)], source: nil)
        #expect(try await right.drop(again, at: 0, operation: .copy).operation == .copy)
        #expect(right.elements == [row])
    }
}
