public import TransferDisplay
public import TransferSessions
public import UniformTypes

/// What a drag passing over a ``DesktopWindow`` offers: the window's proposal closure decides from it what a drop
/// there would do (UIKit's `dropSessionDidUpdate`).
public struct DesktopDropContext: Sendable, Hashable {
    /// The types the source offers, in its order, each with the uniform type it stands for (TransferKit's session
    /// offer is not among them).
    public var offeredTypes: [ClipboardOfferedType]
    /// The operations the source allows, from the display protocol's actions (`copy`, `move`; a link or ask counts
    /// as `copy`).
    public var allowedOperations: [DropOperation]
    /// Whether the source is a TransferKit process that offers its session: a move then goes through the session
    /// protocol, exactly once, and may happen although `allowedOperations` holds no `move` (the session's own
    /// rule decides when the drop comes: a move within the same application).
    public var isFromTransferKit: Bool

    /// A context.
    ///
    /// - Parameters:
    ///   - offeredTypes: The offered types.
    ///   - allowedOperations: The operations the source allows.
    ///   - isFromTransferKit: Whether the source offers a TransferKit session.
    public init(offeredTypes: [ClipboardOfferedType], allowedOperations: [DropOperation], isFromTransferKit: Bool) {
        self.offeredTypes = offeredTypes
        self.allowedOperations = allowedOperations
        self.isFromTransferKit = isFromTransferKit
    }

    /// Whether one of the offered types conforms to `type`.
    ///
    /// - Parameter type: The type a drop target reads.
    /// - Returns: `true` when some offered type conforms to it.
    public func offers(conformingTo type: UniformType) -> Bool {
        offeredTypes.contains { $0.type?.conforms(to: type) ?? false }
    }
}

/// Where a drop landed on a ``DesktopWindow``, in pixels from its top-left corner.
public struct DesktopDropLocation: Sendable, Hashable {
    /// Pixels from the left edge.
    public var x: Int
    /// Pixels from the top edge.
    public var y: Int

    /// The location `x`, `y`.
    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }
}
