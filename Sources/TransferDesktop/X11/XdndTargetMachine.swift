import TransferDisplay
import TransferKitPlatform

/// The target's side of XDND (version 5) on one window, as a pure state machine: the source's messages, what the
/// driver learnt about the source, the application's decisions and finishes, a deadline passing and the source's
/// window going away in; what the driver must do out.
///
/// It decides when to read the source's type and action lists, when to ask the application, what to answer each
/// position with, when a drop is delivered or refused, and which `XdndFinished` ends it; it sends nothing, reads
/// nothing and starts no timer. One drag is followed at a time (a new `XdndEnter` replaces the old one); drops
/// already delivered wait for their finish independently of later drags.
///
/// The driver performs the actions in order. ``Action/describeSource(_:types:readTypeList:)`` and
/// ``Action/decide(targets:actions:)`` are answered at once with ``Event/described(source:targets:actions:window:)``
/// and ``Event/decided(_:)``; the silence deadline is the driver's wait for the next event, armed by
/// ``Action/armSilenceDeadline`` and answered with ``Event/silence``.
package struct XdndTargetMachine: ProtocolMachine {
    /// A source's position message, as the machine keeps it.
    package struct Position: Sendable, Hashable {
        /// The pointer on the root window.
        package var rootX: Int16
        /// The pointer on the root window.
        package var rootY: Int16
        /// The server time of the position.
        package var time: UInt32
        /// The action the source proposes (`nil`: none this implementation knows, such as `XdndActionPrivate`).
        package var proposed: DesktopDragAction?
    }

    /// A drop handed to the application.
    package struct Drop: Sendable, Hashable {
        /// Numbers the drops of one window, for ``Event/finish(drop:performed:)``.
        package var id: UInt64
        /// The source's window (where `XdndFinished` goes).
        package var source: X11.ID
        /// The drop's timestamp, the time to convert `XdndSelection` with.
        package var time: UInt32
        /// The offered targets, in the source's order.
        package var targets: [String]
        /// The source's actions, proposed one first.
        package var sourceActions: [DesktopDragAction]
        /// The action the application accepted.
        package var action: DesktopDragAction
        /// Where the drop landed, in the window's coordinates.
        package var location: DesktopPoint
    }

    /// What happened.
    package enum Event: Sendable, Hashable {
        /// A message of the source (`status` and `finished`, which go to sources, are ignored).
        case message(XdndMessage)
        /// The answer to ``Action/describeSource(_:types:readTypeList:)``: the source's targets (from the enter
        /// message or its `XdndTypeList`) and its `XdndActionList`, and the window's rectangle on the root window.
        case described(source: X11.ID, targets: [String], actions: [DesktopDragAction], window: XdndRectangle)
        /// The application's answer to ``Action/decide(targets:actions:)`` (`nil`: refuse).
        case decided(DesktopDragAction?)
        /// The source said nothing for the backend's time limit while a drag was over the window.
        case silence
        /// A window the driver watches was destroyed.
        case destroyed(X11.ID)
        /// The application is done with drop `drop`, having performed `performed` (`nil`: failed or declined).
        case finish(drop: UInt64, performed: DesktopDragAction?)
    }

    /// What the driver must do.
    package enum Action: Sendable, Hashable {
        /// Read what the source offers: its `XdndTypeList` when `readTypeList`, else the names of `types`; its
        /// `XdndActionList`; and the window's place on the root window. Answer with ``Event/described(source:targets:actions:window:)``.
        case describeSource(X11.ID, types: [X11.ID], readTypeList: Bool)
        /// Ask the application which action it accepts; answer with ``Event/decided(_:)``.
        case decide(targets: [String], actions: [DesktopDragAction])
        /// Send `message` to the source `window`.
        case send(XdndMessage, to: X11.ID)
        /// Hand `drop` to the application.
        case deliver(Drop)
        /// Select `StructureNotify` on the source's window, so its destruction ends the drag at once.
        case watch(X11.ID)
        /// Start (or restart) the silence deadline.
        case armSilenceDeadline
        /// Stop the silence deadline: no drag is over the window.
        case disarmSilenceDeadline
    }

    /// Where the current drag is.
    package enum Phase: Sendable, Hashable {
        /// No drag is over the window.
        case idle
        /// An enter came; the source's offer is being read.
        case describing(source: X11.ID, version: UInt8)
        /// The source's offer is known; positions are answered.
        case entered(source: X11.ID, version: UInt8)
        /// A position waits for the application's decision.
        case deciding(source: X11.ID, version: UInt8)
    }

    /// The window this machine is the target for.
    package let window: X11.ID
    /// The server's XDND atoms.
    package let atoms: XdndAtoms
    /// Where the current drag is.
    package private(set) var phase: Phase = .idle
    /// The current source's targets and actions (valid from `entered` on).
    private var targets: [String] = []
    private var actionList: [DesktopDragAction] = []
    private var rectangle = XdndRectangle.empty
    /// The last position and what the application accepted there (`nil`: refused, or not asked yet).
    private var lastPosition: Position?
    private var accepted: DesktopDragAction?
    /// A position that came while the offer was read or a decision was due, answered next.
    private var pendingPosition: Position?
    /// The drops delivered and not finished yet, with their source's window.
    package private(set) var unfinished: [UInt64: X11.ID] = [:]
    private var nextDrop: UInt64 = 0

    /// A machine for `window`, with the server's `atoms`.
    package init(window: X11.ID, atoms: XdndAtoms) {
        self.window = window
        self.atoms = atoms
    }

    private var source: X11.ID? {
        switch phase {
        case .idle: nil
        case .describing(let source, _), .entered(let source, _), .deciding(let source, _): source
        }
    }

    /// Handles one event; returns the actions to perform, in order.
    package mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .message(let message):
            return handle(message)
        case .described(let described, let targets, let actions, let window):
            guard case .describing(let source, let version) = phase, source == described else { return [] }
            self.targets = targets
            actionList = actions
            rectangle = window
            phase = .entered(source: source, version: version)
            guard let position = pendingPosition else { return [] }
            pendingPosition = nil
            return ask(at: position)
        case .decided(let action):
            guard case .deciding(let source, let version) = phase, let position = lastPosition else { return [] }
            accepted = action
            phase = .entered(source: source, version: version)
            var actions: [Action] = [
                .send(
                    .status(
                        target: window, accepts: action != nil, wantsPositions: true, rectangle: rectangle,
                        action: action.map(atoms.atom(for:)) ?? X11.none), to: source)
            ]
            if let next = pendingPosition, next != position {
                pendingPosition = nil
                actions += ask(at: next)
            }
            return actions
        case .silence:
            guard source != nil else { return [] }
            reset()
            return []
        case .destroyed(let destroyed):
            guard source == destroyed else { return [] }
            reset()
            return [.disarmSilenceDeadline]
        case .finish(let drop, let performed):
            guard let source = unfinished.removeValue(forKey: drop) else { return [] }
            return [
                .send(
                    .finished(
                        target: window, succeeded: performed != nil,
                        action: performed.map(atoms.atom(for:)) ?? X11.none), to: source)
            ]
        }
    }

    private mutating func handle(_ message: XdndMessage) -> [Action] {
        switch message {
        case .enter(let source, let version, let hasMoreTypes, let types):
            guard version >= Xdnd.oldestVersion else { return [] }
            reset()
            phase = .describing(source: source, version: min(version, Xdnd.version))
            return [
                .watch(source), .describeSource(source, types: types, readTypeList: hasMoreTypes),
                .armSilenceDeadline,
            ]
        case .position(let sender, let rootX, let rootY, let time, let action):
            guard sender == source else { return [] }
            let position = Position(rootX: rootX, rootY: rootY, time: time, proposed: atoms.action(for: action))
            switch phase {
            case .entered:
                return ask(at: position) + [.armSilenceDeadline]
            case .describing, .deciding:
                pendingPosition = position
                return [.armSilenceDeadline]
            case .idle:
                return []
            }
        case .leave(let sender):
            guard sender == source else { return [] }
            reset()
            return [.disarmSilenceDeadline]
        case .drop(let sender, let time):
            guard let source = source, sender == source else { return [] }
            defer { reset() }
            guard case .entered = phase, let action = accepted, let position = lastPosition else {
                // Refused, or released before an answer: XDND wants a finish all the same.
                return [
                    .disarmSilenceDeadline, .send(.finished(target: window, succeeded: false, action: 0), to: source),
                ]
            }
            nextDrop += 1
            unfinished[nextDrop] = source
            let drop = Drop(
                id: nextDrop, source: source, time: time == X11.currentTime ? position.time : time, targets: targets,
                sourceActions: offeredActions(position), action: action,
                location: DesktopPoint(
                    x: Int32(position.rootX) - Int32(rectangle.x), y: Int32(position.rootY) - Int32(rectangle.y)))
            return [.disarmSilenceDeadline, .deliver(drop)]
        case .status, .finished:
            return []
        }
    }

    /// The source's actions at `position`: the proposed one first, then its action list (copy when it names none:
    /// XDND's first versions had no actions).
    private func offeredActions(_ position: Position) -> [DesktopDragAction] {
        var actions: [DesktopDragAction] = position.proposed.map { [$0] } ?? []
        for action in actionList where !actions.contains(action) { actions.append(action) }
        return actions.isEmpty ? [.copy] : actions
    }

    private mutating func ask(at position: Position) -> [Action] {
        guard case .entered(let source, let version) = phase else { return [] }
        lastPosition = position
        phase = .deciding(source: source, version: version)
        return [.decide(targets: targets, actions: offeredActions(position))]
    }

    private mutating func reset() {
        phase = .idle
        targets = []
        actionList = []
        lastPosition = nil
        accepted = nil
        pendingPosition = nil
    }
}
