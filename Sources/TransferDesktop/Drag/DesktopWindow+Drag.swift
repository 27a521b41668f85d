import Foundation
public import TransferClipboard
import TransferKit
import TransferKitPlatform
public import TransferSessions
import UniformTypes

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
        guard session.phase == .active else {
            throw TransferSessionError(
                code: .sessionEnded,
                message: "This drag session was already dropped or cancelled (\(session.phase)); start a new drag.",
                source: session.id.rawValue)
        }
        let providers = session.items.map(\.provider)
        let offers = ClipboardTypeMapping.offers(
            for: providers, options: ClipboardWriteOptions(),
            includeX11Names: backend.dragAndDropProtocolName.hasPrefix("X11"), catalog: options.catalog)
        let byName = Dictionary(offers.map { ($0.target, $0) }) { first, _ in first }
        let published = publish(session)
        defer { published?.publication.close() }
        LocalDragSessions.shared.insert(session)
        defer { LocalDragSessions.shared.remove(session) }

        let movesToOthers =
            session.allowsMoveOperation && session.source != nil && session.allowsMoveToOtherApplications
        let offerBytes = published?.bytes
        let delivered = DeliveredItems()
        let offer = DesktopDragOffer(
            targets: offers.map(\.target) + (offerBytes == nil ? [] : DesktopSessionOffer.names),
            actions: movesToOthers ? [.copy, .move] : [.copy],
            filePromise: filePromise
        ) { target in
            if DesktopSessionOffer.isOfferName(target), let offerBytes {
                return TransferByteStream(data: offerBytes)
            }
            guard let offer = byName[target] else {
                throw ClipboardError(code: .typeUnavailable, message: "\(target) is not offered.", source: target)
            }
            let stream = try await ClipboardTypeMapping.stream(for: offer, providers: providers)
            return TransferByteStream(
                length: stream.length,
                DeliveredItems.Noting(base: stream, items: Self.items(servedBy: offer, providers), delivered: delivered)
            )
        }

        let outcome: DesktopDragOutcome
        do {
            outcome = try await handle.drag(offer)
        } catch {
            if session.phase != .active, let publication = published?.publication {
                // A TransferKit target dropped through the session before the display protocol failed: the
                // session's outcome is the truth.
                return try await ended(publication, target: nil)
            }
            await session.cancel()
            throw error
        }
        if session.phase != .active, let publication = published?.publication {
            return try await ended(publication, target: outcome.target)
        }
        switch outcome {
        case .dropped(let performed, let target):
            // A target that says it moved the items but read none of some item's representations (to its end) took
            // nothing of it: deleting would lose it, so the drop counts as a copy and the source keeps every item.
            let unread = delivered.missing(from: providers.count)
            let moved = performed == .move && movesToOthers && unread.isEmpty
            let keptReason =
                performed == .move && movesToOthers && !unread.isEmpty
                ? "The target \(target ?? "") reported a move but read none of the data of item(s) "
                    + "\(unread.map { String($0 + 1) }.joined(separator: ", ")); nothing was removed." : nil
            let origin = TransferSessionOrigin(
                applicationIdentifier: "desktop:\(target ?? "unknown")", processIdentifier: 0)
            let operation: DropOperation
            do {
                operation = try await session.drop(DropProposal(operation: moved ? .move : .copy), on: origin) {
                    _, _ in
                }.operation
            } catch {
                // A TransferKit target raced the display protocol's finish through the session.
                guard error.code == .sessionEnded, let publication = published?.publication else { throw error }
                return try await ended(publication, target: target)
            }
            return DesktopDragResult(
                operation: operation, target: target, exactlyOnce: false,
                reason: operation == .copy ? keptReason : nil)
        case .refused(let target):
            await session.cancel()
            return DesktopDragResult(
                operation: .cancel, target: target, exactlyOnce: false, reason: "The drop target refused the drop.")
        case .cancelled(let reason):
            await session.cancel()
            return DesktopDragResult(operation: .cancel, target: nil, exactlyOnce: false, reason: reason)
        }
    }

    /// The result of a session that a TransferKit target dropped through `publication`, once its destination has
    /// heard how it ended.
    private func ended(_ publication: DragSessionPublication, target: String?) async throws -> DesktopDragResult {
        let operation = try await publication.ended(within: options.timeout)
        return DesktopDragResult(
            operation: operation, target: target, exactlyOnce: operation.transfersItems,
            reason: operation.transfersItems ? nil : publication.session.endRefusal?.description)
    }

    /// `session` published for TransferKit targets, and the session offer's bytes; `nil` when it cannot be (no
    /// folder for the socket, or the socket cannot be made): the drag then goes on for other programs only.
    private func publish(_ session: DragSession) -> (publication: DragSessionPublication, bytes: Data)? {
        guard let path = DesktopSessionOffer.socketPath(for: session.id, environment: options.environment),
            let publication = try? DragSessionPublication(
                publishing: session, atPath: path, timeout: options.timeout, observer: options.sessionObserver)
        else { return nil }
        let offer = DesktopSessionOffer(
            session: session.id.rawValue, socket: path, application: session.origin.applicationIdentifier,
            process: session.origin.processIdentifier)
        guard let bytes = try? offer.encoded() else {
            publication.close()
            return nil
        }
        return (publication, bytes)
    }
}

extension DesktopWindow {
    /// The items (indices into `providers`) whose data `offer` carries: its provider's, or every file URL's for a
    /// URL list; none for a constant (the hints).
    static func items(servedBy offer: ClipboardTypeMapping.Offer, _ providers: [TransferProvider]) -> [Int] {
        switch offer.conversion {
        case .identity, .latin1, .utf8Text: [offer.providerIndex]
        case .uriList, .gnomeCopiedFiles:
            providers.indices.filter { providers[$0].hasRepresentation(conformingTo: .fileURL) }
        case .constant: []
        }
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

extension DesktopDragOutcome {
    /// The window the drag ended on, where the protocol names it.
    fileprivate var target: String? {
        switch self {
        case .dropped(_, let target), .refused(let target): target
        case .cancelled: nil
        }
    }
}

/// The drags running from this process's windows, by session identity: a drop on another window of the same process
/// takes the session itself (with its local objects and context) rather than connecting to its publication.
final class LocalDragSessions: Sendable {
    /// The process's drags.
    static let shared = LocalDragSessions()

    private let sessions = SanitizedMutex([String: DragSession]())

    /// Adds a running drag.
    func insert(_ session: DragSession) {
        sessions.withLock { $0[session.id.rawValue] = session }
    }

    /// Removes a drag that ended.
    func remove(_ session: DragSession) {
        _ = sessions.withLock { $0.removeValue(forKey: session.id.rawValue) }
    }

    /// The running drag with identity `id`, if it is this process's.
    func session(_ id: String) -> DragSession? {
        sessions.withLock { $0[id] }
    }
}
