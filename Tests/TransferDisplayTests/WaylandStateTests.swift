import Testing
import TransferKitPlatform

@testable import TransferDisplay

/// The Wayland state machine without a compositor: every state × event pair, and the hard cases one by one.
@Suite("Wayland state machine", .timeLimit(.minutes(5)))
struct WaylandStateTests {
    static let offer = WaylandObjectTable.serverRangeStart
    static let newOffer = WaylandObjectTable.serverRangeStart + 1
    static let descriptor: Int32 = 90

    /// The states a connection passes through, built through the machine's own requests and events.
    enum Situation: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case connecting, ready, offerAnnounced, showing, owning, failed

        var testDescription: String { rawValue }
    }

    /// What the tests know of a built state: the ids it made.
    struct Built {
        var machine: WaylandState
        var pendingCallback: UInt32?
        var source: UInt32?
        var watcher: UInt64?
    }

    /// A machine bound to a compositor with a seat and ext-data-control, its first round trip answered.
    static func bound() throws -> WaylandState {
        var machine = WaylandState()
        _ = try machine.getRegistry()
        let (callback, _) = try machine.startRoundTrip()
        _ = machine.handle(.global(name: 1, interface: "wl_seat", version: 7), live: true)
        _ = machine.handle(.global(name: 2, interface: "ext_data_control_manager_v1", version: 1), live: true)
        _ = machine.handle(.done(callback: callback), live: true)
        _ = machine.handle(.deleteID(callback), live: false)
        _ = try machine.bindDataControl(compositor: "test")
        return machine
    }

    /// An event as the compositor sends it, encoded and cut: its frame and the descriptors it passes.
    static func frame(
        _ objectID: UInt32, _ opcode: UInt16, _ arguments: [WaylandArgument]
    ) throws -> (WaylandFrame, descriptors: [Int32]) {
        var buffer = FrameBuffer()
        buffer.append(
            try WaylandWire.encode(WaylandMessage(objectID: objectID, opcode: opcode, arguments: arguments)).bytes)
        var frames = WaylandFrames()
        let frame = try #require(try frames.nextFrame(from: &buffer))
        let descriptors = arguments.compactMap { argument -> Int32? in
            if case .fd(let fd) = argument { fd } else { nil }
        }
        return (frame, descriptors)
    }

    /// Delivers an event as the compositor sends it: encoded, cut and decoded against the machine's objects.
    static func deliver(
        _ objectID: UInt32, _ opcode: UInt16, _ arguments: [WaylandArgument], to machine: inout WaylandState
    ) throws -> [WaylandState.Action] {
        var (frame, descriptors) = try frame(objectID, opcode, arguments)
        defer { #expect(descriptors.isEmpty, "every descriptor claimed") }
        return machine.receive(frame, descriptors: &descriptors)
    }

    static func build(_ situation: Situation) throws -> Built {
        switch situation {
        case .connecting:
            var machine = WaylandState()
            _ = try machine.getRegistry()
            let (callback, _) = try machine.startRoundTrip()
            return Built(machine: machine, pendingCallback: callback)
        case .ready:
            var machine = try bound()
            let watcher = try machine.watch(.clipboard)
            return Built(machine: machine, watcher: watcher)
        case .offerAnnounced:
            var built = try build(.ready)
            _ = try deliver(built.machine.device, 0, [.newID(offer)], to: &built.machine)  // data_offer
            _ = try deliver(offer, 0, [.string("image/png")], to: &built.machine)  // offer
            return built
        case .showing:
            var built = try build(.offerAnnounced)
            _ = try deliver(built.machine.device, 1, [.object(offer)], to: &built.machine)  // selection
            return built
        case .owning:
            var built = try build(.showing)
            let (source, _) = try built.machine.own(.clipboard, targets: ["text/plain"])
            let (callback, _) = try built.machine.startRoundTrip()
            built.source = source
            built.pendingCallback = callback
            return built
        case .failed:
            var built = try build(.owning)
            _ = built.machine.close()
            return built
        }
    }

    /// Every event the machine takes, named for the test log.
    enum Stimulus: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case dataOffer, offerType, staleOfferType, selection, selectionCleared, primarySelection, selectionOfUnknown
        case finished, send, sendToUnknownSource, cancelled, deleteID, done, error, global, globalRemove, ignored
        case timeout, connectionEnded, close

        var testDescription: String { rawValue }
    }

    /// Applies `stimulus` to `built`.
    static func apply(_ stimulus: Stimulus, to built: inout Built) -> [WaylandState.Action] {
        let device = built.machine.device
        let source = built.source ?? 40
        func event(_ event: WaylandEvent) -> [WaylandState.Action] {
            built.machine.handle(event, live: true)
        }
        switch stimulus {
        case .dataOffer: return event(.dataOffer(device: device, offer: newOffer))
        case .offerType: return event(.offerType(offer: offer, mimeType: "text/plain"))
        case .staleOfferType: return built.machine.handle(.offerType(offer: 0xff00_0100, mimeType: "x"), live: false)
        case .selection: return event(.selection(device: device, offer: offer, primary: false))
        case .selectionCleared: return event(.selection(device: device, offer: 0, primary: false))
        case .primarySelection: return event(.selection(device: device, offer: offer, primary: true))
        case .selectionOfUnknown: return event(.selection(device: device, offer: 0xff00_0200, primary: false))
        case .finished: return event(.finished(device: device))
        case .send: return event(.send(source: source, mimeType: "text/plain", fd: descriptor))
        case .sendToUnknownSource: return event(.send(source: 41, mimeType: "text/plain", fd: descriptor))
        case .cancelled: return event(.cancelled(source: source))
        case .deleteID: return event(.deleteID(3))
        case .done: return event(.done(callback: built.pendingCallback ?? 99))
        case .error: return event(.error(objectID: 1, code: 3, message: "no"))
        case .global: return event(.global(name: 9, interface: "wl_output", version: 4))
        case .globalRemove: return event(.globalRemove(name: 9))
        case .ignored: return event(.ignored)
        case .timeout: return built.machine.roundTripTimedOut(built.pendingCallback ?? 99, after: .seconds(1))
        case .connectionEnded:
            return built.machine.fail(ClipboardError(code: .connectionFailed, message: "the compositor hung up"))
        case .close: return built.machine.close()
        }
    }

    static let pairs = Situation.allCases.flatMap { situation in Stimulus.allCases.map { (situation, $0) } }

    @Test("Every state × event pair gives a result that keeps the machine's invariants", arguments: pairs)
    func everyPair(_ situation: Situation, _ stimulus: Stimulus) throws {
        var built = try Self.build(situation)
        let before = built.machine
        let actions = Self.apply(stimulus, to: &built)
        let after = built.machine

        // A descriptor that came with an event is served or closed, exactly once; no other action names it.
        let descriptorUses = actions.filter { action in
            switch action {
            case .serve(_, _, let fd), .close(let fd): fd == Self.descriptor
            default: false
            }
        }
        let carriesDescriptor = stimulus == .send || stimulus == .sendToUnknownSource
        #expect(descriptorUses.count == (carriesDescriptor ? 1 : 0), "\(actions)")

        if before.failure != nil {
            // After the end, events are dropped (their descriptors closed) and nothing else happens.
            #expect(actions.allSatisfy { if case .close = $0 { true } else { false } }, "\(actions)")
            return
        }
        let disconnects = actions.filter { $0 == .disconnect }.count
        if after.failure != nil {
            // The end fails every wait it had, once, and leaves nothing behind.
            #expect(disconnects == 1)
            for callback in before.roundTrips {
                #expect(actions.contains { if case .failRoundTrip(callback, _) = $0 { true } else { false } })
            }
            for source in before.sources.keys { #expect(actions.contains(.endOwnership(source: source))) }
            for watcher in before.watchers.keys {
                #expect(actions.contains { if case .finishWatcher(watcher, _) = $0 { true } else { false } })
            }
            #expect(after.roundTrips.isEmpty && after.sources.isEmpty && after.watchers.isEmpty)
        } else {
            #expect(disconnects == 0)
            #expect(after.offers.count <= WaylandState.maximumOffers)
            // Whatever is shown is an offer the machine holds.
            for shown in after.current.values { #expect(after.offers[shown] != nil) }
        }
        for action in actions {
            switch action {
            case .finishRoundTrip(let callback):
                #expect(before.roundTrips.contains(callback) && !after.roundTrips.contains(callback))
            case .notify(let watcher, _, _):
                #expect(before.watchers[watcher] != nil)
            case .serve(let source, _, _):
                #expect(before.sources[source] != nil)
            default:
                break
            }
        }
    }

    @Test func answeredRoundTripIsFinishedOnceAndItsIDFreedByDeleteID() throws {
        var built = try Self.build(.owning)
        let callback = try #require(built.pendingCallback)
        #expect(built.machine.handle(.done(callback: callback), live: true) == [.finishRoundTrip(callback: callback)])
        #expect(built.machine.handle(.done(callback: callback), live: false).isEmpty)
        #expect(built.machine.roundTripTimedOut(callback, after: .seconds(1)).isEmpty, "an answer beats the deadline")
        #expect(built.machine.failure == nil)
        // delete_id arrives for the destroyed callback: the id is free, and the next object reuses it.
        #expect(built.machine.handle(.deleteID(callback), live: false).isEmpty)
        #expect(try built.machine.startRoundTrip().callback == callback)
    }

    @Test func deleteIDForALiveObjectDoesNotFreeIt() throws {
        var built = try Self.build(.owning)
        let source = try #require(built.source)
        _ = built.machine.handle(.deleteID(source), live: true)
        let (next, _) = try built.machine.own(.primary, targets: ["a"])
        #expect(next != source)
        #expect(built.machine.objects.object(source)?.live == true)
    }

    @Test func timeoutFailsEveryWaitWithTimedOut() throws {
        var built = try Self.build(.owning)
        let callback = try #require(built.pendingCallback)
        let actions = built.machine.roundTripTimedOut(callback, after: .seconds(1))
        #expect(built.machine.failure?.code == .timedOut)
        let error = ClipboardError(code: .timedOut, message: "")
        #expect(
            actions == [
                .failRoundTrip(callback: callback, error), .endOwnership(source: try #require(built.source)),
                .finishWatcher(try #require(built.watcher), error), .disconnect,
            ])
        #expect(throws: ClipboardError.self) { _ = try built.machine.startRoundTrip() }
    }

    @Test func closingFinishesWatchersWithoutAnError() throws {
        var built = try Self.build(.ready)
        #expect(built.machine.close() == [.finishWatcher(try #require(built.watcher), nil), .disconnect])
        #expect(built.machine.close().isEmpty, "the first end wins")
    }

    @Test func staleOfferEventsAreIgnored() throws {
        var built = try Self.build(.showing)
        let device = built.machine.device
        // A new owner: the old offer is destroyed once the new one is shown.
        _ = try Self.deliver(device, 0, [.newID(Self.newOffer)], to: &built.machine)
        let shown = try Self.deliver(device, 1, [.object(Self.newOffer)], to: &built.machine)
        #expect(
            shown == [
                .send([WaylandMessage(objectID: Self.offer, opcode: 1)]),
                .notify(watcher: try #require(built.watcher), types: [], omitted: 0),
            ])
        #expect(built.machine.objects.object(Self.offer)?.live == false)
        // Types still in flight to the old offer are decoded as not live and dropped.
        let stale = try Self.deliver(Self.offer, 0, [.string("text/late")], to: &built.machine)
        #expect(stale.isEmpty)
        #expect(built.machine.failure == nil)
        #expect(built.machine.offers[Self.offer] == nil)
        // Even if such an event were taken as live, an offer the machine no longer holds gains nothing.
        #expect(built.machine.handle(.offerType(offer: Self.offer, mimeType: "text/late"), live: true).isEmpty)
        #expect(built.machine.offers[Self.offer] == nil)
    }

    @Test func aSelectionOfAnOfferNotHeldIsAViolation() throws {
        var built = try Self.build(.showing)
        let device = built.machine.device
        _ = built.machine.handle(.dataOffer(device: device, offer: Self.newOffer), live: true)
        _ = built.machine.handle(.selection(device: device, offer: Self.newOffer, primary: false), live: true)
        // The first offer was finished with: showing it again breaks the protocol.
        let actions = built.machine.handle(.selection(device: device, offer: Self.offer, primary: true), live: true)
        #expect(built.machine.failure?.code == .protocolViolation)
        #expect(actions.last == .disconnect)
    }

    @Test func atMostSixteenOffersWaitForTheirSelection() throws {
        var built = try Self.build(.ready)
        let device = built.machine.device
        for index in 0..<UInt32(WaylandState.maximumOffers) {
            #expect(built.machine.handle(.dataOffer(device: device, offer: Self.offer + index), live: true).isEmpty)
        }
        #expect(built.machine.failure == nil)
        let actions = built.machine.handle(.dataOffer(device: device, offer: Self.offer + 16), live: true)
        #expect(built.machine.failure?.code == .protocolViolation)
        #expect(actions.contains(.disconnect))
    }

    @Test func aSelectionEventDestroysEveryOfferNotShown() throws {
        var built = try Self.build(.ready)
        let device = built.machine.device
        for index in 0..<UInt32(4) {
            _ = built.machine.handle(.dataOffer(device: device, offer: Self.offer + index), live: true)
        }
        let actions = built.machine.handle(
            .selection(device: device, offer: Self.offer + 3, primary: false), live: true)
        #expect(actions.first == .send((0..<3).map { WaylandMessage(objectID: Self.offer + $0, opcode: 1) }))
        #expect(built.machine.offers.keys.sorted() == [Self.offer + 3])
    }

    @Test func servingNeedsTheSourceToBeOwnedStill() throws {
        var built = try Self.build(.owning)
        let source = try #require(built.source)
        #expect(
            built.machine.handle(.send(source: source, mimeType: "text/plain", fd: 7), live: true)
                == [.serve(source: source, mimeType: "text/plain", fd: 7)])
        let released = built.machine.release(source)
        #expect(released.last == .endOwnership(source: source))
        #expect(built.machine.release(source).isEmpty, "released once")
        // A send already in flight reaches the destroyed source: its descriptor is closed.
        #expect(built.machine.handle(.send(source: source, mimeType: "text/plain", fd: 8), live: false) == [.close(8)])
    }

    @Test func cancelledEndsTheOwnershipAndDestroysTheSource() throws {
        var built = try Self.build(.owning)
        let source = try #require(built.source)
        #expect(
            built.machine.handle(.cancelled(source: source), live: true)
                == [.send([WaylandMessage(objectID: source, opcode: 1)]), .endOwnership(source: source)])
        #expect(built.machine.sources.isEmpty)
        #expect(built.machine.objects.object(source)?.live == false)
    }

    @Test func receiveNeedsTheTypeToBeOffered() throws {
        let built = try Self.build(.showing)
        #expect(
            try built.machine.receive("image/png", from: .clipboard, into: 5)
                == [
                    .send([WaylandMessage(objectID: Self.offer, opcode: 0, arguments: [.string("image/png"), .fd(5)])])
                ])
        #expect {
            _ = try built.machine.receive("text/html", from: .clipboard, into: 5)
        } throws: { error in
            (error as? ClipboardError)?.code == .typeUnavailable
        }
    }

    @Test func aTargetTooLongForAMessageIsRefusedWithoutUsingAnID() throws {
        var machine = try Self.bound()
        var twin = machine
        let (expected, _) = try twin.own(.clipboard, targets: ["text/plain"])
        #expect(throws: ClipboardError.self) {
            _ = try machine.own(.clipboard, targets: [String(repeating: "a", count: 5000)])
        }
        #expect(machine.sources.isEmpty)
        let (source, _) = try machine.own(.clipboard, targets: ["text/plain"])
        #expect(source == expected, "the refused source's id is taken back")
    }

    @Test func withoutDataControlTheBindingSaysWhatIsMissing() throws {
        var machine = WaylandState()
        _ = try machine.getRegistry()
        _ = machine.handle(.global(name: 1, interface: "wl_seat", version: 7), live: true)
        #expect {
            _ = try machine.bindDataControl(compositor: "test")
        } throws: { error in
            (error as? ClipboardError)?.code == .protocolUnavailable
        }
        var seatless = WaylandState()
        _ = seatless.handle(.global(name: 2, interface: "zwlr_data_control_manager_v1", version: 1), live: true)
        #expect {
            _ = try seatless.bindDataControl(compositor: "test")
        } throws: { error in
            (error as? ClipboardError)?.message.contains("wl_seat") == true
        }
    }

    @Test func wlrVersionOneHasNoPrimarySelection() throws {
        var machine = WaylandState()
        _ = try machine.getRegistry()
        _ = machine.handle(.global(name: 1, interface: "wl_seat", version: 7), live: true)
        _ = machine.handle(.global(name: 2, interface: "zwlr_data_control_manager_v1", version: 1), live: true)
        _ = try machine.bindDataControl(compositor: "test")
        #expect(machine.flavor == .wlr && machine.managerVersion == 1)
        #expect(throws: ClipboardError.self) { try machine.checkSelection(.primary) }
        try machine.checkSelection(.clipboard)
    }
}
