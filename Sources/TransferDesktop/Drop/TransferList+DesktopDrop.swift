public import TransferKit
public import TransferSessions

extension TransferList {
    /// Drops a desktop drop on the list at `index`, the way the list takes a drag of this process or one published
    /// by another: a TransferKit drag goes through the list's own ``TransferList/drop(_:at:operation:destination:)``
    /// or `drop(_:at:operation:decisions:)` (a stored list marks, decides and settles the move itself, so it stays
    /// exactly-once when either process dies); another program's drop inserts the item it offers, read as `Element`.
    /// Then the display protocol is finished with the operation performed.
    ///
    /// ```swift
    /// for try await drop in window.drops({ _ in DropProposal(operation: .move) }) {
    ///     let result = try await cards.drop(drop, at: 0)
    ///     try await window.show(lines: cards.elements.map(\.name))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - drop: The drop, from ``DesktopWindow/drops(_:)``.
    ///   - index: UIKit's destination index: the position the first dropped element has after the drop; clamped to
    ///     the list.
    ///   - operation: The operation to propose for a TransferKit drag (another program's drop does what its display
    ///     protocol accepted).
    /// - Returns: What happened, with the list's change as the value.
    /// - Throws: The errors of the list's drops (``TransferSessionError``); `commitFailed` when another program's
    ///   item cannot be read as `Element`.
    public func drop(
        _ drop: DesktopDrop, at index: Int, operation: DropOperation = .move
    ) async throws(TransferSessionError) -> DropResult<CollectionDifference<Element>>
    where Element: TransferProviderReading {
        try await self.drop(drop, at: index, inViewWhere: { _ in true }, operation: operation)
    }

    /// Drops a desktop drop at `index` of a filtered view of the list (a category tab, seed 002), as
    /// ``drop(_:at:operation:)`` drops on the whole list: a TransferKit drag goes through the list's own
    /// `drop(_:at:inViewWhere:operation:destination:)` or `drop(_:at:inViewWhere:operation:decisions:)`, another
    /// program's item is inserted where `insertElements(_:at:inViewWhere:)` puts it.
    ///
    /// The view shows the elements for which `isShown` is true, and `index` counts its rows: a reorder lands next
    /// to the view's neighbour the rows passed, an element from elsewhere right before the view's element at
    /// `index` (at the list's end when `index` is the view's end); the elements the view does not show keep their
    /// order.
    ///
    /// ```swift
    /// for try await drop in window.drops({ _ in DropProposal(operation: .move) }) {
    ///     _ = try await books.drop(drop, at: row, inViewWhere: { $0.category == "family" })
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - drop: The drop, from ``DesktopWindow/drops(_:)``.
    ///   - index: UIKit's destination index in the view: the position among the shown elements the first dropped
    ///     element has after the drop; clamped to the view.
    ///   - isShown: Which elements the view shows. It is called while the list is locked, so it must not use the
    ///     list. It is `@Sendable` because the drop awaits: a main-actor caller captures the tab it shows as a value
    ///     (`let tab = self.tab; … { $0.category == tab }`).
    ///   - operation: The operation to propose for a TransferKit drag (another program's drop does what its display
    ///     protocol accepted).
    /// - Returns: What happened, with the list's change as the value.
    /// - Throws: The errors of the list's drops (``TransferSessionError``); `commitFailed` when another program's
    ///   item cannot be read as `Element`.
    public func drop(
        _ drop: DesktopDrop, at index: Int, inViewWhere isShown: @Sendable (Element) -> Bool,
        operation: DropOperation = .move
    ) async throws(TransferSessionError) -> DropResult<CollectionDifference<Element>>
    where Element: TransferProviderReading {
        try await drop.perform(
            local: { session throws(TransferSessionError) in
                try await self.drop(session, at: index, inViewWhere: isShown, operation: operation)
            },
            remote: { remote throws(TransferSessionError) in
                try await self.drop(remote, at: index, inViewWhere: isShown, operation: operation)
            },
            program: { session, _ in
                let loaded = try await session.loadObjects(ofClass: Element.self)
                return try self.edit { $0.insertElements(loaded, at: index, inViewWhere: isShown) }
            })
    }
}
