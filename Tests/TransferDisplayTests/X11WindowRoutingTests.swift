import Synchronization
import Testing

@testable import TransferDisplay

/// A subscriber that keeps what it is handed.
private final class RecordingSubscriber: X11WindowSubscriber {
    let window: X11.ID
    private let record = Mutex<(events: [X11Event], ended: ClipboardError?)>(([], nil))

    init(window: X11.ID) { self.window = window }

    var events: [X11Event] { record.withLock { $0.events } }
    var endedWith: ClipboardError? { record.withLock { $0.ended } }

    func receive(_ event: X11Event) { record.withLock { $0.events.append(event) } }
    func connectionEnded(_ error: ClipboardError) { record.withLock { $0.ended = error } }
}

@Suite("X11 window events, routed by window to their subscribers")
struct X11WindowRoutingTests {
    @Test("each window's events reach its own subscriber, and no other")
    func byWindow() {
        let routing = X11WindowRouting()
        let first = RecordingSubscriber(window: 0x20_0001)
        let second = RecordingSubscriber(window: 0x20_0002)
        routing.subscribe(first)
        routing.subscribe(second)
        routing.route(.expose(window: first.window, count: 0))
        routing.route(.clientMessage(window: second.window, format: 32, type: 7, data: Array(repeating: 0, count: 20)))
        routing.route(.keyPress(window: first.window, keycode: 9, time: 1))
        #expect(
            first.events == [
                .expose(window: first.window, count: 0), .keyPress(window: first.window, keycode: 9, time: 1),
            ])
        #expect(
            second.events == [
                .clientMessage(window: second.window, format: 32, type: 7, data: Array(repeating: 0, count: 20))
            ])
    }

    @Test("events for a window nobody subscribed to, or that unsubscribed, and selection events are dropped")
    func dropped() {
        let routing = X11WindowRouting()
        let subscriber = RecordingSubscriber(window: 0x20_0001)
        routing.subscribe(subscriber)
        routing.route(.expose(window: 0x30_0000, count: 0))
        routing.route(.selectionClear(time: 1, owner: subscriber.window, selection: 1))
        routing.route(.propertyNotify(window: subscriber.window, atom: 1, time: 1, deleted: false))
        #expect(subscriber.events.isEmpty)
        routing.unsubscribe(subscriber.window)
        routing.route(.expose(window: subscriber.window, count: 0))
        #expect(subscriber.events.isEmpty)
    }

    @Test("the end of the connection reaches every subscriber once, and empties the routing")
    func ended() {
        let routing = X11WindowRouting()
        let subscribers = [RecordingSubscriber(window: 1), RecordingSubscriber(window: 2)]
        for subscriber in subscribers { routing.subscribe(subscriber) }
        routing.ended(ClipboardError(code: .connectionFailed, message: "gone"))
        for subscriber in subscribers { #expect(subscriber.endedWith?.code == .connectionFailed) }
        routing.route(.expose(window: 1, count: 0))
        #expect(subscribers[0].events.isEmpty)
    }

    @Test("a subscriber's own window's destruction reaches it")
    func ownDestruction() {
        let routing = X11WindowRouting()
        let subscriber = RecordingSubscriber(window: 0x20_0001)
        routing.subscribe(subscriber)
        routing.route(.destroyNotify(window: subscriber.window))
        #expect(subscriber.events == [.destroyNotify(window: subscriber.window)])
    }
}
