import Testing

@testable import TransferDesktop
@testable import TransferDisplay

/// The XDND target's decisions, as tables of events in and actions out.
@Suite("XDND target state machine", .timeLimit(.minutes(5)))
struct XdndTargetMachineTests {
    static let atoms = XdndMessageTests.atoms
    static let (copy, move) = (XdndMessageTests.copy, XdndMessageTests.move)
    static let window: X11.ID = 0x40_0001
    static let source: X11.ID = 0x20_0001
    static let rectangle = XdndRectangle(x: 100, y: 50, width: 240, height: 120)

    static func machine() -> XdndTargetMachine { XdndTargetMachine(window: window, atoms: atoms) }

    static func enter(types: [X11.ID] = [41], more: Bool = false, version: UInt8 = 5) -> XdndTargetMachine.Event {
        .message(.enter(source: source, version: version, hasMoreTypes: more, types: types))
    }

    static func position(_ x: Int16 = 110, _ y: Int16 = 60, action: X11.ID = copy) -> XdndTargetMachine.Event {
        .message(.position(source: source, rootX: x, rootY: y, time: 1000, action: action))
    }

    static func described(
        _ targets: [String] = ["text/plain"], actions: [DesktopDragAction] = []
    ) -> XdndTargetMachine.Event {
        .described(source: source, targets: targets, actions: actions, window: rectangle)
    }

    static func status(_ action: DesktopDragAction?) -> XdndTargetMachine.Action {
        .send(
            .status(
                target: window, accepts: action != nil, wantsPositions: true, rectangle: rectangle,
                action: action.map(atoms.atom(for:)) ?? 0), to: source)
    }

    /// A machine over the window with the source's offer read.
    static func entered(_ targets: [String] = ["text/plain"]) -> XdndTargetMachine {
        var machine = machine()
        _ = machine.handle(enter())
        _ = machine.handle(described(targets))
        return machine
    }

    @Test("Enter reads the source's offer (its type list only when it has more than three) and arms the deadline")
    func enter() {
        var machine = Self.machine()
        #expect(
            machine.handle(Self.enter(types: [41, 42, 43], more: true))
                == [
                    .watch(Self.source), .describeSource(Self.source, types: [41, 42, 43], readTypeList: true),
                    .armSilenceDeadline,
                ])
        #expect(machine.phase == .describing(source: Self.source, version: 5))
        var short = Self.machine()
        #expect(
            short.handle(Self.enter(types: [41]))
                == [
                    .watch(Self.source), .describeSource(Self.source, types: [41], readTypeList: false),
                    .armSilenceDeadline,
                ])
    }

    @Test("A source older than version 3 is ignored; a newer one is spoken to in version 5")
    func versions() {
        var old = Self.machine()
        #expect(old.handle(Self.enter(version: 2)).isEmpty)
        #expect(old.phase == .idle)
        #expect(old.handle(Self.position()).isEmpty)
        var newer = Self.machine()
        _ = newer.handle(Self.enter(version: 9))
        #expect(newer.phase == .describing(source: Self.source, version: 5))
    }

    @Test("Each position asks the application with the proposed action first, and answers with the whole window")
    func positionAsksAndAnswers() {
        var machine = Self.entered(["text/plain", "image/png"])
        #expect(
            machine.handle(Self.position(action: Self.move))
                == [.decide(targets: ["text/plain", "image/png"], actions: [.move]), .armSilenceDeadline])
        #expect(machine.handle(.decided(.copy)) == [Self.status(.copy)])
        #expect(
            machine.handle(Self.position()) == [
                .decide(targets: ["text/plain", "image/png"], actions: [.copy]), .armSilenceDeadline,
            ])
        #expect(machine.handle(.decided(nil)) == [Self.status(nil)])
    }

    @Test("The source's action list follows the proposed action; an unknown proposal leaves the list alone")
    func actionList() {
        var machine = Self.machine()
        _ = machine.handle(Self.enter())
        _ = machine.handle(Self.described(actions: [.copy, .move, .link]))
        #expect(
            machine.handle(Self.position(action: Self.move)).first
                == .decide(targets: ["text/plain"], actions: [.move, .copy, .link]))
        _ = machine.handle(.decided(.move))
        #expect(
            machine.handle(Self.position(action: 999)).first
                == .decide(targets: ["text/plain"], actions: [.copy, .move, .link]))
    }

    @Test("A position while the offer is read is answered once it is known")
    func positionWhileDescribing() {
        var machine = Self.machine()
        _ = machine.handle(Self.enter())
        #expect(machine.handle(Self.position()) == [.armSilenceDeadline])
        #expect(machine.handle(Self.described()) == [.decide(targets: ["text/plain"], actions: [.copy])])
    }

    @Test("A drop after an accepting status is delivered at its window position, with the drop's time")
    func acceptedDrop() {
        var machine = Self.entered()
        _ = machine.handle(Self.position(130, 90, action: Self.move))
        _ = machine.handle(.decided(.move))
        let actions = machine.handle(.message(.drop(source: Self.source, time: 2000)))
        let drop = XdndTargetMachine.Drop(
            id: 1, source: Self.source, time: 2000, targets: ["text/plain"], sourceActions: [.move], action: .move,
            location: DesktopPoint(x: 30, y: 40))
        #expect(actions == [.disarmSilenceDeadline, .deliver(drop)])
        #expect(machine.phase == .idle)
        #expect(machine.unfinished == [1: Self.source])
        // The finish goes to the drop's source once, with v5's success bit and the performed action.
        #expect(
            machine.handle(.finish(drop: 1, performed: .move))
                == [.send(.finished(target: Self.window, succeeded: true, action: Self.move), to: Self.source)])
        #expect(machine.handle(.finish(drop: 1, performed: .copy)).isEmpty)
        #expect(machine.unfinished.isEmpty)
    }

    @Test("A drop the application refused, or one before any answer, is finished at once without success")
    func refusedDrop() {
        var refused = Self.entered()
        _ = refused.handle(Self.position())
        _ = refused.handle(.decided(nil))
        let failed = XdndTargetMachine.Action.send(
            .finished(target: Self.window, succeeded: false, action: 0), to: Self.source)
        #expect(refused.handle(.message(.drop(source: Self.source, time: 5))) == [.disarmSilenceDeadline, failed])
        var early = Self.entered()
        #expect(early.handle(.message(.drop(source: Self.source, time: 5))) == [.disarmSilenceDeadline, failed])
        #expect(early.unfinished.isEmpty)
    }

    @Test("A finish of a failed drop reports no success and no action")
    func failedFinish() {
        var machine = Self.entered()
        _ = machine.handle(Self.position())
        _ = machine.handle(.decided(.copy))
        _ = machine.handle(.message(.drop(source: Self.source, time: 5)))
        #expect(
            machine.handle(.finish(drop: 1, performed: nil))
                == [.send(.finished(target: Self.window, succeeded: false, action: 0), to: Self.source)])
    }

    @Test("Leave, silence and the source's destruction end the drag; another source's messages are ignored")
    func endings() {
        var left = Self.entered()
        #expect(left.handle(.message(.leave(source: Self.source))) == [.disarmSilenceDeadline])
        #expect(left.phase == .idle)
        #expect(left.handle(Self.position()).isEmpty)

        var silent = Self.entered()
        _ = silent.handle(Self.position())
        #expect(silent.handle(.silence).isEmpty)
        #expect(silent.phase == .idle)
        #expect(silent.handle(.message(.drop(source: Self.source, time: 5))).isEmpty)

        var destroyed = Self.entered()
        #expect(destroyed.handle(.destroyed(0x99)).isEmpty)
        #expect(destroyed.handle(.destroyed(Self.source)) == [.disarmSilenceDeadline])
        #expect(destroyed.phase == .idle)

        var other = Self.entered()
        #expect(other.handle(.message(.position(source: 0x77, rootX: 0, rootY: 0, time: 0, action: 0))).isEmpty)
        #expect(other.handle(.message(.leave(source: 0x77))).isEmpty)
        #expect(other.handle(.message(.drop(source: 0x77, time: 0))).isEmpty)
        #expect(other.phase == .entered(source: Self.source, version: 5))
        // Status and finished are for sources.
        #expect(
            other.handle(
                .message(.status(target: 0x77, accepts: true, wantsPositions: false, rectangle: .empty, action: 0))
            )
            .isEmpty)
    }

    @Test("A new enter replaces the drag; a drop delivered earlier still waits for its own finish")
    func newEnterKeepsUnfinishedDrops() {
        var machine = Self.entered()
        _ = machine.handle(Self.position())
        _ = machine.handle(.decided(.copy))
        _ = machine.handle(.message(.drop(source: Self.source, time: 5)))
        _ = machine.handle(.message(.enter(source: 0x30_0001, version: 5, hasMoreTypes: false, types: [41])))
        #expect(machine.phase == .describing(source: 0x30_0001, version: 5))
        #expect(
            machine.handle(.finish(drop: 1, performed: .copy))
                == [.send(.finished(target: Self.window, succeeded: true, action: Self.copy), to: Self.source)])
    }

    @Test("A described or decided answer that comes too late is ignored")
    func lateAnswers() {
        var machine = Self.machine()
        #expect(machine.handle(Self.described()).isEmpty)
        #expect(machine.handle(.decided(.copy)).isEmpty)
        _ = machine.handle(Self.enter())
        #expect(machine.handle(.described(source: 0x77, targets: [], actions: [], window: .empty)).isEmpty)
        #expect(machine.phase == .describing(source: Self.source, version: 5))
    }
}
