/// Edits of ordered lists by identity, as drops make them: several elements at once, in a filtered view of the
/// list, and the edit-mode "move row at → to" form. Each returns the change as a `CollectionDifference` a UI applies
/// as batch updates.
///
/// Every index is UIKit's: the position an element has **after** the change, as `destinationIndexPath` gives it to
/// `performDropWith` and `moveRowAt:to:`, and as the seeds' remove-then-insert code uses it. Moving the only
/// element of `a b c d` from 1 to 2 gives `a c b d`. A toolkit that reports the gap under the pointer instead
/// (counted with the dragged rows still in place) converts it by subtracting the dragged rows before that gap.
extension Array where Element: Identifiable {
    /// Moves the elements with the given identities so that the first of them ends up at `destination`, the others
    /// right after it, in the order the list has them.
    ///
    /// `destination` is the first moved element's position after the move (UIKit's `destinationIndexPath`),
    /// clamped to the list without the moved elements, so `count` or more means "at the end". Identities not in the
    /// list are ignored, so a list edited during a drag never loses the wrong element.
    ///
    /// ```swift
    /// // rows: a b c d
    /// rows.moveElements(withIDs: ["b"], toIndex: 2)        // a c b d: b is now at 2
    /// rows.moveElements(withIDs: ["a", "d"], toIndex: 1)   // c a d b
    /// ```
    /// - Returns: The change, with moves inferred.
    @discardableResult
    public mutating func moveElements(
        withIDs ids: some Sequence<Element.ID>, toIndex destination: Int
    ) -> CollectionDifference<Element> {
        moveElements(withIDs: ids, toIndex: destination, inViewWhere: { _ in true })
    }

    /// Moves the elements with the given identities to position `destination` of the view that shows only the
    /// elements for which `isShown` is true (a category tab of one list, seed 002), and so in the whole list.
    ///
    /// `destination` is the first moved element's position in the view after the move, as the view's
    /// `destinationIndexPath` gives it; it is clamped to the view without the moved elements. In the whole list
    /// the moved elements land next to the view's neighbour they were dropped beside, the one they passed: after
    /// it when they moved down, before it when they moved up, and where they were when they stay within the same
    /// neighbours. Elements the view does not show keep their order, so every view of the list then agrees on the
    /// order, as seed 002's "All" tab does with its category tabs.
    ///
    /// ```swift
    /// // All: b1 (family), b2 (friends), b3 (family), b4 (friends). In the family tab (b1 b3), drag b1 to row 1:
    /// books.moveElements(withIDs: ["b1"], toIndex: 1, inViewWhere: { $0.category == "family" })
    /// // family: b3 b1; All: b2 b3 b1 b4
    /// ```
    ///
    /// A list that keeps a stored order renumbers it afterwards with ``renumber(_:from:)`` (``TransferList`` can
    /// do it by itself).
    /// - Returns: The change, with moves inferred.
    @discardableResult
    public mutating func moveElements(
        withIDs ids: some Sequence<Element.ID>, toIndex destination: Int, inViewWhere isShown: (Element) -> Bool
    ) -> CollectionDifference<Element> {
        let old = self
        let wanted = Set(ids)
        let moving = filter { wanted.contains($0.id) }
        guard let first = moving.first else {
            return identityDifference(from: old)
        }
        // Where the first moved element would be if it stayed: the elements that stay before it.
        var staying = 0
        for element in self {
            if element.id == first.id {
                break
            }
            if !wanted.contains(element.id) {
                staying += 1
            }
        }
        removeAll { wanted.contains($0.id) }
        insert(contentsOf: moving, at: index(ofViewGap: destination, inViewWhere: isShown, nearest: staying))
        return identityDifference(from: old)
    }

    /// The edit-mode reorder (UITableView's `moveRowAt:to:`, seed 004): the element at `source` ends up at
    /// `destination`, its position after the move.
    /// - Returns: The change, or `nil` when either position is outside the list (nothing changes).
    @discardableResult
    public mutating func moveRow(at source: Int, to destination: Int) -> CollectionDifference<Element>? {
        guard indices.contains(source), indices.contains(destination) else {
            return nil
        }
        let old = self
        insert(remove(at: source), at: destination)
        return identityDifference(from: old)
    }

    /// Inserts `elements` so that the first of them is at `destination` (clamped to the list) and returns the
    /// change.
    @discardableResult
    public mutating func insertElements(_ elements: [Element], at destination: Int) -> CollectionDifference<Element> {
        insertElements(elements, at: destination, inViewWhere: { _ in true })
    }

    /// Inserts `elements` at position `destination` of the view that shows only the elements for which `isShown`
    /// is true (a category tab of one list, seed 002), and so in the whole list: a drop from elsewhere into a
    /// filtered view.
    ///
    /// `destination` is the first inserted element's position in the view after the drop, as the view's
    /// `destinationIndexPath` gives it; it is clamped to the view. In the whole list the elements go right before the
    /// view's element that was at `destination`, as seed 002 puts a cover at its target's `order`, and at the list's
    /// end when `destination` is the view's end: where ``moveElements(withIDs:toIndex:inViewWhere:)`` would put them
    /// if they had been at the end of the list. The elements the view does not show keep their order.
    ///
    /// ```swift
    /// // All: b1 (family), b2 (friends), b3 (family), b4 (friends). Drop b5 on row 1 of the family tab (b1 b3):
    /// books.insertElements([b5], at: 1, inViewWhere: { $0.category == "family" })
    /// // family: b1 b5 b3; All: b1 b2 b5 b3 b4
    /// ```
    /// - Returns: The change.
    @discardableResult
    public mutating func insertElements(
        _ elements: [Element], at destination: Int, inViewWhere isShown: (Element) -> Bool
    ) -> CollectionDifference<Element> {
        let old = self
        insert(contentsOf: elements, at: insertionIndex(ofViewGap: destination, inViewWhere: isShown))
        return identityDifference(from: old)
    }

    /// Where ``insertElements(_:at:inViewWhere:)`` puts new elements dropped in the gap at `slot` of the view: as
    /// if they came from the list's end, right before the view's element at `slot`, at the list's end past the view's
    /// last element.
    func insertionIndex(ofViewGap slot: Int, inViewWhere isShown: (Element) -> Bool) -> Int {
        index(ofViewGap: slot, inViewWhere: isShown, nearest: count)
    }

    /// Removes the elements with the given identities and returns the change.
    @discardableResult
    public mutating func removeElements(withIDs ids: some Sequence<Element.ID>) -> CollectionDifference<Element> {
        let old = self
        let wanted = Set(ids)
        removeAll { wanted.contains($0.id) }
        return identityDifference(from: old)
    }

    /// Sets each element's `order` to its position plus `start`, so a stored order agrees with the list's.
    public mutating func renumber(_ order: WritableKeyPath<Element, Int>, from start: Int = 0) {
        for index in indices {
            self[index][keyPath: order] = start + index
        }
    }

    /// Where in the whole list the gap at `slot` of a filtered view lies: the one rule that turns a view's index into
    /// the list's, for moves and insertions alike.
    ///
    /// The view shows the elements for which `isShown` is true. Its gap before its element `slot` (after its last
    /// one when `slot` is its count; `slot` is clamped to the view) lies between two shown elements, and in the
    /// whole list it spans every hidden element between them: any index from just after the shown element above to
    /// the shown element below. Of those, the one nearest `preferred` is chosen, so hidden elements move only when
    /// the dropped ones pass them.
    /// - Parameters:
    ///   - slot: The view's index, as UIKit's `destinationIndexPath` gives it (counted without moved elements,
    ///     which must not be in this list any more).
    ///   - isShown: Which elements the view shows.
    ///   - preferred: Where the elements would go if the gap allowed it: a moved element's place before the move,
    ///     the list's end for new elements.
    /// - Returns: An index in `0...count`.
    func index(ofViewGap slot: Int, inViewWhere isShown: (Element) -> Bool, nearest preferred: Int) -> Int {
        let shown = indices.filter { isShown(self[$0]) }
        let slot = Swift.min(Swift.max(slot, 0), shown.count)
        let lower = slot == 0 ? 0 : shown[slot - 1] + 1
        let upper = slot == shown.count ? count : shown[slot]
        return Swift.min(Swift.max(preferred, lower), upper)
    }

    /// The change from `old` to this list, elements matched by identity, with moves inferred: an element that
    /// changed position is a removal and an insertion associated with each other.
    public func identityDifference(from old: [Element]) -> CollectionDifference<Element> {
        let byIdentity = map(\.id).difference(from: old.map(\.id)).inferringMoves()
        let changes = byIdentity.map { change -> CollectionDifference<Element>.Change in
            switch change {
            case .insert(let offset, _, let associated):
                .insert(offset: offset, element: self[offset], associatedWith: associated)
            case .remove(let offset, _, let associated):
                .remove(offset: offset, element: old[offset], associatedWith: associated)
            }
        }
        // The changes come from a valid difference, so this always succeeds; the fallback keeps it total.
        return CollectionDifference(changes) ?? difference(from: old) { $0.id == $1.id }
    }
}
