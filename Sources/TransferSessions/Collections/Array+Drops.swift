/// Edits of ordered lists by identity, as drops make them: several elements at once, with the index adjusted
/// for the elements that leave, in a filtered view of the list, and the edit-mode "move row at → to" form. Each
/// returns the change as a `CollectionDifference` a UI applies as batch updates.
extension Array where Element: Identifiable {
    /// Moves the elements with the given identities to `destination`, keeping their order in the list.
    ///
    /// `destination` is a position in the list as it is now, with the moved elements still in place (where a
    /// user sees the gap open during a drag): the elements end up just before the element now at `destination`,
    /// or at the end for `count`. Identities not in the list are ignored, so a list edited during a drag never
    /// loses the wrong element.
    /// - Returns: The change, with moves inferred.
    @discardableResult
    public mutating func moveElements(
        withIDs ids: some Sequence<Element.ID>, toIndex destination: Int
    ) -> CollectionDifference<Element> {
        let old = self
        let wanted = Set(ids)
        let target = Swift.min(Swift.max(destination, 0), count)
        let moving = filter { wanted.contains($0.id) }
        let before = self[..<target].filter { wanted.contains($0.id) }.count
        removeAll { wanted.contains($0.id) }
        insert(contentsOf: moving, at: target - before)
        return identityDifference(from: old)
    }

    /// Moves the elements with the given identities to position `destination` of the view that shows only the
    /// elements for which `isShown` is true (a category tab of one list, seed 002), and so in the whole list:
    /// they go just before the element the view shows at `destination`, or after the last one it shows.
    ///
    /// Every view of the list then agrees on the order. Renumber an `order` field afterwards with
    /// ``renumber(_:from:)``.
    @discardableResult
    public mutating func moveElements(
        withIDs ids: some Sequence<Element.ID>, toIndex destination: Int, inViewWhere isShown: (Element) -> Bool
    ) -> CollectionDifference<Element> {
        let shown = indices.filter { isShown(self[$0]) }
        let target: Int
        if destination < 0 || shown.isEmpty {
            target = shown.first ?? count
        } else if destination < shown.count {
            target = shown[destination]
        } else {
            target = (shown.last ?? count - 1) + 1
        }
        return moveElements(withIDs: ids, toIndex: target)
    }

    /// The edit-mode reorder (UITableView's `moveRowAt:to:`, seed 004): the element at `source` ends up at
    /// `destination`, a position in the list after the move.
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

    /// Inserts `elements` at `destination` (clamped to the list) and returns the change.
    @discardableResult
    public mutating func insertElements(_ elements: [Element], at destination: Int) -> CollectionDifference<Element> {
        let old = self
        insert(contentsOf: elements, at: Swift.min(Swift.max(destination, 0), count))
        return identityDifference(from: old)
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
