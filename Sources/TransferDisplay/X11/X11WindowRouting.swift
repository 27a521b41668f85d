import TransferKitPlatform

/// Something that receives the events reported on one window of an X11 connection: a subscription to
/// ``X11WindowRouting``. TransferKit's own drag-and-drop window is one; the connection knows nothing else of it.
package protocol X11WindowSubscriber: AnyObject, Sendable {
    /// The window whose events this receives.
    var window: X11.ID { get }
    /// Takes an event reported on ``window``, or the `DestroyNotify` of another client's window it watches. Called
    /// on the connection's reader thread: it must not block (post it to a mailbox).
    func receive(_ event: X11Event)
    /// The connection ended with `error`: no event will come.
    func connectionEnded(_ error: ClipboardError)
}

/// The routing of an X11 connection's window events by window: client messages, exposures, pointer and key events
/// go to the subscriber of the window they are reported on, and the destruction of another client's window goes to
/// the subscriber that watches it (a drag's source or target). Events for no subscriber are dropped.
package final class X11WindowRouting: Sendable {
    private let subscribers = SanitizedMutex<[X11.ID: any X11WindowSubscriber]>([:])
    /// Other clients' windows whose destruction a subscriber watches, and the subscriber's window.
    private let watched = SanitizedMutex<[X11.ID: X11.ID]>([:])

    package init() {}

    /// Starts handing the events of `subscriber`'s window to it (replacing any earlier subscriber of that window).
    package func subscribe(_ subscriber: any X11WindowSubscriber) {
        subscribers.withLock { $0[subscriber.window] = subscriber }
    }

    /// Stops handing `window`'s events to its subscriber.
    package func unsubscribe(_ window: X11.ID) {
        subscribers.withLock { _ = $0.removeValue(forKey: window) }
    }

    /// Selects `StructureNotify` on another client's `foreign` window, so that its `DestroyNotify` reaches the
    /// subscriber of `window` (a window of this connection is never changed: its own event mask would be replaced).
    package func watch(_ foreign: X11.ID, for window: X11.ID, on connection: X11Connection) {
        guard subscribers.withLock({ $0[foreign] == nil }) else { return }
        guard watched.withLock({ $0.updateValue(window, forKey: foreign) == nil }) else { return }
        _ = try? connection.send(
            X11RequestEncoder.changeEventMask(foreign, eventMask: X11.EventMask.structureNotify))
    }

    /// Hands `event` to the subscriber of the window it is reported on (on the reader thread: never blocks).
    package func route(_ event: X11Event) {
        let window: X11.ID
        switch event {
        case .clientMessage(let target, _, _, _): window = target
        case .expose(let target, _): window = target
        case .pointer(let pointer): window = pointer.window
        case .keyPress(let target, _, _): window = target
        case .destroyNotify(let destroyed):
            window = watched.withLock { $0.removeValue(forKey: destroyed) } ?? destroyed
        default: return
        }
        subscribers.withLock { $0[window] }?.receive(event)
    }

    /// The connection ended: every subscriber is told, and the routing is emptied.
    package func ended(_ error: ClipboardError) {
        let all = subscribers.withLock { subscribers in
            defer { subscribers = [:] }
            return Array(subscribers.values)
        }
        for subscriber in all { subscriber.connectionEnded(error) }
    }
}
