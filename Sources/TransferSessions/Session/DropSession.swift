public import TransferKit

/// The destination's view of a drop (UIKit's `UIDropSession`): the items, whether they come from this process,
/// and loading them as model objects with one progress for the whole drop.
public struct DropSession: Sendable {
    /// The drag session, for a drop in the same application as the drag (UIKit's `localDragSession`); `nil`
    /// otherwise.
    public let localDragSession: DragSession?
    /// The items being dropped; their ``DragItem/localObject`` is `nil` unless the drag is in this process.
    public let items: [DragItem]
    /// The resolved operation.
    public let operation: DropOperation
    /// Where the destination proposed to put the items.
    public let intent: DropIntent
    /// The progress of ``loadObjects(ofClass:)``: one unit per item, each load a child. Cancelling it cancels
    /// the loads, and so the drop.
    public let progress: TransferProgress

    /// A drop of `items`; `localDragSession` is the drag for a drop in its own application, and local objects are
    /// kept only for a drop in the drag's own process (a desktop drop from another program makes its own).
    package init(
        localDragSession: DragSession?, items: [DragItem], operation: DropOperation, intent: DropIntent,
        isSameProcess: Bool
    ) {
        self.localDragSession = localDragSession
        self.items =
            isSameProcess
            ? items : items.map { DragItem(id: $0.id, provider: $0.provider, localObject: nil) }
        self.operation = operation
        self.intent = intent
        self.progress = TransferProgress(totalUnitCount: Int64(items.count))
    }

    /// The source's local context, for a drop in the same application.
    public var localContext: (any Sendable)? {
        localDragSession?.localContext
    }

    /// Whether every item can be loaded as `T`: its local object is a `T`, or its provider has a representation
    /// that `T` reads.
    public func canLoadObjects<T: TransferProviderReading>(ofClass objectClass: T.Type) -> Bool {
        !items.isEmpty && items.allSatisfy { $0.localObject is T || $0.provider.canLoadObject(ofClass: objectClass) }
    }

    /// Loads every item as `T`, in order: a local object as is (no encoding), anything else through its provider.
    /// - Throws: The provider's `TransferError` for the first item that fails (the drop then commits nothing),
    ///   or `TransferError.Code.cancelled` when ``progress`` or the task is cancelled.
    public func loadObjects<T: TransferProviderReading>(ofClass objectClass: T.Type) async throws -> [T] {
        var objects: [T] = []
        objects.reserveCapacity(items.count)
        for item in items {
            try progress.checkCancellation()
            if let local = item.localObject as? T {
                objects.append(local)
                progress.advance(by: 1)
                continue
            }
            let child = progress.makeChild(withPendingUnitCount: 1)
            objects.append(try await item.provider.loadObject(ofClass: objectClass, progress: child))
        }
        return objects
    }
}
