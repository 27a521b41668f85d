import TransferDisplay

/// What drag and drop's machine (``WaylandDragAndDropState``) asks the shell to do.
enum WaylandDragAndDropAction: Sendable, Equatable {
    /// One of the core's actions: requests to send, a descriptor to close, the connection's failure.
    case display(WaylandState.Action)
    /// Window `window` was configured and shows its buffer: ``WaylandBackend`` `openWindow`'s wait ends.
    case windowShown(window: UInt64)
    /// Window `window` is gone (closed by the user or the compositor): its drag ends cancelled, its drops end.
    case windowClosed(window: UInt64)
    /// Ask the window's `decide` what to accept for drag `offer`, then tell the machine
    /// (``WaylandDragAndDropState/decided(offer:action:core:)``).
    case decide(window: UInt64, offer: UInt32, targets: [String], actions: [DesktopDragAction])
    /// A drop on `window` that the target accepted: hand it to the window's stream of drops.
    case deliver(window: UInt64, WaylandDrop)
    /// Write `mimeType` of the drag from `window` into `fd` (a transfer of its own, which closes `fd`).
    case serve(window: UInt64, mimeType: String, fd: Int32)
    /// The drag from `window` ended so.
    case dragEnded(window: UInt64, DesktopDragOutcome)
    /// The user dropped the drag `source` from `window`: its target has the backend's time limit to finish.
    case dropPerformed(window: UInt64, source: UInt32)
    /// The connection ended: every wait of drag and drop ends with the core's failure.
    case endWaits
}

/// A drop that arrived on one of TransferKit's windows, as the machine knows it.
struct WaylandDrop: Sendable, Equatable {
    /// The drop's `wl_data_offer`, which stays alive until the target finishes.
    var offer: UInt32
    /// The offered MIME types, in the source's order.
    var targets: [String]
    /// The actions the source allows.
    var sourceActions: [DesktopDragAction]
    /// The action accepted for the drop (the compositor's choice from both sides' wishes).
    var action: DesktopDragAction
    /// Where on the window it landed, in pixels.
    var location: DesktopPoint
}

/// TransferKit's own windows and the drags and drops on them, as a pure machine beside the connection's core: the
/// subscriber (``WaylandObjectSubscriber``) of the objects a drag-and-drop connection makes
/// (``WaylandBackend/connectForDragAndDrop(environment:timeout:)``). It routes the seat, the data device, its windows'
/// `xdg_surface` and `xdg_toplevel`, the pointer, its drag's source and the offer of a drag over its windows; the core
/// keeps every offer's types and source actions.
struct WaylandDragAndDropState: WaylandObjectSubscriber, Equatable {
    /// What the machine asks its shell to do.
    typealias Action = WaylandDragAndDropAction

    /// One window: its toplevel, its size, and what it does.
    struct Window: Sendable, Equatable {
        var toplevel: WaylandState.Toplevel
        var width: Int32
        var height: Int32
        /// Whether drops are delivered (a `drops` stream is open); drags over other windows are refused.
        var isDropTarget = false
        /// What the window's waiting `drag` offers, until a drag starts from it.
        var armed: Armed?
    }

    /// What a window offers to drag once the user presses on it and moves past the threshold.
    struct Armed: Sendable, Equatable {
        var targets: [String]
        var actions: [DesktopDragAction]
    }

    /// The first button held down on a window (the implicit grab), and where.
    struct Press: Sendable, Equatable {
        var window: UInt64
        var serial: UInt32
        var origin: DesktopPoint
    }

    /// A drag this client started: its `wl_data_source` and how far it got.
    struct Drag: Sendable, Equatable {
        var window: UInt64
        var source: UInt32
        /// The last `action` event (a `wl_data_device_manager` action bit), 0 before any.
        var lastAction: UInt32 = 0
        /// The MIME type the target accepts now (the last `target` event).
        var acceptedTarget: String?
        /// Whether `dnd_drop_performed` came: from then on a `cancelled` is the target's failure, not a refusal.
        var isDropped = false
    }

    /// A drag from any client over one of the windows, until it leaves or drops.
    struct Visit: Sendable, Equatable {
        var window: UInt64
        var offer: UInt32
        /// The enter's serial, which `accept` repeats.
        var serial: UInt32
        var location: DesktopPoint
        /// What `decide` answered last (nil: refused, or not answered yet).
        var decision: DesktopDragAction?
        /// Whether `decide`'s answer has been told to the compositor at least once.
        var isDecided = false
    }

    /// The windows, by the number their handles know them by.
    var windows: [UInt64: Window] = [:]
    var nextWindow: UInt64 = 1
    /// The seat's pointer, once the seat has one.
    var pointer: UInt32 = 0
    /// The window the pointer is over, and where.
    var focus: Focus?
    /// A window under the pointer and the point in it.
    struct Focus: Sendable, Equatable {
        var window: UInt64
        var location: DesktopPoint
    }
    var press: Press?
    /// The drag from this client, while it lasts (one at a time: the seat has one pointer).
    var drag: Drag?
    /// The drag over a window now.
    var visit: Visit?
    /// The compositor's choice of action, by offer.
    var chosenActions: [UInt32: UInt32] = [:]
    /// The dropped offers whose target has not finished, with their window.
    var dropped: [UInt32: UInt64] = [:]

    /// How far (in pixels, either way) the pointer moves with the button held before a drag starts: GTK's default.
    static let threshold: Int32 = 8
    /// `BTN_LEFT`, the first button, in Linux's input event codes.
    static let firstButton: UInt32 = 0x110

    /// Whether the connection's end was told (``connectionEnded(_:core:)``).
    var isEnded = false
}

extension DesktopDragAction {
    /// The action's bit in `wl_data_device_manager.dnd_action` (link has none: Wayland has no link).
    var waylandBit: UInt32 {
        switch self {
        case .copy: 1
        case .move: 2
        case .ask: 4
        case .link: 0
        }
    }

    /// The actions of a `dnd_action` mask, in the order copy, move, ask.
    static func fromWayland(mask: UInt32) -> [DesktopDragAction] {
        [.copy, .move, .ask].filter { mask & $0.waylandBit != 0 }
    }
}

extension WaylandDragAndDropState {
    /// The version of `wl_data_device_manager` drag and drop binds (the first with drag-and-drop actions); the other
    /// globals are the focus surface's.
    static let dragAndDropManagerVersion: UInt32 = 3

    /// Binds what TransferKit's own windows need for drag and drop and subscribes to the seat (whose pointer is
    /// made once the seat says it has one) and to the data device's drags.
    ///
    /// - Parameter compositor: The compositor's name for messages (its socket).
    /// - Throws: ``ClipboardError`` with `protocolUnavailable` naming each global that is missing or too old.
    mutating func bind(compositor: String, core: inout WaylandState) throws(ClipboardError) -> [Action] {
        let actions = try core.bindWindowGlobals(
            compositor: compositor, managerVersion: Self.dragAndDropManagerVersion,
            purpose: "drag and drop (wl_data_device on a window of TransferKit's own)")
        core.subscribe()
        core.route(core.seat)
        core.route(core.device)
        return actions.map(Action.display)
    }

    // MARK: - The subscription

    /// Takes an event of an object it routed: the seat's, the pointer's, the device's drags, its windows', its
    /// drag's source's, the entered offer's.
    mutating func receive(_ event: WaylandEvent, core: inout WaylandState) -> [Action] {
        switch event {
        case .dragAndDrop(let event):
            return handle(event, core: &core)
        case .configure(let xdgSurface, let serial):
            return configureWindow(xdgSurface: xdgSurface, serial: serial)
        case .send(let source, let mimeType, let fd):
            guard let drag, drag.source == source else { return [.display(.close(fd))] }
            return [.serve(window: drag.window, mimeType: mimeType, fd: fd)]
        case .cancelled(let source):
            return dragCancelled(source, core: &core)
        case .keymap(let fd):
            return [.display(.close(fd))]
        case .error, .deleteID, .global, .globalRemove, .done, .ignored, .dataOffer, .selection, .finished,
            .offerType, .keyboardEnter, .keyboardLeave, .ping:
            // The core's bookkeeping, or events of objects this machine never routes.
            return []
        }
    }

    /// The connection ended: the waits end, once.
    mutating func connectionEnded(_ error: ClipboardError, core: inout WaylandState) -> [Action] {
        guard !isEnded else { return [] }
        isEnded = true
        return [.endWaits]
    }

    // MARK: - Windows

    /// Makes a window titled `title` showing the `width`×`height` ARGB pixels in `bufferFD` (which the requests
    /// own from here); ``WaylandDragAndDropAction/windowShown(window:)`` follows at its first configure.
    /// - Returns: The window's number and its surface's id (its identity for messages).
    mutating func openWindow(
        title: String, bufferFD: Int32, width: Int32, height: Int32, core: inout WaylandState
    ) throws(ClipboardError) -> (window: UInt64, surface: UInt32, actions: [Action]) {
        try core.checkOpen()
        guard core.isBoundForDragAndDrop else {
            throw ClipboardError(
                code: .protocolUnavailable,
                message: "This Wayland connection was not bound for drag and drop; connect with the dragAndDrop "
                    + "binding.")
        }
        let (toplevel, messages) = try core.makeToplevel(
            title: title, bufferFD: bufferFD, width: width, height: height)
        core.route(toplevel.xdgSurface)
        core.route(toplevel.toplevel)
        let window = nextWindow
        nextWindow += 1
        windows[window] = Window(toplevel: toplevel, width: width, height: height)
        return (window, toplevel.surface, [.display(.send(messages))])
    }

    /// The window whose surface is `surface`, if any.
    func window(surface: UInt32) -> UInt64? {
        windows.first { $0.value.toplevel.surface == surface }?.key
    }

    /// Answers configure `serial` of a window's `xdgSurface`.
    mutating func configureWindow(xdgSurface: UInt32, serial: UInt32) -> [Action] {
        guard let (window, state) = windows.first(where: { $0.value.toplevel.xdgSurface == xdgSurface })
        else { return [] }
        var toplevel = state.toplevel
        let wasShown = toplevel.isShown
        let messages = toplevel.configured(serial: serial)
        windows[window]?.toplevel = toplevel
        return [.display(.send(messages))] + (wasShown ? [] : [.windowShown(window: window)])
    }

    /// Replaces `window`'s picture with the `width`×`height` pixels in `bufferFD` (which the requests own).
    mutating func redraw(
        _ window: UInt64, bufferFD: Int32, width: Int32, height: Int32, core: inout WaylandState
    ) throws(ClipboardError) -> [Action] {
        try core.checkOpen()
        guard var state = windows[window] else { return [.display(.close(bufferFD))] }
        let (buffer, messages) = try core.makeBuffer(bufferFD: bufferFD, width: width, height: height)
        core.objects.destroy(state.toplevel.buffer)
        let old = state.toplevel.buffer
        state.toplevel.buffer = buffer
        state.width = width
        state.height = height
        let surface = state.toplevel.surface
        var requests = messages
        if state.toplevel.isShown {
            // attach, damage(0, 0, width, height), commit; until the first configure the new buffer waits.
            requests += [
                WaylandMessage(objectID: surface, opcode: 1, arguments: [.object(buffer), .int(0), .int(0)]),
                WaylandMessage(objectID: surface, opcode: 2, arguments: [.int(0), .int(0), .int(width), .int(height)]),
                WaylandMessage(objectID: surface, opcode: 6),
            ]
        }
        requests.append(WaylandMessage(objectID: old, opcode: 0))  // the old buffer's destroy
        windows[window] = state
        return [.display(.send(requests))]
    }

    /// Closes `window`: its drag is cancelled, drags over it leave, and ``WaylandDragAndDropAction/windowClosed(window:)``
    /// ends its drops.
    mutating func closeWindow(_ window: UInt64, core: inout WaylandState) -> [Action] {
        guard let state = windows.removeValue(forKey: window) else { return [] }
        var actions: [Action] = []
        if drag?.window == window {
            actions += cancelDrag(window, outcome: .cancelled(reason: "the window was closed"), core: &core)
        }
        if visit?.window == window { actions += endVisit(core: &core) }
        if press?.window == window { press = nil }
        if focus?.window == window { focus = nil }
        core.unroute(state.toplevel.xdgSurface)
        core.unroute(state.toplevel.toplevel)
        guard core.failure == nil else { return actions + [.windowClosed(window: window)] }
        return actions + [.display(.send(state.toplevel.destroy(in: &core.objects))), .windowClosed(window: window)]
    }

    // MARK: - Drops on the windows

    /// Makes `window` a drop target (`true`) or not: drags entering it from then on ask `decide`.
    mutating func setDropTarget(_ window: UInt64, _ isTarget: Bool, core: WaylandState) throws(ClipboardError) {
        try core.checkOpen()
        guard windows[window] != nil else {
            throw ClipboardError(code: .cancelled, message: "The window was closed.")
        }
        windows[window]?.isDropTarget = isTarget
    }

    /// `decide`'s answer for the drag `offer` over a window: accept the first MIME type for `action`, or nothing
    /// (nil, or an action the source does not allow); repeated only when it changes.
    mutating func decided(offer: UInt32, action: DesktopDragAction?, core: WaylandState) -> [Action] {
        guard core.failure == nil, var visit, visit.offer == offer else { return [] }
        let allowed = core.sourceActions[offer] ?? 0
        let accepted = action.flatMap { $0.waylandBit & allowed != 0 ? $0 : nil }
        guard !visit.isDecided || visit.decision != accepted else { return [] }
        visit.decision = accepted
        visit.isDecided = true
        self.visit = visit
        let mimeType = accepted == nil ? nil : core.offers[offer]?.first
        let bit = accepted?.waylandBit ?? 0
        return [
            .display(
                .send([
                    // accept(serial, mime), set_actions(dnd_actions, preferred_action)
                    WaylandMessage(objectID: offer, opcode: 0, arguments: [.uint(visit.serial), .string(mimeType)]),
                    WaylandMessage(objectID: offer, opcode: 4, arguments: [.uint(bit), .uint(bit)]),
                ]))
        ]
    }

    /// Asks the source of the dropped `offer` to write `target` into `fd` (the write end of a pipe, which the
    /// request owns from here).
    /// - Throws: ``ClipboardError``: the failure, `cancelled` for a drop already finished, `typeUnavailable` for a
    ///   type the drop does not offer.
    func receiveDrop(
        _ offer: UInt32, _ target: String, into fd: Int32, core: WaylandState
    ) throws(ClipboardError) -> [Action] {
        try core.checkOpen()
        guard dropped[offer] != nil else {
            throw ClipboardError(code: .cancelled, message: "The drop was already finished.", source: target)
        }
        guard core.offers[offer]?.contains(target) == true else {
            throw ClipboardError(
                code: .typeUnavailable, message: "The drop does not offer \(target).", source: target)
        }
        return [.display(.send([WaylandMessage(objectID: offer, opcode: 1, arguments: [.string(target), .fd(fd)])]))]
    }

    /// The target is done with the dropped `offer`: `finish` when it performed an action the source allows (after
    /// `set_actions` naming it, when it differs from the accepted one), then `destroy`; without an action, only
    /// `destroy` (the source sees `cancelled`).
    mutating func finishDrop(
        _ offer: UInt32, performed: DesktopDragAction?, accepted: DesktopDragAction, core: inout WaylandState
    ) -> [Action] {
        guard dropped.removeValue(forKey: offer) != nil else { return [] }
        let allowed = core.sourceActions[offer] ?? 0
        forgetOffer(offer, core: &core)
        guard core.failure == nil else { return [] }
        var messages: [WaylandMessage] = []
        if let performed, performed.waylandBit & allowed != 0, performed != .ask {
            if performed != accepted {
                let bit = performed.waylandBit
                messages.append(WaylandMessage(objectID: offer, opcode: 4, arguments: [.uint(bit), .uint(bit)]))
            }
            messages.append(WaylandMessage(objectID: offer, opcode: 3))  // finish
        }
        messages.append(WaylandMessage(objectID: offer, opcode: 2))  // destroy
        return [.display(.send(messages))]
    }

    /// Forgets everything known about `offer` here and in the core, and marks it destroyed.
    private mutating func forgetOffer(_ offer: UInt32, core: inout WaylandState) {
        chosenActions[offer] = nil
        core.finishOffer(offer)
    }

    /// The drag over a window left it without a drop: its offer is destroyed.
    private mutating func endVisit(core: inout WaylandState) -> [Action] {
        guard let visit else { return [] }
        self.visit = nil
        guard visit.offer != 0, dropped[visit.offer] == nil else { return [] }
        forgetOffer(visit.offer, core: &core)
        guard core.failure == nil else { return [] }
        return [.display(.send([WaylandMessage(objectID: visit.offer, opcode: 2)]))]  // destroy
    }

    // MARK: - Drags from the windows

    /// Arms `window`: a press of the first button on it followed by a move past the threshold starts a drag of
    /// `targets` with `actions`.
    /// - Throws: ``ClipboardError``: the failure; `cancelled` for a closed window; `protocolUnavailable` when none of
    ///   `actions` exists on Wayland (link) or a drag is under way already.
    mutating func armDrag(
        _ window: UInt64, targets: [String], actions: [DesktopDragAction], core: WaylandState
    ) throws(ClipboardError) {
        try core.checkOpen()
        guard windows[window] != nil else {
            throw ClipboardError(code: .cancelled, message: "The window was closed.")
        }
        guard actions.contains(where: { $0.waylandBit != 0 }) else {
            throw ClipboardError(
                code: .protocolUnavailable,
                message: "Wayland drags offer copy, move or ask; \(actions.map(\.rawValue)) has none of them.")
        }
        guard drag?.window != window, windows[window]?.armed == nil else {
            throw ClipboardError(code: .protocolUnavailable, message: "A drag from this window is under way already.")
        }
        windows[window]?.armed = .init(targets: targets, actions: actions)
    }

    /// Ends the drag from `window` (or its wait for a press): the source is destroyed (the target sees the drag
    /// leave) and ``WaylandDragAndDropAction/dragEnded(window:_:)`` reports `outcome`.
    mutating func cancelDrag(_ window: UInt64, outcome: DesktopDragOutcome, core: inout WaylandState) -> [Action] {
        windows[window]?.armed = nil
        guard let drag, drag.window == window else { return [] }
        self.drag = nil
        core.unroute(drag.source)
        core.objects.destroy(drag.source)
        let ended: [Action] = [.dragEnded(window: window, outcome)]
        guard core.failure == nil else { return ended }
        return [.display(.send([WaylandMessage(objectID: drag.source, opcode: 1)]))] + ended  // destroy
    }

    /// Starts the drag armed on `press`'s window, if it is armed: `create_data_source`, an `offer` per target,
    /// `set_actions`, `start_drag(source, origin, no icon, the press's serial)`.
    private mutating func startDrag(_ press: Press, core: inout WaylandState) -> [Action] {
        guard let window = windows[press.window], let armed = window.armed, drag == nil else { return [] }
        let source: UInt32
        do {
            source = try core.objects.create(.dataSource)
        } catch {
            return core.fail(error).map(Action.display)
        }
        core.route(source)
        windows[press.window]?.armed = nil
        self.press = nil
        drag = .init(window: press.window, source: source)
        var messages = [WaylandMessage(objectID: core.manager, opcode: 0, arguments: [.newID(source)])]
        for target in armed.targets {
            messages.append(WaylandMessage(objectID: source, opcode: 0, arguments: [.string(target)]))
        }
        let mask = armed.actions.reduce(0) { $0 | $1.waylandBit }
        messages.append(WaylandMessage(objectID: source, opcode: 2, arguments: [.uint(mask)]))
        messages.append(
            WaylandMessage(
                objectID: core.device, opcode: 0,
                arguments: [.object(source), .object(window.toplevel.surface), .object(0), .uint(press.serial)]))
        return [.display(.send(messages))]
    }

    // MARK: - Events

    /// Handles one event of drag and drop.
    mutating func handle(_ event: WaylandDragAndDropEvent, core: inout WaylandState) -> [Action] {
        switch event {
        case .seatCapabilities(let seat, let capabilities):
            // The pointer is asked for once the seat has one (a headless compositor's seat may get one later).
            guard core.isBoundForDragAndDrop, seat == core.seat, capabilities & 1 != 0, pointer == 0 else {
                return []
            }
            do {
                pointer = try core.objects.create(.pointer)
            } catch {
                return core.fail(error).map(Action.display)
            }
            core.route(pointer)
            return [.display(.send([WaylandMessage(objectID: seat, opcode: 0, arguments: [.newID(pointer)])]))]
        case .pointerEnter(_, let surface, let x, let y):
            focus = window(surface: surface).map { .init(window: $0, location: .init(fixedX: x, y: y)) }
            return []
        case .pointerLeave:
            focus = nil
            return []
        case .pointerMotion(_, let x, let y):
            guard var focus else { return [] }
            focus.location = DesktopPoint(fixedX: x, y: y)
            self.focus = focus
            guard let press, press.window == focus.window else { return [] }
            let distance = max(abs(focus.location.x - press.origin.x), abs(focus.location.y - press.origin.y))
            return distance >= Self.threshold ? startDrag(press, core: &core) : []
        case .pointerButton(let serial, _, let button, let state):
            guard button == Self.firstButton else { return [] }
            if state == 1, let focus {
                press = .init(window: focus.window, serial: serial, origin: focus.location)
            } else {
                press = nil
            }
            return []
        case .dragEnter(let serial, let surface, let x, let y, let offer):
            var actions = endVisit(core: &core)
            guard let window = window(surface: surface), offer != 0 else { return actions }
            let location = DesktopPoint(fixedX: x, y: y)
            core.route(offer)
            visit = .init(window: window, offer: offer, serial: serial, location: location)
            guard windows[window]?.isDropTarget == true else {
                // Not a drop target: say no at once, so the source shows a refusal.
                return actions + decided(offer: offer, action: nil, core: core)
            }
            actions.append(
                .decide(
                    window: window, offer: offer, targets: core.offers[offer] ?? [],
                    actions: DesktopDragAction.fromWayland(mask: core.sourceActions[offer] ?? 0)))
            return actions
        case .dragMotion(_, let x, let y):
            guard var visit else { return [] }
            visit.location = DesktopPoint(fixedX: x, y: y)
            self.visit = visit
            guard windows[visit.window]?.isDropTarget == true else { return [] }
            return [
                .decide(
                    window: visit.window, offer: visit.offer, targets: core.offers[visit.offer] ?? [],
                    actions: DesktopDragAction.fromWayland(mask: core.sourceActions[visit.offer] ?? 0))
            ]
        case .dragLeave:
            return endVisit(core: &core)
        case .dragDrop:
            guard let visit else { return [] }
            guard let decision = visit.decision, windows[visit.window]?.isDropTarget == true else {
                return endVisit(core: &core)
            }
            self.visit = nil
            dropped[visit.offer] = visit.window
            let chosen = DesktopDragAction.fromWayland(mask: chosenActions[visit.offer] ?? 0).first
            let drop = WaylandDrop(
                offer: visit.offer, targets: core.offers[visit.offer] ?? [],
                sourceActions: DesktopDragAction.fromWayland(mask: core.sourceActions[visit.offer] ?? 0),
                action: chosen ?? decision, location: visit.location)
            return [.deliver(window: visit.window, drop)]
        case .sourceActions:
            // The core keeps every offer's source actions, as it keeps its types.
            return []
        case .offerAction(let offer, let mask):
            guard core.offers[offer] != nil else { return [] }
            chosenActions[offer] = mask
            return []
        case .dragTarget(let source, let mimeType):
            guard drag?.source == source else { return [] }
            drag?.acceptedTarget = mimeType
            return []
        case .dragAction(let source, let mask):
            guard drag?.source == source else { return [] }
            drag?.lastAction = mask
            return []
        case .dropPerformed(let source):
            guard let drag, drag.source == source else { return [] }
            self.drag?.isDropped = true
            return [.dropPerformed(window: drag.window, source: source)]
        case .dragFinished(let source):
            guard let drag, drag.source == source else { return [] }
            let performed = DesktopDragAction.fromWayland(mask: drag.lastAction).first ?? .copy
            return cancelDrag(
                drag.window, outcome: .dropped(performed: performed, target: drag.acceptedTarget), core: &core)
        case .windowClosed(let toplevel):
            guard let window = windows.first(where: { $0.value.toplevel.toplevel == toplevel })?.key else { return [] }
            return closeWindow(window, core: &core)
        }
    }

    /// The time limit for the target of the dropped drag `source` passed: if it has not finished, the drag is
    /// abandoned (its source destroyed) and the caller learns that the outcome is unknown.
    /// - Returns: Whether the drag was abandoned, and the actions.
    mutating func dragTimedOut(
        _ window: UInt64, source: UInt32, core: inout WaylandState
    ) -> (abandoned: Bool, actions: [Action]) {
        guard let drag, drag.window == window, drag.source == source, drag.isDropped else { return (false, []) }
        self.drag = nil
        core.unroute(source)
        core.objects.destroy(source)
        guard core.failure == nil else { return (true, []) }
        return (true, [.display(.send([WaylandMessage(objectID: source, opcode: 1)]))])  // destroy
    }

    /// `wl_data_source.cancelled` of the drag's source: before the drop, the target refused it (or there was
    /// none); after, the target failed or went away.
    mutating func dragCancelled(_ source: UInt32, core: inout WaylandState) -> [Action] {
        guard let drag, drag.source == source else { return [] }
        let outcome: DesktopDragOutcome =
            drag.isDropped
            ? .cancelled(reason: "The drop target gave up before it finished (it may have exited).")
            : .refused(target: drag.acceptedTarget)
        return cancelDrag(drag.window, outcome: outcome, core: &core)
    }
}

extension DesktopPoint {
    /// The whole pixel of a point given in the wire's 24.8 fixed-point values.
    init(fixedX x: Int32, y: Int32) {
        self.init(x: x >> 8, y: y >> 8)
    }
}
