public import TransferKit

/// One dragged item: its identity, a provider with its representations, and in the source's own process the
/// model object itself (UIKit's `UIDragItem` with its `localObject`).
public struct DragItem: Sendable {
    /// The item's identity in its source; a move removes the source's element with this identity.
    public var id: TransferItemID
    /// The item's representations, for destinations in other processes or that want another type.
    public var provider: TransferProvider
    /// The model object, handed over as is to destinations in the same process (no encoding); `nil` for items
    /// that came from another process.
    public var localObject: (any Sendable)?

    /// An item.
    public init(id: TransferItemID, provider: TransferProvider, localObject: (any Sendable)? = nil) {
        self.id = id
        self.provider = provider
        self.localObject = localObject
    }

    /// An item for an `Identifiable` model that writes its own representations: the provider carries the model,
    /// and the model is the local object.
    public init<Model: Identifiable & TransferProviderWriting>(_ model: Model)
    where Model.ID: LosslessStringConvertible {
        self.init(id: TransferItemID(of: model), provider: TransferProvider(object: model), localObject: model)
    }
}

/// The side a drag starts from, which holds the items and takes part in the two phases of a move.
///
/// A move is a transaction: ``reserve(_:for:)`` before the destination commits (the source confirms which items
/// it still holds and keeps other sessions from moving them), then ``remove(_:for:)`` only after the destination
/// committed, or ``release(_:for:)`` when it did not. ``TransferList`` implements all of it for an ordered list.
public protocol DragSource: AnyObject, Sendable {
    /// Confirms which of `items` the source still holds and reserves them for `session`'s move.
    /// - Returns: The reserved items; the others (removed, or reserved by another session) do not move.
    func reserve(_ items: [TransferItemID], for session: DragSession.ID) async -> [TransferItemID]

    /// Removes the reserved `items`: the destination has committed them.
    func remove(_ items: [TransferItemID], for session: DragSession.ID) async

    /// Ends the reservation of `items`: the move did not happen, the source keeps them.
    func release(_ items: [TransferItemID], for session: DragSession.ID) async

    /// The session ended with `operation`: ``DropOperation/cancel`` when it was never dropped or failed.
    func dragSession(_ session: DragSession, didEndWith operation: DropOperation) async

    /// The record in which this source's moves to other processes are decided, for a source that stores its items
    /// (a stored ``TransferList``): a ``DragSessionPublication`` of its sessions uses it when given none.
    var decisions: SessionDecisionRecord? { get }
}

extension DragSource {
    /// Does nothing.
    public func dragSession(_ session: DragSession, didEndWith operation: DropOperation) async {}

    /// `nil`: a source that keeps its items in memory has nothing to settle after a crash.
    public var decisions: SessionDecisionRecord? { nil }
}
