import Foundation
import Testing
import TransferKit
import TransferKitPlatform

@testable import TransferDisplay

/// The machine a Wayland backend's shell holds, without a compositor: each core action reaches the waiter, stream or
/// closure its id stands for, once, and the subscriber's steps keep their place among the core's.
@Suite("Wayland connection machine", .timeLimit(.minutes(5)))
struct WaylandConnectionTests {
    typealias Action = WaylandConnection.Action

    /// A connection bound to data control, its first round trip answered.
    static func bound() throws -> WaylandConnection {
        var connection = WaylandConnection()
        connection.core = try WaylandStateTests.bound()
        return connection
    }

    /// Feeds `connection` an event as the compositor sends it: encoded, cut and decoded against its objects.
    static func deliver(
        _ objectID: UInt32, _ opcode: UInt16, _ arguments: [WaylandArgument], to connection: inout WaylandConnection
    ) throws -> [Action] {
        var (frame, descriptors) = try WaylandStateTests.frame(objectID, opcode, arguments)
        defer { #expect(descriptors.isEmpty, "every descriptor claimed") }
        return connection.receive(frame, descriptors: &descriptors)
    }

    /// Each action named, with the waiter, latch or stream it names compared by identity to those given.
    static func describe(
        _ actions: [Action], waiters: [Mailbox<Void, ClipboardError>] = [], latches: [Latch<Void>] = []
    ) -> [String] {
        func waiter(_ mailbox: Mailbox<Void, ClipboardError>) -> String {
            waiters.firstIndex { $0 === mailbox }.map { "waiter\($0)" } ?? "unknown waiter"
        }
        return actions.map { action in
            switch action {
            case .send(let messages): "send \(messages.map(\.objectID))"
            case .fail(let error): "fail \(error.code)"
            case .serve(_, let mimeType, let fd): "serve \(mimeType) into \(fd)"
            case .close(let fd): "close \(fd)"
            case .resume(let mailbox): "resume \(waiter(mailbox))"
            case .reject(let mailbox, let error): "reject \(waiter(mailbox)) \(error.code)"
            case .endOwnership(let end):
                "end " + (latches.firstIndex { $0 === end }.map { "latch\($0)" } ?? "unknown latch")
            case .notify(_, let change): "notify \(change.targets)"
            case .finish(_, let error): "finish \(error.map { "\($0.code)" } ?? "cleanly")"
            case .disconnect(let focusWaiters, let error):
                "disconnect \(error.code) failing \(focusWaiters.map(waiter))"
            case .subscriber: "subscriber"
            }
        }
    }

    static let serve: WaylandBackend.Serve = { _ in TransferByteStream(data: Data()) }

    @Test("A round trip's answer resumes its waiter once; an abandoned round trip's answer resumes nobody")
    func roundTrips() throws {
        var connection = try Self.bound()
        let first = Mailbox<Void, ClipboardError>(capacity: 1)
        let second = Mailbox<Void, ClipboardError>(capacity: 1)
        let (callback, started) = try connection.startRoundTrip(first)
        #expect(Self.describe(started) == ["send [1]"], "wl_display.sync")
        #expect(
            Self.describe(try Self.deliver(callback, 0, [.uint(1)], to: &connection), waiters: [first])
                == ["resume waiter0"])
        let (abandoned, _) = try connection.startRoundTrip(second)
        #expect(connection.handle(.abandonedRoundTrip(abandoned)).isEmpty)
        #expect(try Self.deliver(abandoned, 0, [.uint(2)], to: &connection).isEmpty)
        let (late, _) = try connection.startRoundTrip(second)
        let (failure, timedOut) = connection.roundTripTimedOut(late, after: .seconds(1))
        #expect(failure?.code == .timedOut)
        #expect(
            Self.describe(timedOut, waiters: [second]) == ["reject waiter0 timedOut", "disconnect timedOut failing []"])
    }

    @Test("The end fails every wait, ownership and stream the connection holds, once; a later end asks for nothing")
    func endOfTheConnection() throws {
        var connection = try Self.bound()
        let reply = Mailbox<Void, ClipboardError>(capacity: 1)
        let end = Latch<Void>()
        _ = try connection.own(.clipboard, targets: ["text/plain"], serve: Self.serve, end: end)
        _ = try connection.watch(.clipboard, continuation: AsyncThrowingStream.makeStream().continuation)
        _ = try connection.startRoundTrip(reply)
        let ended = connection.handle(.ended(ClipboardError(code: .connectionFailed, message: "hung up")))
        #expect(
            Self.describe(ended, waiters: [reply], latches: [end]) == [
                "reject waiter0 connectionFailed", "end latch0", "finish connectionFailed",
                "disconnect connectionFailed failing []",
            ])
        #expect(connection.handle(.ended(ClipboardError(code: .timedOut, message: "again"))).isEmpty)
        #expect(connection.handle(.closed).isEmpty)
        let refused = #expect(throws: ClipboardError.self) { _ = try connection.startRoundTrip(reply) }
        #expect(refused?.code == .connectionFailed, "a request after the end throws the end's error")
    }

    @Test("The user's close finishes the change streams without an error")
    func closeFinishesCleanly() throws {
        var connection = try Self.bound()
        _ = try connection.watch(.clipboard, continuation: AsyncThrowingStream.makeStream().continuation)
        #expect(Self.describe(connection.handle(.closed)) == ["finish cleanly", "disconnect cancelled failing []"])
    }

    @Test("A release is the current ownership's only; a send serves with the source's closure until it is released")
    func ownership() throws {
        var connection = try Self.bound()
        let end = Latch<Void>()
        let (source, owned) = try connection.own(.clipboard, targets: ["text/plain"], serve: Self.serve, end: end)
        #expect(Self.describe(owned).count == 1, "one send: create, offer, set_selection")
        #expect(
            Self.describe(try Self.deliver(source, 0, [.string("text/plain"), .fd(90)], to: &connection))
                == ["serve text/plain into 90"])
        #expect(connection.handle(.released(source: source, end: Latch())).isEmpty, "another ownership's latch")
        #expect(
            Self.describe(connection.handle(.released(source: source, end: end)), latches: [end])
                == ["send [\(connection.core.device), \(source)]", "end latch0"])
        #expect(connection.handle(.released(source: source, end: end)).isEmpty, "released once")
        #expect(
            Self.describe(try Self.deliver(source, 0, [.string("text/plain"), .fd(91)], to: &connection))
                == ["close 91"], "a send in flight to the destroyed source closes its descriptor")
    }

    @Test("A change notifies the stream that watches it; a stream that went away hears nothing")
    func watchers() throws {
        var connection = try Self.bound()
        let (watcher, _) = try connection.watch(.clipboard, continuation: AsyncThrowingStream.makeStream().continuation)
        let device = connection.core.device
        let offer = WaylandObjectTable.serverRangeStart
        #expect(try Self.deliver(device, 0, [.newID(offer)], to: &connection).isEmpty)  // data_offer
        #expect(try Self.deliver(offer, 0, [.string("image/png")], to: &connection).isEmpty)  // offer
        #expect(
            Self.describe(try Self.deliver(device, 1, [.object(offer)], to: &connection)) == [#"notify ["image/png"]"#])
        #expect(connection.handle(.unwatched(watcher)).isEmpty)
        #expect(
            Self.describe(try Self.deliver(device, 1, [.object(0)], to: &connection)) == ["send [\(offer)]"],
            "the stale offer is destroyed, and nobody is told")
    }

    @Test("The focus surface: a waiter waits for focus, the last user hides the surface, the end fails the waiters")
    func focusSurface() throws {
        var connection = WaylandConnection()
        (connection.core, _) = try WaylandFocusSurfaceStateTests.bound()
        let first = Mailbox<Void, ClipboardError>(capacity: 1)
        let second = Mailbox<Void, ClipboardError>(capacity: 1)
        let (focused, shown) = try connection.acquireFocus(pixel: 90, waiter: first)
        #expect(!focused && Self.describe(shown).count == 1, "the surface's requests, and a wait")
        let (again, closed) = try connection.acquireFocus(pixel: 91, waiter: second)
        #expect(!again && Self.describe(closed) == ["close 91"], "one surface for both users")
        #expect(connection.handle(.focusReleased).isEmpty, "one user left")
        #expect(Self.describe(connection.handle(.focusReleased)).count == 1, "the last user's release hides it")
        _ = try connection.acquireFocus(pixel: 92, waiter: first)
        #expect(
            Self.describe(connection.handle(.closed), waiters: [first, second])
                == ["disconnect cancelled failing [\"waiter0\"]"])
    }

    /// A subscriber that answers each routed event with its own step, a core action, and its own step again.
    struct Recorder: WaylandSubscription {
        var received: [WaylandEvent] = []

        mutating func receive(_ event: WaylandEvent, core: inout WaylandState) -> [WaylandSubscriptionStep] {
            received.append(event)
            return [.effect {}, .display(.close(7)), .effect {}]
        }

        mutating func connectionEnded(
            _ error: ClipboardError, core: inout WaylandState
        ) -> [WaylandSubscriptionStep] {
            [.display(.close(8))]
        }
    }

    /// A subscriber of another type.
    struct Other: WaylandSubscription {
        mutating func receive(_ event: WaylandEvent, core: inout WaylandState) -> [WaylandSubscriptionStep] { [] }
        mutating func connectionEnded(
            _ error: ClipboardError, core: inout WaylandState
        ) -> [WaylandSubscriptionStep] { [] }
    }

    @Test("A routed event's steps keep their order among the core's actions; without a subscriber its fd is closed")
    func subscriber() throws {
        var connection = try Self.bound()
        let end = Latch<Void>()
        let (source, _) = try connection.own(.clipboard, targets: ["text/plain"], serve: Self.serve, end: end)
        connection.core.route(source)
        #expect(
            Self.describe(try Self.deliver(source, 0, [.string("text/plain"), .fd(90)], to: &connection))
                == ["close 90"], "nobody subscribed: the routed send's descriptor is closed")
        connection.subscription = Recorder()
        connection.core.subscribe()
        #expect(
            Self.describe(try Self.deliver(source, 0, [.string("text/plain"), .fd(91)], to: &connection))
                == ["subscriber", "close 7", "subscriber"])
        let (answer, steps) = connection.withSubscription(Recorder.self) { recorder, _ in
            (recorder.received.count, [WaylandSubscriptionStep.display(.close(9))])
        }
        #expect(answer == 1 && Self.describe(steps) == ["close 9"])
        let (none, nothing) = connection.withSubscription(Other.self) { _, _ in (true, []) }
        #expect(none == nil && nothing.isEmpty, "a subscriber of another type is not run")
        let ended = connection.handle(.ended(ClipboardError(code: .connectionFailed, message: "hung up")))
        #expect(
            Self.describe(ended, latches: [end]) == [
                "end latch0", "close 8", "disconnect connectionFailed failing []",
            ],
            "the subscriber hears of the end once, before the socket is shut")
    }
}
