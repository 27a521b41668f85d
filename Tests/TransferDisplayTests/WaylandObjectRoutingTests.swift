import Testing
import TransferKit
import TransferKitPlatform

@testable import TransferDisplay

/// The seam between a Wayland connection's core and the machine that subscribes to some of its objects: which
/// events are routed, which are dropped, and the end.
@Suite("Wayland state machine: routing to the subscriber", .timeLimit(.minutes(5)))
struct WaylandObjectRoutingTests {
    /// A subscriber that records what reaches it.
    struct Recorder: WaylandObjectSubscriber {
        enum Action: Sendable, Equatable {
            case event(WaylandEvent)
            case ended
        }

        mutating func receive(_ event: WaylandEvent, core: inout WaylandState) -> [Action] {
            [.event(event)]
        }

        mutating func connectionEnded(_ error: ClipboardError, core: inout WaylandState) -> [Action] {
            [.ended]
        }
    }

    /// A core bound with windows' globals and a `wl_data_device` (as drag and drop binds it), and subscribed.
    static func core() throws -> WaylandState {
        var core = try WaylandState.announcing(WaylandState.focusSurfaceInterfaces, version: 3)
        _ = try core.bindWindowGlobals(compositor: "test", managerVersion: 3, purpose: "the test")
        core.subscribe()
        return core
    }

    /// Feeds `event` from `object` to `core` and runs its actions as the shell does: routed events to `recorder`.
    static func feed(
        _ event: WaylandEvent, from object: UInt32, core: inout WaylandState, recorder: inout Recorder
    ) -> (core: [WaylandState.Action], subscriber: [Recorder.Action]) {
        var own: [WaylandState.Action] = []
        var routed: [Recorder.Action] = []
        for action in core.handle(event, from: object, live: true) {
            switch action {
            case .route(let event): routed += recorder.receive(event, core: &core)
            case .endSubscription(let error): routed += recorder.connectionEnded(error, core: &core)
            default: own.append(action)
            }
        }
        return (own, routed)
    }

    static let pointer: UInt32 = 40
    static let offer: UInt32 = 0xff00_0001

    @Test("An event of a routed object reaches the subscriber alone, the core does nothing with it")
    func routed() throws {
        var core = try Self.core()
        var recorder = Recorder()
        core.route(Self.pointer)
        let motion = WaylandEvent.dragAndDrop(.pointerMotion(time: 1, x: 2, y: 3))
        let result = Self.feed(motion, from: Self.pointer, core: &core, recorder: &recorder)
        #expect(result.core.isEmpty)
        #expect(result.subscriber == [.event(motion)])
        // A source's send and cancel, and an xdg_surface's configure, are the subscriber's once routed.
        core.route(41)
        let send = WaylandEvent.send(source: 41, mimeType: "text/plain", fd: 90)
        #expect(Self.feed(send, from: 41, core: &core, recorder: &recorder) == ([], [.event(send)]))
        let configure = WaylandEvent.configure(xdgSurface: 41, serial: 7)
        #expect(Self.feed(configure, from: 41, core: &core, recorder: &recorder) == ([], [.event(configure)]))
    }

    @Test("The offers' and selections' bookkeeping stays the core's, even from a routed device")
    func bookkeeping() throws {
        var core = try Self.core()
        var recorder = Recorder()
        core.route(core.device)
        let device = core.device
        #expect(
            Self.feed(.dataOffer(device: device, offer: Self.offer), from: device, core: &core, recorder: &recorder)
                == ([], []))
        _ = Self.feed(
            .offerType(offer: Self.offer, mimeType: "text/plain"), from: Self.offer, core: &core, recorder: &recorder)
        _ = Self.feed(
            .dragAndDrop(.sourceActions(offer: Self.offer, 3)), from: Self.offer, core: &core, recorder: &recorder)
        #expect(core.offers[Self.offer] == ["text/plain"])
        #expect(core.sourceActions[Self.offer] == 3)
        let leave = WaylandEvent.dragAndDrop(.dragLeave(device: device))
        #expect(Self.feed(leave, from: device, core: &core, recorder: &recorder) == ([], [.event(leave)]))
    }

    @Test("An event of an object nobody routed is dropped, closing the descriptor it carries")
    func unknownDropped() throws {
        var core = try Self.core()
        var recorder = Recorder()
        let motion = WaylandEvent.dragAndDrop(.pointerMotion(time: 1, x: 2, y: 3))
        #expect(Self.feed(motion, from: Self.pointer, core: &core, recorder: &recorder) == ([], []))
        let send = WaylandEvent.send(source: 41, mimeType: "text/plain", fd: 90)
        #expect(Self.feed(send, from: 41, core: &core, recorder: &recorder) == ([.close(90)], []))
        let configure = WaylandEvent.configure(xdgSurface: 41, serial: 7)
        #expect(Self.feed(configure, from: 41, core: &core, recorder: &recorder) == ([], []))
        // Unrouted again: dropped again.
        core.route(Self.pointer)
        core.unroute(Self.pointer)
        #expect(Self.feed(motion, from: Self.pointer, core: &core, recorder: &recorder) == ([], []))
    }

    @Test("The end reaches the subscriber once, and nothing is routed after it")
    func endOnce() throws {
        var core = try Self.core()
        var recorder = Recorder()
        core.route(Self.pointer)
        let failed = core.fail(ClipboardError(code: .connectionFailed, message: "gone"))
        let ends = failed.filter { if case .endSubscription = $0 { true } else { false } }
        #expect(ends == [.endSubscription(ClipboardError(code: .connectionFailed, message: "gone"))])
        #expect(failed.last == .disconnect, "the subscriber hears of the end before the socket is shut")
        #expect(core.fail(ClipboardError(code: .connectionFailed, message: "again")).isEmpty)
        #expect(core.close().isEmpty)
        let motion = WaylandEvent.dragAndDrop(.pointerMotion(time: 1, x: 2, y: 3))
        #expect(Self.feed(motion, from: Self.pointer, core: &core, recorder: &recorder) == ([], []))
        // Without a subscriber there is nobody to tell.
        var lone = try WaylandState.announcing(WaylandState.focusSurfaceInterfaces, version: 3)
        #expect(!lone.close().contains { if case .endSubscription = $0 { true } else { false } })
    }

    @Test("A routed offer outlives a selection change; finished with, it is forgotten and destroyed")
    func routedOfferKept() throws {
        var core = try Self.core()
        var recorder = Recorder()
        let device = core.device
        try core.objects.insertServerObject(Self.offer, .dataOffer)  // the decoder's part
        _ = Self.feed(.dataOffer(device: device, offer: Self.offer), from: device, core: &core, recorder: &recorder)
        core.route(Self.offer)
        let cleared = WaylandEvent.selection(device: device, offer: 0, primary: false)
        #expect(Self.feed(cleared, from: device, core: &core, recorder: &recorder).core.isEmpty)
        #expect(core.offers[Self.offer] != nil)
        core.finishOffer(Self.offer)
        #expect(core.offers[Self.offer] == nil && !core.routed.contains(Self.offer))
        #expect(core.objects.object(Self.offer)?.live == false)
    }
}
