import TransferDisplay
import TransferKitPlatform

/// The source's side of XDND (version 5) from one window, as a pure state machine: the pointer and key events, the
/// targets found under the pointer, the targets' messages, a deadline passing and a target's window going away in;
/// what the driver must do out.
///
/// It decides when the press becomes a drag (the first button, then a move past ``threshold`` pixels), which
/// target gets enter, position and leave, how positions are throttled (one unanswered at a time; the latest
/// move is sent when the answer comes), whether the release drops or leaves, and how the drag ends; it sends
/// nothing, reads nothing and starts no timer.
///
/// The driver performs the actions in order. ``Action/grab`` and ``Action/findTarget(rootX:rootY:)`` are answered at
/// once with ``Event/grabbed(_:)`` and ``Event/found(_:)``; the deadline is the driver's wait for the next event,
/// armed by ``Action/armDeadline`` and answered with ``Event/deadline``. ``Action/finish(_:)`` is always the last.
package struct XdndSourceMachine: ProtocolMachine {
    /// A window that takes XDND drops, found under the pointer.
    package struct Target: Sendable, Hashable {
        /// The window with `XdndAware` (the window every message is about).
        package var window: X11.ID
        /// Where messages go: the window, or its `XdndProxy`.
        package var destination: X11.ID
        /// The version to speak: the lower of the target's `XdndAware` and this implementation's.
        package var version: UInt8

        /// A target.
        package init(window: X11.ID, destination: X11.ID? = nil, version: UInt8) {
            self.window = window
            self.destination = destination ?? window
            self.version = min(version, Xdnd.version)
        }

        /// `0x…`, as the outcome names it.
        package var name: String { "0x" + String(window, radix: 16) }
    }

    /// What happened.
    package enum Event: Sendable, Hashable {
        /// A button or motion event on the window (or, during the grab, anywhere).
        case pointer(X11PointerEvent)
        /// The answer to ``Action/grab``: the server time at which `XdndSelection` was taken, or `nil` when the
        /// pointer grab or the selection was not.
        case grabbed(ownedSince: UInt32?)
        /// The answer to ``Action/findTarget(rootX:rootY:)``: the target under the pointer, or none.
        case found(Target?)
        /// A target's message (enter, position, leave and drop, which go to targets, are ignored).
        case message(XdndMessage)
        /// The user pressed Escape.
        case escape
        /// A watched window was destroyed.
        case destroyed(X11.ID)
        /// The armed deadline passed.
        case deadline
        /// The drag must stop: the window closed, the caller's task was cancelled, or the grab was lost.
        case cancel(reason: String)
    }

    /// How the drag ends.
    package enum End: Sendable, Hashable {
        /// It ended with `outcome`.
        case outcome(DesktopDragOutcome)
        /// The target accepted the drop but never finished it in time: the outcome is unknown.
        case timedOut(target: String)
    }

    /// What the driver must do.
    package enum Action: Sendable, Hashable {
        /// Grab the pointer (and the keyboard, for Escape), take `XdndSelection` and write the source's
        /// `XdndTypeList` and `XdndActionList`; answer with ``Event/grabbed(_:)``.
        case grab
        /// Find the window under the root point; answer with ``Event/found(_:)``.
        case findTarget(rootX: Int16, rootY: Int16)
        /// Send `message` to `destination`, about `window`.
        case send(XdndMessage, to: X11.ID, about: X11.ID)
        /// Select `StructureNotify` on a target's window.
        case watch(X11.ID)
        /// Start (or restart) the deadline.
        case armDeadline
        /// Ungrab, give up `XdndSelection`, and end the drag with `end`.
        case finish(End)
    }

    /// Where the drag is.
    package enum Phase: Sendable, Hashable {
        /// Waiting for the first button to go down on the window.
        case waiting
        /// The button is down; the drag starts once the pointer moves past the threshold.
        case pressed(rootX: Int16, rootY: Int16)
        /// The grab was asked for.
        case grabbing
        /// The pointer is dragging.
        case dragging
        /// The button was released; the answer to the last position is awaited before dropping.
        case releasing
        /// The drop was sent; `XdndFinished` is awaited.
        case dropping
        /// The drag ended.
        case ended
    }

    /// How far (in pixels, either way) the pointer moves with the button down before a drag starts.
    package static let threshold: Int32 = 4

    /// The source's window.
    package let window: X11.ID
    /// The server's XDND atoms.
    package let atoms: XdndAtoms
    /// The offered targets' atoms, preferred first.
    package let types: [X11.ID]
    /// The offered actions, preferred first (never empty).
    package let actions: [DesktopDragAction]
    /// Where the drag is.
    package private(set) var phase: Phase = .waiting

    private var pointer: (x: Int16, y: Int16, time: UInt32) = (0, 0, 0)
    /// When `XdndSelection` was taken: no message may name an earlier time, or the selection's owner (this source)
    /// refuses the target's request as stale.
    private var ownedSince: UInt32 = 0
    private var released = false
    private var current: Target?
    /// A position was sent and its status has not come.
    private var outstanding = false
    /// The pointer moved while a position was outstanding.
    private var moved = false
    /// What the current target accepted at the last status (`nil`: refused).
    private var accepted: DesktopDragAction?

    /// A machine for `window` offering `types` with `actions` (copy when empty).
    package init(window: X11.ID, atoms: XdndAtoms, types: [X11.ID], actions: [DesktopDragAction]) {
        self.window = window
        self.atoms = atoms
        self.types = types
        self.actions = actions.isEmpty ? [.copy] : actions
    }

    /// Handles one event; returns the actions to perform, in order.
    package mutating func handle(_ event: Event) -> [Action] {
        switch (phase, event) {
        case (.ended, _):
            return []
        case (.waiting, .pointer(let pointer)):
            guard pointer.kind == .press, pointer.button == 1 else { return [] }
            phase = .pressed(rootX: pointer.rootX, rootY: pointer.rootY)
            return []
        case (.pressed(let x, let y), .pointer(let pointer)):
            switch pointer.kind {
            case .release where pointer.button == 1:
                phase = .waiting
                return []
            case .motion:
                guard
                    abs(Int32(pointer.rootX) - Int32(x)) > Self.threshold
                        || abs(Int32(pointer.rootY) - Int32(y)) > Self.threshold
                else { return [] }
                self.pointer = (pointer.rootX, pointer.rootY, pointer.time)
                phase = .grabbing
                return [.grab]
            default:
                return []
            }
        case (.grabbing, .grabbed(let time)):
            guard let time else {
                return end(.outcome(.cancelled(reason: "the pointer could not be grabbed for the drag")))
            }
            ownedSince = time
            phase = .dragging
            return [.findTarget(rootX: pointer.x, rootY: pointer.y)]
        case (.grabbing, .pointer(let pointer)), (.dragging, .pointer(let pointer)):
            guard pointer.kind == .motion || (pointer.kind == .release && pointer.button == 1) else { return [] }
            self.pointer = (pointer.rootX, pointer.rootY, pointer.time)
            if pointer.kind == .release { released = true }
            return phase == .dragging ? [.findTarget(rootX: pointer.rootX, rootY: pointer.rootY)] : []
        case (.dragging, .found(let target)):
            return follow(target) + (released ? release() : [])
        case (.dragging, .message(.status(let sender, let accepts, _, _, let action))),
            (.releasing, .message(.status(let sender, let accepts, _, _, let action))):
            guard let current, sender == current.window else { return [] }
            outstanding = false
            accepted = accepts ? (atoms.action(for: action) ?? actions[0]) : nil
            if phase == .releasing { return release() }
            guard moved else { return [] }
            return [position(to: current)]
        case (.releasing, .deadline):
            // The target never answered the last position: no drop without its consent.
            let name = current?.name
            return leave() + end(.outcome(.refused(target: name)))
        case (.dropping, .message(.finished(let sender, let succeeded, let action))):
            guard let current, sender == current.window else { return [] }
            guard succeeded || current.version < 5 else {
                return end(.outcome(.cancelled(reason: "the target \(current.name) could not complete the drop")))
            }
            // A version 5 finish names what the target did; one that names no action we offered (None,
            // XdndActionPrivate) did not move, so it counts as a copy and the source keeps its items. Only an older
            // target, whose finish carries no action, is taken at its last status.
            let named = atoms.action(for: action)
            let performed = current.version < 5 ? (named ?? accepted ?? actions[0]) : (named ?? .copy)
            return end(.outcome(.dropped(performed: performed, target: current.name)))
        case (.dropping, .deadline):
            return end(.timedOut(target: current?.name ?? "?"))
        case (.dropping, .destroyed(let destroyed)):
            guard let current, destroyed == current.window || destroyed == current.destination else { return [] }
            return end(.outcome(.cancelled(reason: "the target \(current.name) went away before it finished")))
        case (.dragging, .destroyed(let destroyed)), (.releasing, .destroyed(let destroyed)):
            guard let target = current, destroyed == target.window || destroyed == target.destination else {
                return []
            }
            current = nil
            outstanding = false
            moved = false
            accepted = nil
            return phase == .releasing ? release() : []
        case (.grabbing, .escape), (.dragging, .escape), (.releasing, .escape):
            return leave() + end(.outcome(.cancelled(reason: "the user pressed Escape")))
        case (.dropping, .cancel(let reason)):
            return end(.outcome(.cancelled(reason: reason)))
        case (_, .cancel(let reason)):
            return leave() + end(.outcome(.cancelled(reason: reason)))
        default:
            return []
        }
    }

    /// Moves to `target`: a leave for the old one and an enter for a new one, then a position (or, while one is
    /// unanswered, a note to send it when the answer comes).
    private mutating func follow(_ target: Target?) -> [Action] {
        var actions: [Action] = []
        if target?.window != current?.window {
            actions += leave()
            guard let target else { return actions }
            current = target
            actions.append(.watch(target.window))
            actions.append(
                .send(
                    .enter(
                        source: window, version: target.version, hasMoreTypes: types.count > 3,
                        types: Array(types.prefix(3))), to: target.destination, about: target.window))
            actions.append(position(to: target))
            return actions
        }
        guard let current else { return actions }
        if outstanding {
            moved = true
            return actions
        }
        return [position(to: current)]
    }

    /// A position at the pointer for `target`, now outstanding.
    private mutating func position(to target: Target) -> Action {
        outstanding = true
        moved = false
        return .send(
            .position(
                source: window, rootX: pointer.x, rootY: pointer.y, time: dataTime,
                action: atoms.atom(for: actions[0])), to: target.destination, about: target.window)
    }

    /// The button is up: drop on a target that accepted its last position, wait for the answer to an unanswered
    /// one (or send the move that waited for it), else leave and report a refusal.
    private mutating func release() -> [Action] {
        guard let target = current else { return end(.outcome(.refused(target: nil))) }
        if outstanding || moved {
            let actions = outstanding ? [] : [position(to: target)]
            phase = .releasing
            return actions + [.armDeadline]
        }
        guard accepted != nil else { return leave() + end(.outcome(.refused(target: target.name))) }
        phase = .dropping
        return [
            .send(.drop(source: window, time: dataTime), to: target.destination, about: target.window),
            .armDeadline,
        ]
    }

    /// The time a position or the drop gives the target for reading `XdndSelection`: the pointer's, unless the
    /// selection was taken later (the button can go up before a slow grab has taken it), then the selection's.
    private var dataTime: UInt32 {
        // Server times wrap every 49.7 days: the later of two is the one the other is less than half a turn behind.
        Int32(bitPattern: pointer.time &- ownedSince) >= 0 ? pointer.time : ownedSince
    }

    /// A leave for the current target, if any.
    private mutating func leave() -> [Action] {
        guard let target = current else { return [] }
        current = nil
        outstanding = false
        moved = false
        accepted = nil
        return [.send(.leave(source: window), to: target.destination, about: target.window)]
    }

    private mutating func end(_ end: End) -> [Action] {
        phase = .ended
        return [.finish(end)]
    }
}
