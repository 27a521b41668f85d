/// Why a drop that proposed a move moved nothing: the rule of ``DragSession/resolvedOperation(for:at:)`` turned
/// the move into ``DropOperation/cancel``.
///
/// Both ends learn it: the destination in ``DropResult/refusal``, the source in ``DragSession/endRefusal`` (also
/// when the drop came from another process through a ``DragSessionPublication``), so a move that silently did
/// nothing can be explained to the user or fixed in the app.
///
/// ```swift
/// let result = try await list.drop(session, at: 0)
/// if let refusal = result.refusal {
///     print(refusal)   // "The drag comes from the application … and the drop is in …; …"
/// }
/// ```
public struct DropRefusal: Sendable, Hashable, CustomStringConvertible {
    /// What the rule found.
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// The source does not allow a move at all (``DragSession/allowsMoveOperation`` is false).
        case moveNotAllowed
        /// The session has no ``DragSource`` that could remove the originals.
        case noSource
        /// The drop is in another application, and the source did not allow a move there
        /// (``DragSession/allowsMoveToOtherApplications``).
        case otherApplication
    }

    /// What the rule found.
    public var reason: Reason
    /// The application and process of the drag.
    public var source: TransferSessionOrigin
    /// The application and process of the drop.
    public var destination: TransferSessionOrigin

    /// A refusal.
    public init(reason: Reason, source: TransferSessionOrigin, destination: TransferSessionOrigin) {
        self.reason = reason
        self.source = source
        self.destination = destination
    }

    /// What happened and what to do about it, in a sentence or two.
    public var description: String {
        switch reason {
        case .moveNotAllowed:
            "The drag from \(source) does not allow a move (allowsMoveOperation is false), so the move proposed in "
                + "\(destination) was cancelled; propose a copy instead."
        case .noSource:
            "The drag from \(source) has no source that could remove the originals, so the move proposed in "
                + "\(destination) was cancelled; propose a copy, or start the drag from a DragSource."
        case .otherApplication:
            "The drag comes from the application \(source.applicationIdentifier) and the drop is in "
                + "\(destination.applicationIdentifier), so the move was cancelled (a move may not leave its "
                + "application); give both processes the same application identifier (TRANSFERKIT_APPLICATION_ID) "
                + "or let the drag set allowsMoveToOtherApplications."
        }
    }

    /// The one rule for a proposed move: why it is refused, or `nil` when it may go ahead.
    static func ofMove(
        allowsMoveOperation: Bool, hasSource: Bool, allowsMoveToOtherApplications: Bool,
        source: TransferSessionOrigin, destination: TransferSessionOrigin
    ) -> DropRefusal? {
        let reason: Reason
        if !allowsMoveOperation {
            reason = .moveNotAllowed
        } else if !hasSource {
            reason = .noSource
        } else if !source.isSameApplication(as: destination) && !allowsMoveToOtherApplications {
            reason = .otherApplication
        } else {
            return nil
        }
        return DropRefusal(reason: reason, source: source, destination: destination)
    }
}
