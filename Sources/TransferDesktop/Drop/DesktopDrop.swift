public import TransferDisplay
import TransferKit
import TransferKitPlatform
public import TransferSessions
package import UniformTypes

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A drop on a ``DesktopWindow``, from any program: what it offers, where it landed, and how to take it.
///
/// Take it with `perform(decisions:commit:)`, the desktop counterpart of `DragSession/drop(_:on:commit:)`:
/// `commit` gets a `DropSession` whose items load lazily from the source. Or refuse it with `decline()`. The
/// source waits (within its own time limit) until one of the two has run; a drop released without either is
/// declined.
///
/// ```swift
/// for try await drop in window.drops({ _ in DropProposal(operation: .move) }) {
///     let result = try await drop.perform { session, _ in
///         let cards = try await session.loadObjects(ofClass: Card.self)
///         try list.edit { $0.append(contentsOf: cards) }
///     }
///     print(result.operation)
/// }
/// ```
public final class DesktopDrop: Sendable {
    /// Where the drop landed.
    public let location: DesktopDropLocation
    /// What the source offers, and what the proposal said when the drop came.
    public let context: DesktopDropContext
    /// The window proposal's answer when the drop came: the operation `perform(decisions:commit:)` asks for, and
    /// where the items go.
    public let proposal: DropProposal
    /// The source's identity where the protocol names one (X11: its window, `0x…`); `nil` on Wayland.
    public let source: String?

    let handle: any DesktopDropHandle
    let catalog: TypeCatalog
    let timeout: Duration
    /// The most bytes the drop may carry (`DesktopWindow.Options.maximumDropSize`).
    let maximumSize: Int64
    let observer: (@Sendable (RemoteSessionEvent) async -> Void)?
    private let isSettled = SanitizedMutex(false)

    /// A drop delivered by `handle`, with the proposal made for it: by a ``DesktopWindow``, or by a toolkit's drop
    /// target (TransferGTK's).
    package init(
        handle: any DesktopDropHandle, context: DesktopDropContext, proposal: DropProposal, catalog: TypeCatalog,
        timeout: Duration, maximumSize: Int64 = DesktopWindow.Options.defaultMaximumDropSize,
        observer: (@Sendable (RemoteSessionEvent) async -> Void)? = nil
    ) {
        self.handle = handle
        self.location = DesktopDropLocation(x: Int(handle.location.x), y: Int(handle.location.y))
        self.context = context
        self.proposal = proposal
        self.source = handle.source
        self.catalog = catalog
        self.timeout = timeout
        self.maximumSize = maximumSize
        self.observer = observer
    }

    deinit {
        if !isSettled.withLock({ $0 }) {
            let handle = handle
            Task { await handle.finish(performed: nil) }
        }
    }

    /// Takes the drop: resolves the proposal, lets `commit` load and store the items, and finishes the display
    /// protocol with the operation performed.
    ///
    /// From a TransferKit drag (``DesktopDropContext/isFromTransferKit``), the drop goes through the source's
    /// session: in this process the `DragSession` itself (local objects and context included), in another one a
    /// `RemoteDragSession`; a move is then exactly once, by the two-phase move (with `decisions`, even when a
    /// process dies). When that session cannot be reached (its offer unreadable, its socket another user's or in
    /// another `XDG_RUNTIME_DIR`, or silent past the timeout), the drop is taken as another program's but always as
    /// a copy: the source keeps its items. From any other program, `commit` gets one item whose representations are the offered types
    /// (the clipboard's mapping, `ClipboardTypeMapping`), each read from the source only when loaded; the
    /// operation is the one accepted in the display protocol, and a move there means the source deletes its item
    /// once this returns.
    ///
    /// - Parameters:
    ///   - decisions: The decision record shared with a TransferKit source, for a move that survives a crash.
    ///   - commit: The destination's part, given the drop session and the resolved operation; its last step stores
    ///     the items.
    /// - Returns: What happened.
    /// - Throws: `TransferSessionError` as `DragSession/drop(_:on:commit:)` and
    ///   `RemoteDragSession/drop(_:decisions:commit:)` throw it: `sessionEnded` when the drop was already taken
    ///   or declined, `commitFailed` (or the commit's own `TransferSessionError`) when `commit` throws, `cancelled`,
    ///   `itemsUnavailable`, `disconnected`, `timedOut`. The source keeps its items in each case.
    public func perform<Value>(
        decisions: SessionDecisionRecord? = nil, commit: (DropSession, DropOperation) async throws -> Value
    ) async throws(TransferSessionError) -> DropResult<Value> {
        let proposal = proposal
        return try await perform(
            local: { session throws(TransferSessionError) in
                try await session.drop(proposal, on: .current, commit: commit)
            },
            remote: { remote throws(TransferSessionError) in
                try await remote.drop(proposal, decisions: decisions, commit: commit)
            },
            program: commit)
    }

    /// Takes the drop by whichever of the three its source is: `local`, a drag of this process; `remote`, a drag
    /// published by another TransferKit process (connected here, closed after); `program`, the commit of any other
    /// program's drop. Then finishes the display protocol with the operation performed (none when this throws).
    package func perform<Value>(
        local: (DragSession) async throws(TransferSessionError) -> DropResult<Value>,
        remote: (RemoteDragSession) async throws(TransferSessionError) -> DropResult<Value>,
        program: (DropSession, DropOperation) async throws -> Value
    ) async throws(TransferSessionError) -> DropResult<Value> {
        try settle()
        let result: DropResult<Value>
        do {
            if context.isFromTransferKit {
                let offer = await sessionOffer()
                if let offer, let session = LocalDragSessions.shared.session(offer.session),
                    offer.process == TransferSessionOrigin.current.processIdentifier
                {
                    result = try await local(session)
                } else if let offer,
                    let connected = try? await RemoteDragSession.connect(
                        toPath: offer.socket, timeout: timeout, observer: observer)
                {
                    defer { connected.close() }
                    result = try await remote(connected)
                } else {
                    // The session is out of reach (an unreadable offer, another user's or runtime folder's socket,
                    // a timeout): a move through the display protocol would be delete-after-finish, not the
                    // two-phase move the source was promised, so the drop is taken as a copy.
                    result = try await performFromProgram(operation: .copy, commit: program)
                }
            } else {
                result = try await performFromProgram(
                    operation: handle.action == .move ? .move : .copy, commit: program)
            }
        } catch {
            await handle.finish(performed: nil)
            throw error
        }
        await handle.finish(performed: performedAction(result.operation))
        return result
    }

    /// The file name the source suggests for the file it promises (see ``DesktopFilePromise``), or `nil` when the
    /// drop promises none (always `nil` on Wayland, which has no file promises).
    public var promisedFileName: String? {
        get async { await handle.promisedFileName }
    }

    /// Asks the source to write the file it promises into `directory`, under its suggested name, and returns where
    /// it is: Apple's `NSFilePromiseReceiver`. The source writes it only now; call this inside the `commit` of
    /// ``perform(decisions:commit:)`` (before the drop finishes), and the drop is reported as performed once
    /// `commit` returns.
    ///
    /// ```swift
    /// let result = try await drop.perform { _, _ in try await drop.receivePromisedFile(into: downloads) }
    /// ```
    ///
    /// - Parameter directory: An existing folder; the file must not exist in it yet.
    /// - Returns: The written file.
    /// - Throws: `ClipboardError`: `typeUnavailable` when the drop promises no file (always on Wayland),
    ///   `invalidOptions` when the suggested name is not a plain file name, `transferFailed` when the source could
    ///   not write it, `limitExceeded` when the source could not save it and the bytes it offered instead passed
    ///   `DesktopWindow.Options.maximumDropSize` (the file is removed), `ownerGone` or `timedOut` when the source
    ///   died or stayed silent.
    public func receivePromisedFile(into directory: URL) async throws -> URL {
        try await handle.receivePromisedFile(into: directory, limit: maximumSize)
    }

    /// Refuses the drop: the source is told that nothing was performed and keeps its items.
    public func decline() async {
        guard (try? settle()) != nil else { return }
        await handle.finish(performed: nil)
    }

    /// Marks the drop taken or declined; throws when it already was.
    private func settle() throws(TransferSessionError) {
        let first = isSettled.withLock { settled in
            defer { settled = true }
            return !settled
        }
        guard first else {
            throw TransferSessionError(
                code: .sessionEnded, message: "This desktop drop was already performed or declined.",
                source: source)
        }
    }

    /// The display protocol's action for a drop that did `operation`: a move only where the source offered one
    /// (a TransferKit session may move where the protocol offered only a copy).
    private func performedAction(_ operation: DropOperation) -> DesktopDragAction? {
        switch operation {
        case .move: handle.sourceActions.contains(.move) ? .move : handle.sourceActions.first ?? .copy
        case .copy: handle.sourceActions.contains(.copy) ? .copy : handle.action
        case .cancel, .forbidden: nil
        }
    }

    /// The source's session offer, when it offers a valid one.
    private func sessionOffer() async -> DesktopSessionOffer? {
        let handle = handle
        guard let name = handle.targets.first(where: DesktopSessionOffer.isOfferName),
            let bytes = try? await ClipboardTypeMapping.hintBytes(
                limit: DesktopSessionOffer.maximumLength, { try await handle.receive(name) })
        else { return nil }
        return DesktopSessionOffer.decode(bytes)
    }

    /// A drop through the display protocol alone: one item of the offered types, performed as `operation`.
    private func performFromProgram<Value>(
        operation: DropOperation, commit: (DropSession, DropOperation) async throws -> Value
    ) async throws(TransferSessionError) -> DropResult<Value> {
        let handle = handle
        let names = handle.targets.filter { !DesktopSessionOffer.isOfferName($0) }
        // A TransferKit source's converted copies are converted here instead, as a clipboard read does.
        // Every representation of the drop draws on one budget: a source that never ends fails this drop alone.
        let budget = DropBudget(limit: maximumSize)
        let provider = ClipboardTypeMapping.provider(offering: names, catalog: catalog) {
            name, progress in
            let stream = try await handle.receive(name)
            return TransferByteStream(
                length: nil,
                budget.limiting(ReceivedChunks(stream: stream, progress: progress, keep: handle), name: name))
        }
        let id = TransferItemID(source ?? "desktop-drop")
        let session = DropSession(
            localDragSession: nil, items: [DragItem(id: id, provider: provider)], operation: operation,
            intent: proposal.intent, isSameProcess: false)
        let value: Value
        do {
            try Task.checkCancellation()
            value = try await commit(session, operation)
        } catch {
            throw DragSession.commitError(error, sessionID: DragSession.ID(rawValue: source ?? "desktop-drop"))
        }
        return DropResult(operation: operation, value: value, transferredItems: [id], unavailableItems: [])
    }
}
