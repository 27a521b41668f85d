import Testing

@testable import TransferDesktop
@testable import TransferDisplay

/// The XDND source's decisions, as tables of events in and actions out.
@Suite("XDND source state machine", .timeLimit(.minutes(5)))
struct XdndSourceMachineTests {
    static let atoms = XdndMessageTests.atoms
    static let (copy, move) = (XdndMessageTests.copy, XdndMessageTests.move)
    static let window: X11.ID = 0x20_0001
    static let target = XdndSourceMachine.Target(window: 0x40_0001, version: 5)
    static let proxied = XdndSourceMachine.Target(window: 0x50_0001, destination: 0x50_0009, version: 4)

    static func machine(
        types: [X11.ID] = [41, 42], actions: [DesktopDragAction] = [.move, .copy]
    )
        -> XdndSourceMachine
    {
        XdndSourceMachine(window: window, atoms: atoms, types: types, actions: actions)
    }

    static func pointer(
        _ kind: X11PointerEvent.Kind, _ x: Int16, _ y: Int16, button: UInt8 = 1, time: UInt32 = 10
    ) -> XdndSourceMachine.Event {
        .pointer(
            X11PointerEvent(
                kind: kind, button: kind == .motion ? 0 : button, window: window, time: time, rootX: x, rootY: y,
                x: x, y: y, state: 0))
    }

    static func send(_ message: XdndMessage, to target: XdndSourceMachine.Target = target) -> XdndSourceMachine.Action {
        .send(message, to: target.destination, about: target.window)
    }

    static func position(
        _ x: Int16, _ y: Int16, time: UInt32 = 10, to target: XdndSourceMachine.Target = target
    )
        -> XdndSourceMachine.Action
    {
        send(.position(source: window, rootX: x, rootY: y, time: time, action: move), to: target)
    }

    static func status(
        _ accepts: Bool, action: X11.ID = move, from target: X11.ID = target.window
    )
        -> XdndSourceMachine.Event
    {
        .message(.status(target: target, accepts: accepts, wantsPositions: true, rectangle: .empty, action: action))
    }

    /// A machine dragging over `target`, its first position answered with `accepts`.
    static func over(_ accepts: Bool) -> XdndSourceMachine {
        var machine = machine()
        _ = machine.handle(pointer(.press, 10, 10))
        _ = machine.handle(pointer(.motion, 20, 10))
        _ = machine.handle(.grabbed(ownedSince: 0))
        _ = machine.handle(.found(target))
        _ = machine.handle(status(accepts))
        return machine
    }

    @Test("A press and a move past 4 pixels grab; a smaller move, another button or a click do not")
    func threshold() {
        var machine = Self.machine()
        #expect(machine.handle(Self.pointer(.motion, 10, 10)).isEmpty)
        #expect(machine.handle(Self.pointer(.press, 10, 10, button: 3)).isEmpty)
        #expect(machine.phase == .waiting)
        #expect(machine.handle(Self.pointer(.press, 10, 10)).isEmpty)
        #expect(machine.handle(Self.pointer(.motion, 14, 6)).isEmpty)
        #expect(machine.handle(Self.pointer(.release, 14, 6)).isEmpty)
        #expect(machine.phase == .waiting)
        _ = machine.handle(Self.pointer(.press, 10, 10))
        #expect(machine.handle(Self.pointer(.motion, 10, 15)) == [.grab])
        #expect(machine.phase == .grabbing)
        #expect(machine.handle(.grabbed(ownedSince: 0)) == [.findTarget(rootX: 10, rootY: 15)])
        #expect(machine.phase == .dragging)
    }

    @Test("A refused grab cancels the drag")
    func grabRefused() {
        var machine = Self.machine()
        _ = machine.handle(Self.pointer(.press, 10, 10))
        _ = machine.handle(Self.pointer(.motion, 30, 10))
        #expect(
            machine.handle(.grabbed(ownedSince: nil))
                == [.finish(.outcome(.cancelled(reason: "the pointer could not be grabbed for the drag")))])
        #expect(machine.phase == .ended)
        #expect(machine.handle(Self.pointer(.press, 10, 10)).isEmpty)
    }

    @Test("A new target gets enter (with the first three types and the more-types bit) and a position")
    func enterAndPosition() {
        var machine = Self.machine(types: [41, 42, 43, 44])
        _ = machine.handle(Self.pointer(.press, 10, 10))
        _ = machine.handle(Self.pointer(.motion, 30, 10))
        _ = machine.handle(.grabbed(ownedSince: 0))
        #expect(
            machine.handle(.found(Self.proxied))
                == [
                    .watch(Self.proxied.window),
                    Self.send(
                        .enter(source: Self.window, version: 4, hasMoreTypes: true, types: [41, 42, 43]),
                        to: Self.proxied),
                    Self.position(30, 10, to: Self.proxied),
                ])
    }

    @Test("One position is outstanding at a time; the latest move goes when the status comes")
    func throttle() {
        var machine = Self.over(true)
        #expect(machine.handle(Self.pointer(.motion, 40, 10, time: 11)) == [.findTarget(rootX: 40, rootY: 10)])
        #expect(machine.handle(.found(Self.target)) == [Self.position(40, 10, time: 11)])
        _ = machine.handle(Self.pointer(.motion, 50, 10, time: 12))
        #expect(machine.handle(.found(Self.target)).isEmpty)
        _ = machine.handle(Self.pointer(.motion, 60, 10, time: 13))
        #expect(machine.handle(.found(Self.target)).isEmpty)
        #expect(machine.handle(Self.status(true)) == [Self.position(60, 10, time: 13)])
        #expect(machine.handle(Self.status(true)).isEmpty)
        // A status from another window changes nothing.
        #expect(machine.handle(Self.status(false, from: 0x77)).isEmpty)
    }

    @Test("Moving off a target leaves it; moving onto another enters that one")
    func changeTargets() {
        var machine = Self.over(true)
        _ = machine.handle(Self.pointer(.motion, 500, 10))
        #expect(machine.handle(.found(nil)) == [Self.send(.leave(source: Self.window))])
        _ = machine.handle(Self.pointer(.motion, 600, 10))
        let other = XdndSourceMachine.Target(window: 0x60_0001, version: 5)
        #expect(
            machine.handle(.found(other))
                == [
                    .watch(other.window),
                    Self.send(
                        .enter(source: Self.window, version: 5, hasMoreTypes: false, types: [41, 42]), to: other),
                    Self.position(600, 10, to: other),
                ])
    }

    @Test("Release over an accepting target drops with the release's time; its finish ends the drag with its action")
    func dropAndFinish() {
        var machine = Self.over(true)
        #expect(machine.handle(Self.pointer(.release, 25, 10, time: 77)) == [.findTarget(rootX: 25, rootY: 10)])
        #expect(machine.handle(.found(Self.target)) == [Self.position(25, 10, time: 77), .armDeadline])
        #expect(machine.phase == .releasing)
        #expect(
            machine.handle(Self.status(true))
                == [Self.send(.drop(source: Self.window, time: 77)), .armDeadline])
        #expect(machine.phase == .dropping)
        #expect(machine.handle(.message(.finished(target: 0x77, succeeded: true, action: Self.copy))).isEmpty)
        #expect(
            machine.handle(.message(.finished(target: Self.target.window, succeeded: true, action: Self.copy)))
                == [.finish(.outcome(.dropped(performed: .copy, target: "0x400001")))])
    }

    @Test(
        "A selection taken after the pointer's last event: positions and the drop carry the selection's time",
        arguments: zip([500, 5] as [UInt32], [400, UInt32.max - 5] as [UInt32]))
    func selectionTakenLate(owned: UInt32, release: UInt32) {
        // A slow grab (a long type list) can take XdndSelection after the button went up; a drop naming the release's
        // time would make this source, the selection's owner, refuse the target's read as older than its ownership.
        // The second case is the same across the wrap of the server's 32-bit millisecond clock.
        var machine = Self.machine()
        _ = machine.handle(Self.pointer(.press, 10, 10, time: release &- 2))
        _ = machine.handle(Self.pointer(.motion, 30, 10, time: release &- 1))
        _ = machine.handle(Self.pointer(.release, 30, 10, time: release))
        #expect(machine.handle(.grabbed(ownedSince: owned)) == [.findTarget(rootX: 30, rootY: 10)])
        #expect(
            machine.handle(.found(Self.target))
                == [
                    .watch(Self.target.window),
                    Self.send(.enter(source: Self.window, version: 5, hasMoreTypes: false, types: [41, 42])),
                    Self.position(30, 10, time: owned), .armDeadline,
                ])
        #expect(
            machine.handle(Self.status(true)) == [Self.send(.drop(source: Self.window, time: owned)), .armDeadline])
    }

    @Test("Release over a refusing target leaves it and reports the refusal; over nothing, a refusal without target")
    func refusals() {
        var refused = Self.over(false)
        _ = refused.handle(Self.pointer(.release, 20, 10))
        _ = refused.handle(.found(Self.target))
        #expect(
            refused.handle(Self.status(false))
                == [Self.send(.leave(source: Self.window)), .finish(.outcome(.refused(target: "0x400001")))])
        var nowhere = Self.machine()
        _ = nowhere.handle(Self.pointer(.press, 10, 10))
        _ = nowhere.handle(Self.pointer(.motion, 30, 10))
        _ = nowhere.handle(.grabbed(ownedSince: 0))
        _ = nowhere.handle(.found(nil))
        _ = nowhere.handle(Self.pointer(.release, 30, 10))
        #expect(nowhere.handle(.found(nil)) == [.finish(.outcome(.refused(target: nil)))])
    }

    @Test("A target that never answers the last position before release gets a leave at the deadline")
    func silentOnRelease() {
        var machine = Self.over(true)
        _ = machine.handle(Self.pointer(.release, 40, 10))
        _ = machine.handle(.found(Self.target))
        #expect(
            machine.handle(.deadline)
                == [Self.send(.leave(source: Self.window)), .finish(.outcome(.refused(target: "0x400001")))])
    }

    @Test("After the drop: a failed finish cancels, the deadline times out, the target's destruction cancels")
    func afterTheDrop() {
        func dropped() -> XdndSourceMachine {
            var machine = Self.over(true)
            _ = machine.handle(Self.pointer(.release, 20, 10))
            _ = machine.handle(.found(Self.target))
            _ = machine.handle(Self.status(true))
            return machine
        }
        var failed = dropped()
        #expect(
            failed.handle(.message(.finished(target: Self.target.window, succeeded: false, action: 0)))
                == [.finish(.outcome(.cancelled(reason: "the target 0x400001 could not complete the drop")))])
        var late = dropped()
        #expect(late.handle(.deadline) == [.finish(.timedOut(target: "0x400001"))])
        var gone = dropped()
        #expect(gone.handle(.destroyed(0x99)).isEmpty)
        #expect(
            gone.handle(.destroyed(Self.target.window))
                == [.finish(.outcome(.cancelled(reason: "the target 0x400001 went away before it finished")))])
        // Escape after the drop changes nothing: the drop is the target's now.
        var escaped = dropped()
        #expect(escaped.handle(.escape).isEmpty)
    }

    @Test(
        "A version 5 finish that names no action we offered is a copy, even after a status that accepted a move",
        arguments: [(X11.ID(0), DesktopDragAction.copy), (X11.ID(399), .copy), (move, .move), (copy, .copy)])
    func unnamedFinish(action: X11.ID, performed: DesktopDragAction) {
        var machine = Self.over(true)
        _ = machine.handle(Self.pointer(.release, 20, 10))
        _ = machine.handle(.found(Self.target))
        _ = machine.handle(Self.status(true, action: Self.move))
        #expect(
            machine.handle(.message(.finished(target: Self.target.window, succeeded: true, action: action)))
                == [.finish(.outcome(.dropped(performed: performed, target: "0x400001")))])
    }

    @Test("A version 4 target's finish has no success bit: it counts as done with the accepted action")
    func oldTargetFinish() {
        var machine = Self.machine()
        _ = machine.handle(Self.pointer(.press, 10, 10))
        _ = machine.handle(Self.pointer(.motion, 30, 10))
        _ = machine.handle(.grabbed(ownedSince: 0))
        _ = machine.handle(.found(Self.proxied))
        _ = machine.handle(Self.status(true, action: 0, from: Self.proxied.window))
        _ = machine.handle(Self.pointer(.release, 30, 10))
        _ = machine.handle(.found(Self.proxied))
        _ = machine.handle(Self.status(true, action: Self.copy, from: Self.proxied.window))
        #expect(
            machine.handle(.message(.finished(target: Self.proxied.window, succeeded: false, action: 0)))
                == [.finish(.outcome(.dropped(performed: .copy, target: "0x500001")))])
    }

    @Test("Escape or a cancel leaves the target and cancels; a target destroyed mid-drag is forgotten")
    func cancellations() {
        var escaped = Self.over(true)
        #expect(
            escaped.handle(.escape)
                == [
                    Self.send(.leave(source: Self.window)),
                    .finish(.outcome(.cancelled(reason: "the user pressed Escape"))),
                ])
        var cancelled = Self.over(true)
        #expect(
            cancelled.handle(.cancel(reason: "closed"))
                == [Self.send(.leave(source: Self.window)), .finish(.outcome(.cancelled(reason: "closed")))])
        var waiting = Self.machine()
        #expect(waiting.handle(.cancel(reason: "closed")) == [.finish(.outcome(.cancelled(reason: "closed")))])
        var destroyed = Self.over(true)
        #expect(destroyed.handle(.destroyed(Self.target.window)).isEmpty)
        _ = destroyed.handle(Self.pointer(.release, 20, 10))
        #expect(destroyed.handle(.found(nil)) == [.finish(.outcome(.refused(target: nil)))])
    }
}
