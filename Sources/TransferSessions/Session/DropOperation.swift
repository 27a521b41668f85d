/// What a drop does with the dragged items: UIKit's `UIDropOperation`.
public enum DropOperation: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// No data moves; the drag ends as if never dropped.
    case cancel
    /// The destination would normally accept the items but refuses them here; no data moves.
    case forbidden
    /// The destination gets copies; the source keeps its items.
    case copy
    /// The destination gets the items and the source loses them, each exactly once. Allowed only when the drag
    /// session allows it (see ``DragSession/resolvedOperation(for:at:)``); otherwise it resolves to ``cancel``.
    case move

    /// Whether items reach the destination.
    public var transfersItems: Bool { self == .copy || self == .move }

    /// The operation's name, such as `move`.
    public var description: String { rawValue }
}

/// Where a drop puts its items: UIKit's `UICollectionViewDropProposal.Intent` and `UITableViewDropProposal.Intent`.
public enum DropIntent: Sendable, Hashable {
    /// The destination decides (a canvas, a drop zone).
    case unspecified
    /// Insert so that the first item is at this position of the destination list after the drop (UIKit's
    /// `destinationIndexPath`; a reorder counts the list without the dragged elements).
    case insertAtIndex(Int)
    /// Drop onto the destination's element with this identity (into a folder, onto a card).
    case insertIntoItem(TransferItemID)
}

/// A destination's answer to a drag passing over it: what it would do with the items, and where.
public struct DropProposal: Sendable, Hashable {
    /// What the destination proposes.
    public var operation: DropOperation
    /// Where the items would go.
    public var intent: DropIntent

    /// A proposal.
    public init(operation: DropOperation, intent: DropIntent = .unspecified) {
        self.operation = operation
        self.intent = intent
    }
}
