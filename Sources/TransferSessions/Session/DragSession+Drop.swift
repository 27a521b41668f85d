import TransferKit

/// What a drop did.
public struct DropResult<Value> {
    /// The operation that took place: ``DropOperation/copy`` or ``DropOperation/move`` when items reached the
    /// destination, ``DropOperation/cancel`` or ``DropOperation/forbidden`` when none did.
    public var operation: DropOperation
    /// What the destination's commit returned, or `nil` when it was not called.
    public var value: Value?
    /// The items that reached the destination.
    public var transferredItems: [TransferItemID]
    /// The items of a move that the source no longer held when the drop came (removed, or moved by another
    /// session meanwhile); they were left out.
    public var unavailableItems: [TransferItemID]
    /// Why a proposed move became ``DropOperation/cancel``, when the session's rule refused it; `nil` otherwise.
    public var refusal: DropRefusal? = nil

    /// A result (a desktop drop from another program makes its own).
    package init(
        operation: DropOperation, value: Value?, transferredItems: [TransferItemID], unavailableItems: [TransferItemID],
        refusal: DropRefusal? = nil
    ) {
        self.operation = operation
        self.value = value
        self.transferredItems = transferredItems
        self.unavailableItems = unavailableItems
        self.refusal = refusal
    }
}

extension DropResult: Sendable where Value: Sendable {}

extension DragSession {
    /// Drops the session's items on a destination: resolves the proposal, reserves a move's items in the
    /// source, lets the destination commit, and then removes moved items from the source.
    ///
    /// `commit` is the destination's part (UIKit's `performDropWith`): load the items from the ``DropSession``
    /// and insert them, as its last step. When it returns, the drop is committed; when it throws (or the task is
    /// cancelled while it runs), the source keeps every item and the destination must have inserted nothing.
    /// Nothing between a returned commit and the source's removal can be cancelled, so a committed move always
    /// completes.
    ///
    /// ```swift
    /// let result = try await session.drop(DropProposal(operation: .move, intent: .insertAtIndex(2)), on: .current) {
    ///     drop, operation in
    ///     let models = try await drop.loadObjects(ofClass: Model.self)
    ///     try destination.insert(models, at: 2)
    /// }
    /// ```
    /// - Parameters:
    ///   - proposal: The destination's proposal; its operation is resolved by ``resolvedOperation(for:at:)``.
    ///   - destination: The application and process of the destination.
    ///   - commit: The destination's part, given the drop session and the resolved operation.
    /// - Returns: What happened; the operation is ``DropOperation/cancel`` or ``DropOperation/forbidden`` (and
    ///   `commit` is not called) when the resolved operation moves no items.
    /// - Throws: ``TransferSessionError`` with code `sessionEnded` when the session already dropped or ended,
    ///   `itemsUnavailable` when a move finds none of its items in the source, `commitFailed` (the commit's error
    ///   as `cause`) when the commit throws, or `cancelled` when the task was cancelled; a
    ///   ``TransferSessionError`` the commit throws (such as a list's `forbiddenByList`) is passed on as it is. The session has ended
    ///   with ``DropOperation/cancel`` in each case but the first.
    public func drop<Value>(
        _ proposal: DropProposal, on destination: TransferSessionOrigin = .current,
        commit: (DropSession, DropOperation) async throws -> Value
    ) async throws(TransferSessionError) -> DropResult<Value> {
        try beginDrop()
        let refusal = proposal.operation == .move ? moveRefusal(at: destination) : nil
        let operation = refusal == nil ? proposal.operation : .cancel
        guard operation.transfersItems else {
            await finish(with: operation, refusal: refusal)
            return DropResult(
                operation: operation, value: nil, transferredItems: [], unavailableItems: [], refusal: refusal)
        }
        var dropped = items
        var unavailable: [TransferItemID] = []
        if operation == .move, let source {
            let reserved = Set(await source.reserve(items.map(\.id), for: id))
            dropped = items.filter { reserved.contains($0.id) }
            unavailable = items.map(\.id).filter { !reserved.contains($0) }
            guard !dropped.isEmpty else {
                await finish(with: .cancel)
                throw TransferSessionError(
                    code: .itemsUnavailable,
                    message: "None of the \(items.count) dragged items is in the source any more (removed or moved "
                        + "meanwhile); nothing was moved.",
                    source: id.rawValue)
            }
        }
        let session = DropSession(
            localDragSession: origin.isSameApplication(as: destination) ? self : nil, items: dropped,
            operation: operation, intent: proposal.intent, isSameProcess: origin.isSameProcess(as: destination))
        let value: Value
        do {
            try Task.checkCancellation()
            value = try await commit(session, operation)
        } catch {
            if operation == .move, let source {
                await source.release(dropped.map(\.id), for: id)
            }
            await finish(with: .cancel)
            throw Self.commitError(error, sessionID: id)
        }
        if operation == .move, let source {
            await source.remove(dropped.map(\.id), for: id)
        }
        await finish(with: operation)
        return DropResult(
            operation: operation, value: value, transferredItems: dropped.map(\.id), unavailableItems: unavailable)
    }

    package static func commitError(_ error: any Error, sessionID: ID) -> TransferSessionError {
        if let error = error as? TransferSessionError {
            return error
        }
        if error is CancellationError || (error as? TransferError)?.code == .cancelled {
            return TransferSessionError(
                code: .cancelled, message: "The drop was cancelled before it committed; the source keeps its items.",
                cause: error, source: sessionID.rawValue)
        }
        return TransferSessionError(
            code: .commitFailed,
            message: "The destination could not take the items: \(error). Nothing moved; the source keeps its items.",
            cause: error, source: sessionID.rawValue)
    }
}
