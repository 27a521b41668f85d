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
