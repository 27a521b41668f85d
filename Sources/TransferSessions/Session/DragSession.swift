import TransferKitPlatform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A drag in flight: the items, the source that holds them, and the rules for what a drop may do with them
/// (UIKit's `UIDragSession` and the source half of a drag interaction's delegate).
///
/// A session drops once, through ``drop(_:on:commit:)``, or ends without a drop through ``cancel()``. For a
/// move, the drop is a two-phase transaction with the ``DragSource``: the source reserves the items, the
/// destination commits them, and only then does the source remove them. If the destination throws, the task is
/// cancelled, or the items cannot be loaded, the source keeps every item and the destination has nothing; so an
/// item is never in both places and never in neither.
///
/// **When a move is allowed** — Apple's rule: only when ``allowsMoveOperation`` is true and the drop happens in
/// the same application as the drag (``TransferSessionOrigin/isSameApplication(as:)``), unless the source set
/// ``allowsMoveToOtherApplications``; a session without a ``source`` cannot move (nobody would remove the
/// originals). A move proposal that breaks the rule resolves to ``DropOperation/cancel``, as in UIKit.
public final class DragSession: Sendable, Identifiable {
    /// A session's identity, unique in the process (and, as a UUID, across processes).
    public struct ID: Hashable, Sendable, CustomStringConvertible {
        /// The identity as text.
        public let rawValue: String

        /// A new, unique identity.
        public init() {
            rawValue = UUID().uuidString
        }

        /// An identity from its text (one that came from another process).
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The identity as text.
        public var description: String { rawValue }
    }

    /// Where a session is in its life.
    public enum Phase: Sendable, Hashable {
        /// Being dragged; not dropped yet.
        case active
        /// A drop is running: loading, committing, removing.
        case dropping
        /// Over, with the operation that took place (``DropOperation/cancel`` when none did).
        case ended(DropOperation)
    }

    /// The session's identity.
    public let id: ID
    /// The dragged items, in the order they were picked up.
    public let items: [DragItem]
    /// The source, which reserves and removes moved items; `nil` for a drag that can only be copied.
    public let source: (any DragSource)?
    /// Anything the source wants destinations in its own process to see (UIKit's `localContext`): which list a
    /// drag came from, for example.
    public let localContext: (any Sendable)?
    /// Whether the source allows a move at all.
    public let allowsMoveOperation: Bool
    /// Whether the source allows a move into another application (off by default, as on Apple platforms).
    public let allowsMoveToOtherApplications: Bool
    /// Where the drag started.
    public let origin: TransferSessionOrigin

    private let state = SanitizedMutex(State())
    /// Opens with the session's outcome once the source has heard it: what ``ended()`` waits for.
    private let outcome = Latch<DropOperation>()

    private struct State {
        var phase = Phase.active
        /// Why the drop's proposed move was refused, once it was.
        var refusal: DropRefusal?
    }

    /// Starts a drag.
    /// - Parameters:
    ///   - items: The items; their identities must be distinct.
    ///   - source: The side that holds the items, needed for a move.
    ///   - localContext: Anything destinations in this process may look at.
    ///   - allowsMoveOperation: Whether a drop may move the items (UIKit's `sessionAllowsMoveOperation`).
    ///   - allowsMoveToOtherApplications: Whether a move may leave the application.
    ///   - origin: The application and process of the drag.
    ///   - id: The session's identity; a new one by default.
    public init(
        items: [DragItem], source: (any DragSource)?, localContext: (any Sendable)? = nil,
        allowsMoveOperation: Bool = true, allowsMoveToOtherApplications: Bool = false,
        origin: TransferSessionOrigin = .current, id: ID = ID()
    ) {
        self.id = id
        self.items = items
        self.source = source
        self.localContext = localContext
        self.allowsMoveOperation = allowsMoveOperation
        self.allowsMoveToOtherApplications = allowsMoveToOtherApplications
        self.origin = origin
    }

    /// Where the session is in its life.
    public var phase: Phase {
        state.withLock { $0.phase }
    }

    /// Waits until the session has ended, by a drop or a cancel, wherever that happened (in this process, or in
    /// another one through a ``DragSessionPublication``).
    ///
    /// A waiting task that is cancelled stops waiting and gets ``DropOperation/cancel`` at once, as if no drop had
    /// taken place; the session itself goes on (check ``phase``, or wait again).
    /// - Returns: The operation that took place; ``DropOperation/cancel`` when none did.
    public func ended() async -> DropOperation {
        if case .ended(let operation) = phase { return operation }
        return await outcome.wait() ?? .cancel
    }

    /// Waits as ``ended()`` does, at most `timeout`: for a destination that never drops, or a drop that failed
    /// without ending the session.
    /// - Returns: The operation that took place.
    /// - Throws: ``TransferSessionError`` with `timedOut` when the session had not ended in time, or the waiting task
    ///   was cancelled (the session goes on; cancel it or wait again). A wait that ends so leaves nothing behind.
    public func ended(within timeout: Duration) async throws(TransferSessionError) -> DropOperation {
        guard let operation = await ended(until: .after(timeout)) else {
            let why = Task.isCancelled ? "The wait for the session's end was cancelled" : "The session did not end"
            throw TransferSessionError(
                code: .timedOut, message: "\(why) within \(timeout).", source: id.rawValue)
        }
        return operation
    }

    /// The operation that ended the session, or `nil` when `deadline` passed first or the task was cancelled.
    func ended(until deadline: Deadline) async -> DropOperation? {
        if case .ended(let operation) = phase { return operation }
        return try? await outcome.wait(until: deadline)
    }

    /// The operation a proposal of `proposed` gets at a destination in `destination`, by the rule above: a move
    /// the session does not allow is ``DropOperation/cancel``; anything else stays as proposed.
    public func resolvedOperation(for proposed: DropOperation, at destination: TransferSessionOrigin) -> DropOperation {
        proposed == .move && moveRefusal(at: destination) != nil ? .cancel : proposed
    }

    /// Why a move proposed at `destination` would be cancelled by the rule above, or `nil` when it may go ahead.
    public func moveRefusal(at destination: TransferSessionOrigin) -> DropRefusal? {
        DropRefusal.ofMove(
            allowsMoveOperation: allowsMoveOperation, hasSource: source != nil,
            allowsMoveToOtherApplications: allowsMoveToOtherApplications, source: origin, destination: destination)
    }

    /// Why the session ended with ``DropOperation/cancel`` although its drop proposed a move: the rule refused
    /// the move (see ``DropRefusal``). `nil` while the session runs, and when it ended for any other reason.
    public var endRefusal: DropRefusal? {
        state.withLock { $0.refusal }
    }

    /// Ends the session without a drop (the drag left every destination); the source keeps its items.
    /// Does nothing when the session already ended or a drop is running.
    public func cancel() async {
        if leaveActive(for: .ended(.cancel)) {
            await source?.dragSession(self, didEndWith: .cancel)
            outcome.open(.cancel)
        }
    }

    /// Moves the session from active to `next`; false, changing nothing, when it is no longer active.
    private func leaveActive(for next: Phase) -> Bool {
        state.withLock { state in
            guard state.phase == .active else {
                return false
            }
            state.phase = next
            return true
        }
    }

    /// Moves the session from dropping to ended and tells the source.
    func finish(with operation: DropOperation, refusal: DropRefusal? = nil) async {
        state.withLock { state in
            state.phase = .ended(operation)
            state.refusal = refusal
        }
        await source?.dragSession(self, didEndWith: operation)
        outcome.open(operation)
    }

    /// Moves the session from active to dropping, or throws when it already dropped or ended.
    func beginDrop() throws(TransferSessionError) {
        guard leaveActive(for: .dropping) else {
            throw TransferSessionError(
                code: .sessionEnded,
                message: "This drag session was already dropped or cancelled (\(phase)); start a new drag.",
                source: id.rawValue)
        }
    }
}
