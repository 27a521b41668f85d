public import TransferSessions

/// How a drag from a ``DesktopWindow`` ended.
public struct DesktopDragResult: Sendable, Hashable {
    /// What the drop did with the session's items: `DropOperation/move` (the source removed them),
    /// `DropOperation/copy` (the source keeps them; a link or a drop that asked the user counts as a copy), or
    /// `DropOperation/cancel` when nothing was dropped (refused, cancelled, or the target failed).
    public var operation: DropOperation
    /// Where the drag ended, as the display protocol names it: on X11 the target window's id (`0x…`); on Wayland,
    /// which names no window to a source, the MIME type the target last accepted; `nil` when it ended on no target.
    public var target: String?
    /// Whether the drop went through TransferKit's session protocol (the target is a TransferKit process): then a
    /// move happened exactly once, by the two-phase move, even if a process died (with a shared
    /// `SessionDecisionRecord`). `false` for other programs, where a move follows the display protocol's rule: the
    /// source removes the items only after a finished drop that performed `move`.
    public var exactlyOnce: Bool
    /// Why the drag ended without a drop, for messages: the target refused it, the user cancelled, the target failed
    /// or went away. After a drop it is `nil`, except for a move that became a copy because the target read none of
    /// some item's data (a target that answers `move` without reading must not make the source delete anything).
    public var reason: String?

    /// A result.
    ///
    /// - Parameters:
    ///   - operation: What the drop did.
    ///   - target: The window it ended on.
    ///   - exactlyOnce: Whether it went through the session protocol.
    ///   - reason: Why nothing was dropped.
    public init(operation: DropOperation, target: String?, exactlyOnce: Bool, reason: String? = nil) {
        self.operation = operation
        self.target = target
        self.exactlyOnce = exactlyOnce
        self.reason = reason
    }
}
