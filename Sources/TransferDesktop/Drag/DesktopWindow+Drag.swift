import TransferDisplay
import TransferKit
import TransferKitPlatform
public import TransferSessions
import UniformTypes

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension DesktopWindow {
    /// Waits for the user to drag from the window, drags the session's items to wherever they are dropped, and ends
    /// the session with the result. A press on the window that came before this call, its button still down, begins
    /// the drag too.
    ///
    /// The drag offers every representation of the items as the clipboard does (uniform types, MIME types, X11 text
    /// names: `ClipboardTypeMapping`), each loaded only when the target asks for it, and TransferKit's session
    /// offer, which names a `DragSessionPublication` of `session` for the drag's duration. A TransferKit target
    /// drops through that publication: the session's own two-phase move, exactly once (see
    /// ``DesktopDragResult/exactlyOnce``). Any other program gets the bytes through the display protocol, and a move
    /// removes the items (through the session's `DragSource`) only after it finished the drop having performed
    /// `move`; a move is offered to other programs only when the session allows one into other applications
    /// (`DragSession/allowsMoveToOtherApplications`: another program is always another application).
    ///
    /// ```swift
    /// let session = try list.beginDrag(["3"])
    /// let result = try await window.drag(session)
    /// if result.operation == .move { print("moved to \(result.target ?? "another window")") }
    /// ```
    ///
    /// - Parameter session: An active session; it has ended when this returns.
    /// - Returns: What the drop did, and where.
    /// - Throws: `TransferSessionError` with `sessionEnded` when the session is not active, `timedOut` when a
    ///   TransferKit target began its drop and did not end it within the window's time limit, or the session's drop
    ///   error (such as `itemsUnavailable`); `ClipboardError` (`timedOut` when the target accepted the drop but
    ///   never finished it, `connectionFailed`/`protocolViolation` when the display server went away). Cancelling
    ///   the task cancels the drag. In each case but a drop that went ahead, the session ended with
    ///   `DropOperation/cancel` and the source keeps its items.
    public func drag(_ session: DragSession) async throws -> DesktopDragResult {
        try await drag(session, filePromise: nil)
    }

    /// Drags the session's items as ``drag(_:)`` does and also promises a file: a target that asks for it (X11's
    /// direct save, XDS) gets it written by `filePromise` into the folder it chose, only then.
    ///
    /// Other programs that do not speak XDS take the items' representations as with ``drag(_:)``. On Wayland no
    /// protocol carries a file promise, so `filePromise` is not offered there (see
    /// <doc:DragAndDropWithOtherApps>).
    ///
    /// ```swift
    /// let promise = DesktopFilePromise(suggestedName: "cards.json") { url, _ in
    ///     try await exportCards(to: url)
    /// }
    /// let result = try await window.drag(session, filePromise: promise)
    /// ```
    ///
    /// - Parameters:
    ///   - session: An active session; it has ended when this returns.
    ///   - filePromise: The file to promise, or `nil` for none.
    /// - Returns: What the drop did, and where.
    /// - Throws: As ``drag(_:)``. A failed write is not thrown here: the target is told and learns it.
    public func drag(_ session: DragSession, filePromise: DesktopFilePromise?) async throws -> DesktopDragResult {
        let drag = try PreparedDrag(
            session, filePromise: filePromise, includeX11Names: backend.dragAndDropProtocolName.hasPrefix("X11"),
            catalog: options.catalog, environment: options.environment, timeout: options.timeout,
            observer: options.sessionObserver)
        let outcome: Result<DesktopDragOutcome, any Error>
        do {
            outcome = .success(try await handle.drag(drag.offer))
        } catch {
            outcome = .failure(error)
        }
        return try await drag.finish(outcome)
    }
}

/// Which items of a drag a target read a representation of, to its end: a move removes only items it took.
final class DeliveredItems: Sendable {
    private let items = SanitizedMutex(Set<Int>())

    /// The items of `0..<count` whose data no target read to its end, in order.
    func missing(from count: Int) -> [Int] {
        let delivered = items.withLock { $0 }
        return (0..<count).filter { !delivered.contains($0) }
    }

    /// Notes that `read` items were read to their end.
    func note(_ read: [Int]) {
        items.withLock { $0.formUnion(read) }
    }

    /// A served stream's chunks; reaching its end notes its items as delivered.
    struct Noting: AsyncSequence, Sendable {
        typealias Element = Data
        let base: TransferByteStream
        let items: [Int]
        let delivered: DeliveredItems

        func makeAsyncIterator() -> Iterator {
            Iterator(base: base.makeAsyncIterator(), items: items, delivered: delivered)
        }

        struct Iterator: AsyncIteratorProtocol {
            var base: TransferByteStream.AsyncIterator
            let items: [Int]
            let delivered: DeliveredItems

            mutating func next() async throws -> Data? {
                guard let chunk = try await base.next() else {
                    delivered.note(items)
                    return nil
                }
                return chunk
            }
        }
    }
}

/// The drags running from this process's windows, by session identity: a drop on another window of the same process
/// takes the session itself (with its local objects and context) rather than connecting to its publication.
package final class LocalDragSessions: Sendable {
    /// The process's drags.
    package static let shared = LocalDragSessions()

    private let sessions = SanitizedMutex([String: DragSession]())

    /// Adds a running drag.
    package func insert(_ session: DragSession) {
        sessions.withLock { $0[session.id.rawValue] = session }
    }

    /// Removes a drag that ended.
    package func remove(_ session: DragSession) {
        _ = sessions.withLock { $0.removeValue(forKey: session.id.rawValue) }
    }

    /// The running drag with identity `id`, if it is this process's.
    package func session(_ id: String) -> DragSession? {
        sessions.withLock { $0[id] }
    }
}
