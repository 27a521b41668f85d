public import TransferKit
import TransferKitPlatform

/// An ordered list of models that takes part in drags and drops by itself: it starts drag sessions for its
/// elements, reserves and removes them as a move's source, and inserts what is dropped on it, reordering in
/// place when the drag came from the list itself.
///
/// Reordering within the list and moving between lists are one mechanism: a drop on the list that dragged the
/// elements moves them in place (no `isReordering` flag), a drop on another list inserts them there and then
/// removes them here. Elements are named by identity, so the app may edit the list while a drag is in flight.
///
/// **Indexes** are UIKit's, as for the array edits (`moveElements(withIDs:toIndex:)`): a drop's
/// index is the position the first dropped element has **after** the drop, as `destinationIndexPath` gives it. A
/// reorder of `a b c d` that drops `b` at 2 gives `a c b d`; a drop from elsewhere at 2 puts the new element at 2.
/// A list shown filtered (seed 002's category tabs) takes drops and proposals with the view's index through the
/// `inViewWhere:` forms, by the same rule as the array edits' filtered-view forms.
///
/// **Pinned elements** (seed 003) cannot be dragged, and a drop that would shift a pinned element from its
/// position is ``DropOperation/forbidden``.
///
/// **A stored order** (seed 002's `order` field) can be kept by the list itself: pass `renumbering: \.order` and
/// every element's field equals its index after every change (drops, removals by a move, ``edit(_:)``), so it is
/// never stale.
///
/// **Both sides' changes** — every change of the list (a drop on it, the removal of elements a move took
/// elsewhere, in this process or another, the app's own edits) is reported on ``changes()`` as a
/// `CollectionDifference`, so the source's table animates its removal as the destination's animates the insertion.
///
/// **Stored lists** — `init(storedIn:initialElements:decisions:isPinned:makeCopy:makeProvider:)` keeps the list
/// in a directory, written durably at every change, and makes a move between two processes exactly-once even when
/// either is killed: the list marks what a move has in flight, decides in a ``SessionDecisionRecord`` and settles
/// by it when it is opened again (Schemas/transfer-session.md section 6).
///
/// ```swift
/// let left = TransferList(models)
/// let right = TransferList([Model](), renumbering: \.order)
/// let session = try left.beginDrag([models[0].id])
/// let result = try await right.drop(session, at: 0)   // a move: in `right` once, gone from `left`
/// ```
public final class TransferList<Element>: DragSource, Sendable
where Element: Identifiable & Sendable, Element.ID: LosslessStringConvertible & Sendable {
    struct State {
        var elements: [Element]
        /// The elements each session's move has reserved.
        var reserved: [DragSession.ID: Set<Element.ID>] = [:]
        /// Sessions whose move this list already carried out in place (a reorder): their removal is done.
        var placedInPlace: Set<DragSession.ID> = []
        /// A stored list's elements that moves into it brought and nobody decided yet, by session.
        var pending: [String: [String]] = [:]
        /// A stored list's elements reserved by moves out of it, by session, until the move is settled.
        var outgoing: [String: [String]] = [:]
        /// The streams of ``changes()``.
        var subscribers: [Int: AsyncStream<Change>.Continuation] = [:]
        var nextSubscriber = 0
    }

    let state: SanitizedMutex<State>
    /// Where a stored list lives; `nil` for a list in memory.
    let storage: Storage?
    private let isPinned: @Sendable (Element) -> Bool
    /// The field that holds each element's index, kept up to date after every change.
    private let order: (any WritableKeyPath<Element, Int> & Sendable)?
    private let makeCopy: @Sendable (Element) -> Element
    private let makeProvider: @Sendable (Element) -> TransferProvider

    /// A list.
    /// - Parameters:
    ///   - elements: The elements; their identities must be distinct.
    ///   - isPinned: Which elements stay where they are (seed 003's fixed cells).
    ///   - makeCopy: The element a copy drop inserts: the same content under a new identity. By default a copy
    ///     keeps the identity, and a copy into a list that has it is refused.
    ///   - makeProvider: The provider a dragged element carries to other processes. By default an empty one:
    ///     same-process drops use the element itself.
    public convenience init(
        _ elements: [Element], isPinned: @escaping @Sendable (Element) -> Bool = { _ in false },
        makeCopy: @escaping @Sendable (Element) -> Element = { $0 },
        makeProvider: @escaping @Sendable (Element) -> TransferProvider = { _ in TransferProvider() }
    ) {
        self.init(storing: elements, isPinned: isPinned, makeCopy: makeCopy, makeProvider: makeProvider, order: nil)
    }

    /// A list that keeps each element's `order`-style field equal to its index, now and after every change
    /// (seed 002's `order`): `TransferList(covers, renumbering: \.order)`.
    /// - Parameters:
    ///   - elements: The elements; their identities must be distinct.
    ///   - isPinned: Which elements stay where they are (seed 003's fixed cells).
    ///   - makeCopy: The element a copy drop inserts: the same content under a new identity. By default a copy
    ///     keeps the identity, and a copy into a list that has it is refused.
    ///   - makeProvider: The provider a dragged element carries to other processes. By default an empty one:
    ///     same-process drops use the element itself.
    ///   - renumbering: The field the list sets to each element's index after every drop, removal and
    ///     ``edit(_:)``.
    public convenience init(
        _ elements: [Element], isPinned: @escaping @Sendable (Element) -> Bool = { _ in false },
        makeCopy: @escaping @Sendable (Element) -> Element = { $0 },
        makeProvider: @escaping @Sendable (Element) -> TransferProvider = { _ in TransferProvider() },
        renumbering: any WritableKeyPath<Element, Int> & Sendable
    ) {
        self.init(
            storing: elements, isPinned: isPinned, makeCopy: makeCopy, makeProvider: makeProvider, order: renumbering)
    }

    init(
        storing elements: [Element], storage: Storage? = nil, isPinned: @escaping @Sendable (Element) -> Bool,
        makeCopy: @escaping @Sendable (Element) -> Element,
        makeProvider: @escaping @Sendable (Element) -> TransferProvider,
        order: (any WritableKeyPath<Element, Int> & Sendable)?
    ) {
        var elements = elements
        if let order {
            elements.renumber(order)
        }
        state = SanitizedMutex(State(elements: elements))
        self.order = order
        self.storage = storage
        self.isPinned = isPinned
        self.makeCopy = makeCopy
        self.makeProvider = makeProvider
    }

    /// A list of elements that write their own representations: a dragged element carries a provider of the
    /// element itself (`TransferProvider(object:)`), so drops in other processes can load it.
    /// - Parameters:
    ///   - elements: The elements; their identities must be distinct.
    ///   - isPinned: Which elements stay where they are (seed 003's fixed cells).
    ///   - makeCopy: The element a copy drop inserts: the same content under a new identity.
    ///   - makeProvider: The provider a dragged element carries to other processes.
    public convenience init(
        _ elements: [Element], isPinned: @escaping @Sendable (Element) -> Bool = { _ in false },
        makeCopy: @escaping @Sendable (Element) -> Element = { $0 },
        makeProvider: @escaping @Sendable (Element) -> TransferProvider = { TransferProvider(object: $0) }
    ) where Element: TransferProviderWriting {
        self.init(storing: elements, isPinned: isPinned, makeCopy: makeCopy, makeProvider: makeProvider, order: nil)
    }

    /// A list of elements that write their own representations, keeping each element's `order`-style field equal
    /// to its index, now and after every change (seed 002's `order`): `TransferList(covers, renumbering: \.order)`.
    /// - Parameters:
    ///   - elements: The elements; their identities must be distinct.
    ///   - isPinned: Which elements stay where they are (seed 003's fixed cells).
    ///   - makeCopy: The element a copy drop inserts: the same content under a new identity.
    ///   - makeProvider: The provider a dragged element carries to other processes.
    ///   - renumbering: The field the list sets to each element's index after every drop, removal and
    ///     ``edit(_:)``.
    public convenience init(
        _ elements: [Element], isPinned: @escaping @Sendable (Element) -> Bool = { _ in false },
        makeCopy: @escaping @Sendable (Element) -> Element = { $0 },
        makeProvider: @escaping @Sendable (Element) -> TransferProvider = { TransferProvider(object: $0) },
        renumbering: any WritableKeyPath<Element, Int> & Sendable
    ) where Element: TransferProviderWriting {
        self.init(
            storing: elements, isPinned: isPinned, makeCopy: makeCopy, makeProvider: makeProvider, order: renumbering)
    }

    /// The elements, in order.
    public var elements: [Element] {
        state.withLock { $0.elements }
    }

    deinit {
        let subscribers = state.withLock { state in
            defer { state.subscribers = [:] }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.finish() }
    }

    /// Changes the list outside any drop (the app's own edits, which may happen while a drag is in flight); the
    /// change is reported on ``changes()`` too.
    ///
    /// A list made with `renumbering:` renumbers its elements after `body`, whatever `body` set their field to.
    /// - Returns: The change.
    /// - Throws: ``TransferSessionError`` with `storeUnavailable` when a stored list cannot write the change; the
    ///   list is unchanged then. A list in memory never throws.
    @discardableResult
    public func edit(_ body: (inout [Element]) -> Void) throws(TransferSessionError) -> CollectionDifference<Element> {
        try state.withLock { state throws(TransferSessionError) in
            try change(&state, .edited) { next throws(TransferSessionError) in body(&next.elements) }
        }
    }

    /// Makes a change of the list: `body` changes a copy of the state, a stored list writes the copy, and only then
    /// does the copy become the state and its difference go to ``changes()``.
    /// - Parameters:
    ///   - mustApply: Whether the change stands even when a stored list cannot write it (a removal the destination
    ///     of a move committed): the file catches up at the next change, or the decision record settles it.
    /// - Returns: The difference of the elements.
    func change(
        _ state: inout State, _ cause: Change.Cause, mustApply: Bool = false,
        _ body: (inout State) throws(TransferSessionError) -> Void
    ) throws(TransferSessionError) -> CollectionDifference<Element> {
        var next = state
        try body(&next)
        if let order {
            next.elements.renumber(order)
        }
        if let storage {
            do {
                try storage.write(next)
            } catch {
                guard mustApply else { throw error }
            }
        }
        let difference = next.elements.identityDifference(from: state.elements)
        state = next
        if !difference.isEmpty {
            let change = Change(cause: cause, difference: difference, elements: state.elements)
            for subscriber in state.subscribers.values { subscriber.yield(change) }
        }
        return difference
    }

    // MARK: - Dragging from the list

    /// Starts a drag of the elements with `ids`, in the order the list has them.
    /// - Throws: ``TransferSessionError`` with code `forbiddenByList` when an element is pinned or not in the
    ///   list.
    public func beginDrag(
        _ ids: [Element.ID], localContext: (any Sendable)? = nil, allowsMoveOperation: Bool = true,
        allowsMoveToOtherApplications: Bool = false, origin: TransferSessionOrigin = .current
    ) throws(TransferSessionError) -> DragSession {
        let wanted = Set(ids)
        let picked = elements.filter { wanted.contains($0.id) }
        if let pinned = picked.first(where: isPinned) {
            throw TransferSessionError(
                code: .forbiddenByList, message: "The element \(pinned.id) is pinned and cannot be dragged.",
                source: "\(pinned.id)")
        }
        guard picked.count == wanted.count else {
            let missing = wanted.subtracting(picked.map(\.id)).map { "\($0)" }.sorted()
            throw TransferSessionError(
                code: .forbiddenByList,
                message: "The list has no element \(missing.joined(separator: ", ")); drag what it shows.",
                source: missing.first)
        }
        let items = picked.map {
            DragItem(id: TransferItemID($0.id.description), provider: makeProvider($0), localObject: $0)
        }
        return DragSession(
            items: items, source: self, localContext: localContext, allowsMoveOperation: allowsMoveOperation,
            allowsMoveToOtherApplications: allowsMoveToOtherApplications, origin: origin)
    }

    // MARK: - DragSource

    /// Reserves the elements the list still holds and no other session has reserved. A stored list marks them
    /// durably as leaving for `session` first, and reserves nothing when it cannot.
    public func reserve(_ items: [TransferItemID], for session: DragSession.ID) async -> [TransferItemID] {
        state.withLock { state in
            let taken = state.reserved.values.reduce(into: Set<Element.ID>()) { $0.formUnion($1) }
            let present = Set(state.elements.map(\.id))
            var granted: [TransferItemID] = []
            var ids: Set<Element.ID> = []
            for item in items {
                guard let id = Element.ID(item.rawValue), present.contains(id), !taken.contains(id) else {
                    continue
                }
                if ids.insert(id).inserted {
                    granted.append(item)
                }
            }
            guard storage != nil, !granted.isEmpty else {
                state.reserved[session] = ids
                return granted
            }
            let marked = try? change(&state, .edited) { next throws(TransferSessionError) in
                next.reserved[session] = ids
                next.outgoing[session.rawValue] = granted.map(\.rawValue)
            }
            return marked == nil ? [] : granted
        }
    }

    /// Removes the reserved elements, unless the list already moved them in place; the removal is reported on
    /// ``changes()`` as ``Change/Cause/movedAway(_:)``.
    public func remove(_ items: [TransferItemID], for session: DragSession.ID) async {
        state.withLock { state in
            let reserved = state.reserved.removeValue(forKey: session) ?? []
            if state.placedInPlace.remove(session) != nil {
                return
            }
            let ids = Set(items.compactMap { Element.ID($0.rawValue) }).intersection(reserved)
            _ = try? change(&state, .movedAway(session), mustApply: true) { next throws(TransferSessionError) in
                next.elements.removeElements(withIDs: ids)
                next.outgoing[session.rawValue] = nil
            }
        }
    }

    /// Ends the reservation; the elements stay. (A stored list whose decision record says the move was committed
    /// removes them instead: the destination has them.)
    public func release(_ items: [TransferItemID], for session: DragSession.ID) async {
        state.withLock { state in
            state.placedInPlace.remove(session)
            let reserved = state.reserved.removeValue(forKey: session) ?? []
            guard let storage, state.outgoing[session.rawValue] != nil else { return }
            let decision: SessionDecisionRecord.Decision?
            do {
                decision = try storage.record.decision(for: session)
            } catch {
                // The record cannot be read: the mark stays (the next write keeps it), and opening the list again
                // settles it.
                return
            }
            let committed = decision?.outcome == .committed
            _ = try? change(&state, committed ? .movedAway(session) : .edited, mustApply: true) {
                next throws(TransferSessionError) in
                if committed { next.elements.removeElements(withIDs: reserved) }
                next.outgoing[session.rawValue] = nil
            }
        }
    }

    /// The record of a stored list, in which its moves to and from other processes are decided; `nil` for a list in
    /// memory.
    public var decisions: SessionDecisionRecord? { storage?.record }

    // MARK: - Dropping on the list

    /// What a drop of `session` at `index` would do: `operation` as the session resolves it, or
    /// ``DropOperation/forbidden`` when it would shift a pinned element.
    /// - Parameters:
    ///   - session: The drag passing over the list.
    ///   - index: UIKit's destination index: the position the first dropped element would have after the drop (for
    ///     a reorder, counted without the dragged elements).
    ///   - operation: The operation the list would propose.
    ///   - destination: The application and process of this list.
    public func proposal(
        for session: DragSession, at index: Int, operation: DropOperation = .move,
        destination: TransferSessionOrigin = .current
    ) -> DropProposal {
        proposal(for: session, at: index, inViewWhere: { _ in true }, operation: operation, destination: destination)
    }

    /// What a drop of `session` at `index` of a filtered view of the list would do (a category tab, seed 002):
    /// `operation` as the session resolves it, or ``DropOperation/forbidden`` when it would shift a pinned element.
    ///
    /// The view shows the elements for which `isShown` is true, and `index` counts its rows, as
    /// `drop(_:at:inViewWhere:operation:destination:)` counts them.
    /// - Parameters:
    ///   - session: The drag passing over the list.
    ///   - index: UIKit's destination index in the view: the position among the shown elements the first dropped
    ///     element would have after the drop (for a reorder, counted without the dragged elements).
    ///   - isShown: Which elements the view shows. It is called while the list is locked, so it must not use the
    ///     list.
    ///   - operation: The operation the list would propose.
    ///   - destination: The application and process of this list.
    /// - Returns: The proposal, its intent `insertAtIndex(index)` with the view's index.
    public func proposal(
        for session: DragSession, at index: Int, inViewWhere isShown: (Element) -> Bool,
        operation: DropOperation = .move, destination: TransferSessionOrigin = .current
    ) -> DropProposal {
        let resolved = session.resolvedOperation(for: operation, at: destination)
        let intent = DropIntent.insertAtIndex(index)
        guard resolved.transfersItems else {
            return DropProposal(operation: resolved, intent: intent)
        }
        let ids = session.items.compactMap { Element.ID($0.id.rawValue) }
        let allowed = state.withLock { state in
            guard session.source === self && resolved == .move else {
                let target = state.elements.insertionIndex(ofViewGap: index, inViewWhere: isShown)
                return pinnedStay(in: state.elements, insertingCount: ids.count, at: target)
            }
            var after = state.elements
            after.moveElements(withIDs: ids, toIndex: index, inViewWhere: isShown)
            return pinnedStay(from: state.elements, to: after)
        }
        return DropProposal(operation: allowed ? resolved : .forbidden, intent: intent)
    }

    /// Drops `session` at `index`: in place when the drag came from this list and moves, else by loading the
    /// items (local objects as they are) and inserting them, copies made with `makeCopy`. The change is reported on
    /// ``changes()`` too, and the source's removal on the source's.
    ///
    /// A stored list writes the change before the drop commits; a move between two stored lists that share a
    /// decision record is decided in it, so it stays exactly-once if the process dies before the source's removal
    /// is written.
    /// - Parameters:
    ///   - session: The drag to drop.
    ///   - index: UIKit's destination index: the position the first dropped element has after the drop (for a
    ///     reorder, counted without the dragged elements, as `moveElements(withIDs:toIndex:)`
    ///     counts); clamped to the list.
    ///   - operation: The operation to propose: ``DropOperation/move`` or ``DropOperation/copy``.
    ///   - destination: The application and process of this list.
    /// - Returns: What happened, with the list's change as the value.
    /// - Throws: The errors of ``DragSession/drop(_:on:commit:)``, and `forbiddenByList` when the drop would shift
    ///   a pinned element or bring an identity the list already has (nothing moves then either).
    public func drop(
        _ session: DragSession, at index: Int, operation: DropOperation = .move,
        destination: TransferSessionOrigin = .current
    ) async throws(TransferSessionError) -> DropResult<CollectionDifference<Element>>
    where Element: TransferProviderReading {
        try await drop(session, at: index, inViewWhere: { _ in true }, operation: operation, destination: destination)
    }

    /// Drops `session` at `index` of a filtered view of the list (a category tab, seed 002), as
    /// `drop(_:at:operation:destination:)` drops on the whole list.
    ///
    /// The view shows the elements for which `isShown` is true, and `index` counts its rows. A reorder moves the
    /// dragged elements as `moveElements(withIDs:toIndex:inViewWhere:)` does: next to the view's neighbour they
    /// passed. Elements from elsewhere go where `insertElements(_:at:inViewWhere:)` puts them: right before the
    /// view's element at `index`, at the list's end when `index` is the view's end. The elements the view does not
    /// show keep their order, a list made with `renumbering:` renumbers the whole list, and a drop that would shift a
    /// pinned element is refused, as in the whole list.
    ///
    /// ```swift
    /// // All: a b c d e f, the family tab shows a c d f. Drag a to row 2 of the family tab:
    /// _ = try await books.drop(try books.beginDrag(["a"]), at: 2, inViewWhere: { $0.category == "family" })
    /// // family: c d a f; All: b c d a e f
    /// ```
    /// - Parameters:
    ///   - session: The drag to drop.
    ///   - index: UIKit's destination index in the view: the position among the shown elements the first dropped
    ///     element has after the drop (for a reorder, counted without the dragged elements); clamped to the view.
    ///   - isShown: Which elements the view shows. It is called while the list is locked, so it must not use the
    ///     list. It is `@Sendable` because the drop awaits: a main-actor caller captures the tab it shows as a value
    ///     (`let tab = self.tab; … { $0.category == tab }`).
    ///   - operation: The operation to propose: ``DropOperation/move`` or ``DropOperation/copy``.
    ///   - destination: The application and process of this list.
    /// - Returns: What happened, with the list's change as the value.
    /// - Throws: The errors of ``DragSession/drop(_:on:commit:)``, and `forbiddenByList` when the drop would shift
    ///   a pinned element or bring an identity the list already has (nothing moves then either).
    public func drop(
        _ session: DragSession, at index: Int, inViewWhere isShown: @Sendable (Element) -> Bool,
        operation: DropOperation = .move, destination: TransferSessionOrigin = .current
    ) async throws(TransferSessionError) -> DropResult<CollectionDifference<Element>>
    where Element: TransferProviderReading {
        let proposal = DropProposal(operation: operation, intent: .insertAtIndex(index))
        // A move from another stored list of the same record is decided in it, as across processes.
        let record = decidesMove(from: session.source) ? storage?.record : nil
        do throws(TransferSessionError) {
            let result = try await session.drop(proposal, on: destination) { drop, resolved in
                if resolved == .move, session.source === self {
                    return try self.moveInPlace(drop.items, to: index, inViewWhere: isShown, for: session.id)
                }
                let loaded = try await drop.loadObjects(ofClass: Element.self)
                let pending = resolved == .move && record != nil
                let change = try self.insert(
                    resolved == .copy ? loaded.map(self.makeCopy) : loaded, at: index, inViewWhere: isShown,
                    for: session.id, pending: pending)
                if pending, let record {
                    try self.decideCommitted(session.id, items: drop.items.map(\.id), in: record)
                }
                return change
            }
            settle(session.id)
            return result
        } catch {
            settle(session.id)
            throw error
        }
    }

    /// Drops a drag published by another process at `index`: loads the items from there and inserts them (copies
    /// made with `makeCopy`); for a move, the other process removes its items once this commit is done.
    ///
    /// A stored list needs nothing more for a move that survives a crash of either process: it stores the items
    /// marked pending for the session before it commits, the drop decides `committed` in the list's record, and the
    /// list keeps or drops the pending items by the record when the drop ends, or when it is opened again after a
    /// crash.
    /// - Parameters:
    ///   - remote: The drag, connected with ``RemoteDragSession/connect(toPath:origin:timeout:observer:)``.
    ///   - index: UIKit's destination index: the position the first dropped element has after the drop; clamped to
    ///     the list.
    ///   - operation: The operation to propose: ``DropOperation/move`` or ``DropOperation/copy``.
    ///   - decisions: For a list in memory, the record shared with the source, for a move that survives a crash
    ///     (see ``SessionDecisionRecord``: an in-memory list has nothing to recover, so it rarely needs one). A
    ///     stored list decides in its own record (``decisions``) and ignores this.
    /// - Returns: What happened, with the list's change as the value.
    /// - Throws: The errors of ``RemoteDragSession/drop(_:decisions:commit:)``, and `forbiddenByList` as for a drop
    ///   in this process.
    public func drop(
        _ remote: RemoteDragSession, at index: Int, operation: DropOperation = .move,
        decisions: SessionDecisionRecord? = nil
    ) async throws(TransferSessionError) -> DropResult<CollectionDifference<Element>>
    where Element: TransferProviderReading {
        try await drop(remote, at: index, inViewWhere: { _ in true }, operation: operation, decisions: decisions)
    }

    /// Drops a drag published by another process at `index` of a filtered view of the list (a category tab, seed
    /// 002), as `drop(_:at:operation:decisions:)` drops on the whole list.
    ///
    /// The view shows the elements for which `isShown` is true, and `index` counts its rows: the items go where
    /// `insertElements(_:at:inViewWhere:)` puts them, right before the view's element at `index`, at the list's end
    /// when `index` is the view's end.
    /// - Parameters:
    ///   - remote: The drag, connected with ``RemoteDragSession/connect(toPath:origin:timeout:observer:)``.
    ///   - index: UIKit's destination index in the view: the position among the shown elements the first dropped
    ///     element has after the drop; clamped to the view.
    ///   - isShown: Which elements the view shows. It is called while the list is locked, so it must not use the
    ///     list. It is `@Sendable` because the drop awaits: a main-actor caller captures the tab it shows as a value
    ///     (`let tab = self.tab; … { $0.category == tab }`).
    ///   - operation: The operation to propose: ``DropOperation/move`` or ``DropOperation/copy``.
    ///   - decisions: For a list in memory, the record shared with the source, for a move that survives a crash. A
    ///     stored list decides in its own record (``decisions``) and ignores this.
    /// - Returns: What happened, with the list's change as the value.
    /// - Throws: The errors of ``RemoteDragSession/drop(_:decisions:commit:)``, and `forbiddenByList` as for a drop
    ///   in this process.
    public func drop(
        _ remote: RemoteDragSession, at index: Int, inViewWhere isShown: @Sendable (Element) -> Bool,
        operation: DropOperation = .move, decisions: SessionDecisionRecord? = nil
    ) async throws(TransferSessionError) -> DropResult<CollectionDifference<Element>>
    where Element: TransferProviderReading {
        let proposal = DropProposal(operation: operation, intent: .insertAtIndex(index))
        do throws(TransferSessionError) {
            let result = try await remote.drop(proposal, decisions: storage?.record ?? decisions) { drop, resolved in
                let loaded = try await drop.loadObjects(ofClass: Element.self)
                return try self.insert(
                    resolved == .copy ? loaded.map(self.makeCopy) : loaded, at: index, inViewWhere: isShown,
                    for: remote.id, pending: resolved == .move && self.storage != nil)
            }
            settle(remote.id)
            return result
        } catch {
            settle(remote.id)
            throw error
        }
    }

    private func moveInPlace(
        _ items: [DragItem], to index: Int, inViewWhere isShown: (Element) -> Bool, for session: DragSession.ID
    ) throws(TransferSessionError) -> CollectionDifference<Element> {
        try state.withLock { state throws(TransferSessionError) in
            let ids = items.compactMap { Element.ID($0.id.rawValue) }
            var after = state.elements
            after.moveElements(withIDs: ids, toIndex: index, inViewWhere: isShown)
            guard pinnedStay(from: state.elements, to: after) else {
                throw Self.pinnedError()
            }
            return try change(&state, .dropped(session)) { next throws(TransferSessionError) in
                next.elements = after
                next.placedInPlace.insert(session)
                // Nothing leaves the list: the move is over for a stored list too.
                next.outgoing[session.rawValue] = nil
            }
        }
    }

    /// Inserts dropped elements at `index` of the view `isShown` picks; a stored list marks them pending for
    /// `session` when `pending` (a move that the decision record settles).
    private func insert(
        _ incoming: [Element], at index: Int, inViewWhere isShown: (Element) -> Bool, for session: DragSession.ID,
        pending: Bool
    ) throws(TransferSessionError) -> CollectionDifference<Element> {
        try state.withLock { state throws(TransferSessionError) in
            let present = Set(state.elements.map(\.id))
            if let duplicate = incoming.first(where: { present.contains($0.id) }) {
                throw TransferSessionError(
                    code: .forbiddenByList,
                    message: "The list already has an element \(duplicate.id); give copies a new identity (makeCopy).",
                    source: "\(duplicate.id)")
            }
            let target = state.elements.insertionIndex(ofViewGap: index, inViewWhere: isShown)
            guard pinnedStay(in: state.elements, insertingCount: incoming.count, at: target) else {
                throw Self.pinnedError()
            }
            return try change(&state, .dropped(session)) { next throws(TransferSessionError) in
                next.elements.insertElements(incoming, at: target)
                if pending {
                    next.pending[session.rawValue] = incoming.map(\.id.description)
                }
            }
        }
    }

    private static func pinnedError() -> TransferSessionError {
        TransferSessionError(
            code: .forbiddenByList, message: "The drop would shift a pinned element; drop somewhere else.")
    }

    /// Whether every pinned element keeps its position from `before` to `after`.
    private func pinnedStay(from before: [Element], to after: [Element]) -> Bool {
        let positions = Dictionary(after.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        return before.enumerated().allSatisfy { index, element in
            !isPinned(element) || positions[element.id] == index
        }
    }

    /// Whether inserting `count` elements at `index` keeps every pinned element where it is: none at or after
    /// the insertion point.
    private func pinnedStay(in elements: [Element], insertingCount count: Int, at index: Int) -> Bool {
        let target = min(max(index, 0), elements.count)
        return count == 0 || !elements[target...].contains(where: isPinned)
    }
}
