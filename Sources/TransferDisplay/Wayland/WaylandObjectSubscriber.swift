/// A machine that owns some of a Wayland connection's objects and takes their events from the connection's core,
/// ``WaylandState``: TransferKit's own windows, the seat's pointer, a drag's source and offer. The core routes the
/// objects the subscriber names (``WaylandState/route(_:)``) and hands their events out as
/// ``WaylandState/Action/route(_:)``; the shell passes each to ``receive(_:core:)`` under the same lock, in the
/// order the core made them, and runs every action that comes back.
///
/// Like the core, a subscriber is pure: events in, actions out. It makes and destroys its objects in the core's
/// table (through `core`), so ids stay one sequence.
package protocol WaylandObjectSubscriber: Sendable {
    /// What the subscriber asks its shell to do; the core's own actions (requests to send, descriptors to close)
    /// are among them.
    associatedtype Action: Sendable

    /// Takes an event of one of the objects it routed.
    mutating func receive(_ event: WaylandEvent, core: inout WaylandState) -> [Action]

    /// The connection ended with `error` (``WaylandState/Action/endSubscription(_:)``): no event will come.
    mutating func connectionEnded(_ error: ClipboardError, core: inout WaylandState) -> [Action]
}

extension WaylandEvent {
    /// Whether the event is the core's bookkeeping whichever object it comes from: the offers, their types and
    /// their sources' actions, the selections, the device's end, and the display's and registry's events.
    var isBookkeeping: Bool {
        switch self {
        case .error, .deleteID, .global, .globalRemove, .done, .dataOffer, .selection, .finished, .offerType,
            .dragAndDrop(.sourceActions):
            true
        case .ignored, .send, .cancelled, .keymap, .keyboardEnter, .keyboardLeave, .ping, .configure, .dragAndDrop:
            false
        }
    }
}

/// What a ``WaylandBackend`` keeps for its subscriber, under its one lock: the subscriber's machine and what the
/// machine's ids stand for (waiters, closures). The backend hands it each routed event and the end; it runs its
/// machine, then turns every action into a step, in order: the core's actions for the backend to carry out, and what
/// runs once the lock is released.
package protocol WaylandSubscription: Sendable {
    /// Takes a routed event (``WaylandState/Action/route(_:)``) under the backend's lock.
    mutating func receive(_ event: WaylandEvent, core: inout WaylandState) -> [WaylandSubscriptionStep]

    /// The connection ended with `error` (``WaylandState/Action/endSubscription(_:)``), under the backend's lock.
    mutating func connectionEnded(_ error: ClipboardError, core: inout WaylandState) -> [WaylandSubscriptionStep]
}

/// One step of a subscription's turn, in the order its machine's actions came.
package enum WaylandSubscriptionStep: Sendable {
    /// One of the core's actions: the backend carries it out as it carries out its own.
    case display(WaylandState.Action)
    /// Runs once the backend's lock is released (resumes a waiter, starts a transfer).
    case effect(@Sendable () -> Void)
}
