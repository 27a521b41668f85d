@_exported public import TransferKitErrors

/// An error of a drag or drop session: a `DomainError` in ``TransferSessionErrorDomain``.
///
/// ```swift
/// do {
///     _ = try await session.drop(DropProposal(operation: .move), on: .current) { _, _ in }
/// } catch let error as TransferSessionError where error.code == .sessionEnded {
///     // the drag was already dropped or cancelled
/// }
/// ```
public typealias TransferSessionError = DomainError<TransferSessionErrorDomain>

/// The domain of ``TransferSessionError``.
public enum TransferSessionErrorDomain: ErrorDomain {}

extension ErrorCode where Domain == TransferSessionErrorDomain {
    /// The session was already dropped, cancelled or ended: a session drops once.
    public static var sessionEnded: Self { Self("sessionEnded") }
    /// A move found none of its items in the source any more (each was removed or moved meanwhile).
    public static var itemsUnavailable: Self { Self("itemsUnavailable") }
    /// The destination's commit failed; nothing moved and the source keeps its items.
    public static var commitFailed: Self { Self("commitFailed") }
    /// An item may not be moved, or a position may not receive items (pinned rows, seed 003).
    public static var forbiddenByList: Self { Self("forbiddenByList") }
    /// The peer of a cross-process session sent bytes that break the protocol (Schemas/transfer-session.md):
    /// a malformed or oversized frame, an unknown request, a version this library does not speak.
    public static var protocolViolation: Self { Self("protocolViolation") }
    /// The other process of a cross-process session went away, or could not be reached.
    public static var disconnected: Self { Self("disconnected") }
    /// The peer did not answer or read within the time limit.
    public static var timedOut: Self { Self("timedOut") }
    /// The peer may not take part in the session: it runs as another user (checked with the socket's
    /// `SO_PEERCRED`).
    public static var notPermitted: Self { Self("notPermitted") }
    /// A stored ``TransferList``'s file is not a list this library can read: truncated, not JSON, of another shape
    /// or a newer version, with elements that do not decode or identities twice. Nothing was changed; restore the
    /// file from a backup or move it aside.
    public static var storeCorrupted: Self { Self("storeCorrupted") }
    /// A stored ``TransferList``'s directory cannot be created, read or written (permissions, a full disk), or
    /// another open list uses it; a change that could not be stored was not made.
    public static var storeUnavailable: Self { Self("storeUnavailable") }
}
