/// What drag and drop's part of the Wayland machine asks the shell to do, besides sending requests.
enum WaylandDragAndDropAction: Sendable, Equatable {
    /// Window `window` was configured and shows its buffer: ``WaylandBackend`` `openWindow`'s wait ends.
    case windowShown(window: UInt64)
    /// Window `window` is gone (closed by the user or the compositor): its drag ends cancelled, its drops end.
    case windowClosed(window: UInt64)
    /// Ask the window's `decide` what to accept for drag `offer`, then tell the machine
    /// (``WaylandState/decided(offer:action:)``).
    case decide(window: UInt64, offer: UInt32, targets: [String], actions: [DesktopDragAction])
    /// A drop on `window` that the target accepted: hand it to the window's stream of drops.
    case deliver(window: UInt64, WaylandDrop)
    /// Write `mimeType` of the drag from `window` into `fd` (a transfer of its own, which closes `fd`).
    case serve(window: UInt64, mimeType: String, fd: Int32)
    /// The drag from `window` ended so.
    case dragEnded(window: UInt64, DesktopDragOutcome)
    /// The user dropped the drag `source` from `window`: its target has the backend's time limit to finish.
    case dropPerformed(window: UInt64, source: UInt32)
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

/// TransferKit's own windows and the drags and drops on them: the part of ``WaylandState`` that
/// ``WaylandBackend/Binding/dragAndDrop`` uses. Pure data; ``WaylandState``'s methods in this file change it.
struct WaylandDragAndDropState: Sendable, Equatable {
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
    /// The actions each offer's source allows, by offer, as announced (before the offer enters a window).
    var sourceActions: [UInt32: UInt32] = [:]
    /// The compositor's choice of action, by offer.
    var chosenActions: [UInt32: UInt32] = [:]
    /// The dropped offers whose target has not finished, with their window.
    var dropped: [UInt32: UInt64] = [:]

    /// How far (in pixels, either way) the pointer moves with the button held before a drag starts: GTK's default.
    static let threshold: Int32 = 8
    /// `BTN_LEFT`, the first button, in Linux's input event codes.
    static let firstButton: UInt32 = 0x110

    /// Whether drag and drop still needs `offer` (a selection change must not destroy it).
    func holds(_ offer: UInt32) -> Bool {
        visit?.offer == offer || dropped[offer] != nil
    }
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

extension WaylandState {
    /// The globals ``WaylandBackend/Binding/dragAndDrop`` needs: the focus surface's, with
    /// `wl_data_device_manager` at version 3 (drag-and-drop actions).
    static let dragAndDropManagerVersion: UInt32 = 3

    /// Binds what TransferKit's own windows need for drag and drop; the seat's pointer is made once the seat says
    /// it has one.
    ///
    /// - Parameter compositor: The compositor's name for messages (its socket).
    /// - Throws: ``ClipboardError`` with `protocolUnavailable` naming each global that is missing or too old.
    mutating func bindDragAndDrop(compositor: String) throws(ClipboardError) -> [Action] {
        try bindWindowGlobals(
            compositor: compositor, managerVersion: Self.dragAndDropManagerVersion,
            purpose: "drag and drop (wl_data_device on a window of TransferKit's own)")
    }

    /// Whether the machine was bound for drag and drop (``bindDragAndDrop(compositor:)``).
    var isBoundForDragAndDrop: Bool { !usesFocusSurface && flavor == nil && managerVersion >= 3 }

    // MARK: - Windows

    /// Makes a window titled `title` showing the `width`×`height` ARGB pixels in `bufferFD` (which the requests
    /// own from here); ``WaylandDragAndDropAction/windowShown(window:)`` follows at its first configure.
    /// - Returns: The window's number and its surface's id (its identity for messages).
    mutating func openWindow(
        title: String, bufferFD: Int32, width: Int32, height: Int32
    ) throws(ClipboardError) -> (window: UInt64, surface: UInt32, actions: [Action]) {
        try checkOpen()
        guard isBoundForDragAndDrop else {
            throw ClipboardError(
                code: .protocolUnavailable,
                message: "This Wayland connection was not bound for drag and drop; connect with the dragAndDrop "
                    + "binding.")
        }
        let (toplevel, messages) = try makeToplevel(title: title, bufferFD: bufferFD, width: width, height: height)
        let window = dragAndDrop.nextWindow
        dragAndDrop.nextWindow += 1
        dragAndDrop.windows[window] = WaylandDragAndDropState.Window(toplevel: toplevel, width: width, height: height)
        return (window, toplevel.surface, [.send(messages)])
    }
}

extension WaylandState {
    /// The window whose surface is `surface`, if any.
    func window(surface: UInt32) -> UInt64? {
        dragAndDrop.windows.first { $0.value.toplevel.surface == surface }?.key
    }

    /// Answers configure `serial` of a window's `xdgSurface` (the focus surface's is handled before).
    mutating func configureWindow(xdgSurface: UInt32, serial: UInt32) -> [Action] {
        guard let (window, state) = dragAndDrop.windows.first(where: { $0.value.toplevel.xdgSurface == xdgSurface })
        else { return [] }
        var toplevel = state.toplevel
        let wasShown = toplevel.isShown
        let messages = toplevel.configured(serial: serial)
        dragAndDrop.windows[window]?.toplevel = toplevel
        return [.send(messages)] + (wasShown ? [] : [.dragAndDrop(.windowShown(window: window))])
    }

    /// Replaces `window`'s picture with the `width`×`height` pixels in `bufferFD` (which the requests own).
    mutating func redraw(
        _ window: UInt64, bufferFD: Int32, width: Int32, height: Int32
    ) throws(ClipboardError) -> [Action] {
        try checkOpen()
        guard var state = dragAndDrop.windows[window] else { return [.close(bufferFD)] }
        let (buffer, messages) = try makeBuffer(bufferFD: bufferFD, width: width, height: height)
        objects.destroy(state.toplevel.buffer)
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
        dragAndDrop.windows[window] = state
        return [.send(requests)]
    }

    /// Closes `window`: its drag is cancelled, drags over it leave, and ``WaylandDragAndDropAction/windowClosed(window:)``
    /// ends its drops.
    mutating func closeWindow(_ window: UInt64) -> [Action] {
        guard let state = dragAndDrop.windows.removeValue(forKey: window) else { return [] }
        var actions: [Action] = []
        if dragAndDrop.drag?.window == window {
            actions += cancelDrag(window, outcome: .cancelled(reason: "the window was closed"))
        }
        if dragAndDrop.visit?.window == window { actions += endVisit() }
        if dragAndDrop.press?.window == window { dragAndDrop.press = nil }
        if dragAndDrop.focus?.window == window { dragAndDrop.focus = nil }
        guard failure == nil else { return actions + [.dragAndDrop(.windowClosed(window: window))] }
        return actions + [.send(state.toplevel.destroy(in: &objects)), .dragAndDrop(.windowClosed(window: window))]
    }

    // MARK: - Drops on the windows

    /// Makes `window` a drop target (`true`) or not: drags entering it from then on ask `decide`.
    mutating func setDropTarget(_ window: UInt64, _ isTarget: Bool) throws(ClipboardError) {
        try checkOpen()
        guard dragAndDrop.windows[window] != nil else {
            throw ClipboardError(code: .cancelled, message: "The window was closed.")
        }
        dragAndDrop.windows[window]?.isDropTarget = isTarget
    }

    /// `decide`'s answer for the drag `offer` over a window: accept the first MIME type for `action`, or nothing
    /// (nil, or an action the source does not allow); repeated only when it changes.
    mutating func decided(offer: UInt32, action: DesktopDragAction?) -> [Action] {
        guard failure == nil, var visit = dragAndDrop.visit, visit.offer == offer else { return [] }
        let allowed = dragAndDrop.sourceActions[offer] ?? 0
        let accepted = action.flatMap { $0.waylandBit & allowed != 0 ? $0 : nil }
        guard !visit.isDecided || visit.decision != accepted else { return [] }
        visit.decision = accepted
        visit.isDecided = true
        dragAndDrop.visit = visit
        let mimeType = accepted == nil ? nil : offers[offer]?.first
        let bit = accepted?.waylandBit ?? 0
        return [
            .send([
                // accept(serial, mime), set_actions(dnd_actions, preferred_action)
                WaylandMessage(objectID: offer, opcode: 0, arguments: [.uint(visit.serial), .string(mimeType)]),
                WaylandMessage(objectID: offer, opcode: 4, arguments: [.uint(bit), .uint(bit)]),
            ])
        ]
    }

    /// Asks the source of the dropped `offer` to write `target` into `fd` (the write end of a pipe, which the
    /// request owns from here).
    /// - Throws: ``ClipboardError``: the failure, `cancelled` for a drop already finished, `typeUnavailable` for a
    ///   type the drop does not offer.
    func receiveDrop(_ offer: UInt32, _ target: String, into fd: Int32) throws(ClipboardError) -> [Action] {
        try checkOpen()
        guard dragAndDrop.dropped[offer] != nil else {
            throw ClipboardError(code: .cancelled, message: "The drop was already finished.", source: target)
        }
        guard offers[offer]?.contains(target) == true else {
            throw ClipboardError(
                code: .typeUnavailable, message: "The drop does not offer \(target).", source: target)
        }
        return [.send([WaylandMessage(objectID: offer, opcode: 1, arguments: [.string(target), .fd(fd)])])]
    }

    /// The target is done with the dropped `offer`: `finish` when it performed an action the source allows (after
    /// `set_actions` naming it, when it differs from the accepted one), then `destroy`; without an action, only
    /// `destroy` (the source sees `cancelled`).
    mutating func finishDrop(_ offer: UInt32, performed: DesktopDragAction?, accepted: DesktopDragAction) -> [Action] {
        guard dragAndDrop.dropped.removeValue(forKey: offer) != nil else { return [] }
        let allowed = dragAndDrop.sourceActions[offer] ?? 0
        forgetOffer(offer)
        guard failure == nil else { return [] }
        var messages: [WaylandMessage] = []
        if let performed, performed.waylandBit & allowed != 0, performed != .ask {
            if performed != accepted {
                let bit = performed.waylandBit
                messages.append(WaylandMessage(objectID: offer, opcode: 4, arguments: [.uint(bit), .uint(bit)]))
            }
            messages.append(WaylandMessage(objectID: offer, opcode: 3))  // finish
        }
        messages.append(WaylandMessage(objectID: offer, opcode: 2))  // destroy
        return [.send(messages)]
    }

    /// Forgets everything known about `offer` and marks it destroyed.
    private mutating func forgetOffer(_ offer: UInt32) {
        offers[offer] = nil
        dragAndDrop.sourceActions[offer] = nil
        dragAndDrop.chosenActions[offer] = nil
        objects.destroy(offer)
    }

    /// The drag over a window left it without a drop: its offer is destroyed.
    private mutating func endVisit() -> [Action] {
        guard let visit = dragAndDrop.visit else { return [] }
        dragAndDrop.visit = nil
        guard visit.offer != 0, dragAndDrop.dropped[visit.offer] == nil else { return [] }
        forgetOffer(visit.offer)
        guard failure == nil else { return [] }
        return [.send([WaylandMessage(objectID: visit.offer, opcode: 2)])]  // destroy
    }

    // MARK: - Drags from the windows

    /// Arms `window`: a press of the first button on it followed by a move past the threshold starts a drag of
    /// `targets` with `actions`.
    /// - Throws: ``ClipboardError``: the failure; `cancelled` for a closed window; `protocolUnavailable` when none of
    ///   `actions` exists on Wayland (link) or a drag is under way already.
    mutating func armDrag(
        _ window: UInt64, targets: [String], actions: [DesktopDragAction]
    ) throws(ClipboardError) {
        try checkOpen()
        guard dragAndDrop.windows[window] != nil else {
            throw ClipboardError(code: .cancelled, message: "The window was closed.")
        }
        guard actions.contains(where: { $0.waylandBit != 0 }) else {
            throw ClipboardError(
                code: .protocolUnavailable,
                message: "Wayland drags offer copy, move or ask; \(actions.map(\.rawValue)) has none of them.")
        }
        guard dragAndDrop.drag?.window != window, dragAndDrop.windows[window]?.armed == nil else {
            throw ClipboardError(code: .protocolUnavailable, message: "A drag from this window is under way already.")
        }
        dragAndDrop.windows[window]?.armed = .init(targets: targets, actions: actions)
    }

    /// Ends the drag from `window` (or its wait for a press): the source is destroyed (the target sees the drag
    /// leave) and ``WaylandDragAndDropAction/dragEnded(window:_:)`` reports `outcome`.
    mutating func cancelDrag(_ window: UInt64, outcome: DesktopDragOutcome) -> [Action] {
        dragAndDrop.windows[window]?.armed = nil
        guard let drag = dragAndDrop.drag, drag.window == window else { return [] }
        dragAndDrop.drag = nil
        objects.destroy(drag.source)
        let ended: [Action] = [.dragAndDrop(.dragEnded(window: window, outcome))]
        guard failure == nil else { return ended }
        return [.send([WaylandMessage(objectID: drag.source, opcode: 1)])] + ended  // destroy
    }

    /// Starts the drag armed on `press`'s window, if it is armed: `create_data_source`, an `offer` per target,
    /// `set_actions`, `start_drag(source, origin, no icon, the press's serial)`.
    private mutating func startDrag(_ press: WaylandDragAndDropState.Press) -> [Action] {
        guard let window = dragAndDrop.windows[press.window], let armed = window.armed, dragAndDrop.drag == nil
        else { return [] }
        let source: UInt32
        do {
            source = try objects.create(.dataSource)
        } catch {
            return fail(error)
        }
        dragAndDrop.windows[press.window]?.armed = nil
        dragAndDrop.press = nil
        dragAndDrop.drag = .init(window: press.window, source: source)
        var messages = [WaylandMessage(objectID: manager, opcode: 0, arguments: [.newID(source)])]
        for target in armed.targets {
            messages.append(WaylandMessage(objectID: source, opcode: 0, arguments: [.string(target)]))
        }
        let mask = armed.actions.reduce(0) { $0 | $1.waylandBit }
        messages.append(WaylandMessage(objectID: source, opcode: 2, arguments: [.uint(mask)]))
        messages.append(
            WaylandMessage(
                objectID: device, opcode: 0,
                arguments: [.object(source), .object(window.toplevel.surface), .object(0), .uint(press.serial)]))
        return [.send(messages)]
    }

    // MARK: - Events

    /// Handles one event of drag and drop.
    mutating func handle(_ event: WaylandDragAndDropEvent) -> [Action] {
        switch event {
        case .seatCapabilities(let seat, let capabilities):
            // The pointer is asked for once the seat has one (a headless compositor's seat may get one later).
            guard isBoundForDragAndDrop, seat == self.seat, capabilities & 1 != 0, dragAndDrop.pointer == 0 else {
                return []
            }
            do {
                dragAndDrop.pointer = try objects.create(.pointer)
            } catch {
                return fail(error)
            }
            return [.send([WaylandMessage(objectID: seat, opcode: 0, arguments: [.newID(dragAndDrop.pointer)])])]
        case .pointerEnter(_, let surface, let x, let y):
            dragAndDrop.focus = window(surface: surface).map { .init(window: $0, location: .init(fixedX: x, y: y)) }
            return []
        case .pointerLeave:
            dragAndDrop.focus = nil
            return []
        case .pointerMotion(_, let x, let y):
            guard var focus = dragAndDrop.focus else { return [] }
            focus.location = DesktopPoint(fixedX: x, y: y)
            dragAndDrop.focus = focus
            guard let press = dragAndDrop.press, press.window == focus.window else { return [] }
            let distance = max(abs(focus.location.x - press.origin.x), abs(focus.location.y - press.origin.y))
            return distance >= WaylandDragAndDropState.threshold ? startDrag(press) : []
        case .pointerButton(let serial, _, let button, let state):
            guard button == WaylandDragAndDropState.firstButton else { return [] }
            if state == 1, let focus = dragAndDrop.focus {
                dragAndDrop.press = .init(window: focus.window, serial: serial, origin: focus.location)
            } else {
                dragAndDrop.press = nil
            }
            return []
        case .dragEnter(let serial, let surface, let x, let y, let offer):
            var actions = endVisit()
            guard let window = window(surface: surface), offer != 0 else { return actions }
            let location = DesktopPoint(fixedX: x, y: y)
            dragAndDrop.visit = .init(window: window, offer: offer, serial: serial, location: location)
            guard dragAndDrop.windows[window]?.isDropTarget == true else {
                // Not a drop target: say no at once, so the source shows a refusal.
                return actions + decided(offer: offer, action: nil)
            }
            actions.append(
                .dragAndDrop(
                    .decide(
                        window: window, offer: offer, targets: offers[offer] ?? [],
                        actions: DesktopDragAction.fromWayland(mask: dragAndDrop.sourceActions[offer] ?? 0))))
            return actions
        case .dragMotion(_, let x, let y):
            guard var visit = dragAndDrop.visit else { return [] }
            visit.location = DesktopPoint(fixedX: x, y: y)
            dragAndDrop.visit = visit
            guard dragAndDrop.windows[visit.window]?.isDropTarget == true else { return [] }
            return [
                .dragAndDrop(
                    .decide(
                        window: visit.window, offer: visit.offer, targets: offers[visit.offer] ?? [],
                        actions: DesktopDragAction.fromWayland(mask: dragAndDrop.sourceActions[visit.offer] ?? 0)))
            ]
        case .dragLeave:
            return endVisit()
        case .dragDrop:
            guard let visit = dragAndDrop.visit else { return [] }
            guard let decision = visit.decision, dragAndDrop.windows[visit.window]?.isDropTarget == true else {
                return endVisit()
            }
            dragAndDrop.visit = nil
            dragAndDrop.dropped[visit.offer] = visit.window
            let chosen = DesktopDragAction.fromWayland(mask: dragAndDrop.chosenActions[visit.offer] ?? 0).first
            let drop = WaylandDrop(
                offer: visit.offer, targets: offers[visit.offer] ?? [],
                sourceActions: DesktopDragAction.fromWayland(mask: dragAndDrop.sourceActions[visit.offer] ?? 0),
                action: chosen ?? decision, location: visit.location)
            return [.dragAndDrop(.deliver(window: visit.window, drop))]
        case .sourceActions(let offer, let mask):
            guard offers[offer] != nil else { return [] }
            dragAndDrop.sourceActions[offer] = mask
            return []
        case .offerAction(let offer, let mask):
            guard offers[offer] != nil else { return [] }
            dragAndDrop.chosenActions[offer] = mask
            return []
        case .dragTarget(let source, let mimeType):
            guard dragAndDrop.drag?.source == source else { return [] }
            dragAndDrop.drag?.acceptedTarget = mimeType
            return []
        case .dragAction(let source, let mask):
            guard dragAndDrop.drag?.source == source else { return [] }
            dragAndDrop.drag?.lastAction = mask
            return []
        case .dropPerformed(let source):
            guard let drag = dragAndDrop.drag, drag.source == source else { return [] }
            dragAndDrop.drag?.isDropped = true
            return [.dragAndDrop(.dropPerformed(window: drag.window, source: source))]
        case .dragFinished(let source):
            guard let drag = dragAndDrop.drag, drag.source == source else { return [] }
            let performed = DesktopDragAction.fromWayland(mask: drag.lastAction).first ?? .copy
            return cancelDrag(drag.window, outcome: .dropped(performed: performed, target: drag.acceptedTarget))
        case .windowClosed(let toplevel):
            guard let window = dragAndDrop.windows.first(where: { $0.value.toplevel.toplevel == toplevel })?.key
            else { return [] }
            return closeWindow(window)
        }
    }

    /// The time limit for the target of the dropped drag `source` passed: if it has not finished, the drag is
    /// abandoned (its source destroyed) and the caller learns that the outcome is unknown.
    /// - Returns: Whether the drag was abandoned, and the actions.
    mutating func dragTimedOut(_ window: UInt64, source: UInt32) -> (abandoned: Bool, actions: [Action]) {
        guard let drag = dragAndDrop.drag, drag.window == window, drag.source == source, drag.isDropped else {
            return (false, [])
        }
        dragAndDrop.drag = nil
        objects.destroy(source)
        guard failure == nil else { return (true, []) }
        return (true, [.send([WaylandMessage(objectID: source, opcode: 1)])])  // destroy
    }

    /// `wl_data_source.cancelled` of the drag's source: before the drop, the target refused it (or there was
    /// none); after, the target failed or went away.
    mutating func dragCancelled(_ source: UInt32) -> [Action]? {
        guard let drag = dragAndDrop.drag, drag.source == source else { return nil }
        let outcome: DesktopDragOutcome =
            drag.isDropped
            ? .cancelled(reason: "The drop target gave up before it finished (it may have exited).")
            : .refused(target: drag.acceptedTarget)
        return cancelDrag(drag.window, outcome: outcome)
    }

    /// `wl_data_source.send` of the drag's source: serve it.
    func dragSend(_ source: UInt32, mimeType: String, fd: Int32) -> [Action]? {
        guard let drag = dragAndDrop.drag, drag.source == source else { return nil }
        return [.dragAndDrop(.serve(window: drag.window, mimeType: mimeType, fd: fd))]
    }
}

extension DesktopPoint {
    /// The whole pixel of a point given in the wire's 24.8 fixed-point values.
    init(fixedX x: Int32, y: Int32) {
        self.init(x: x >> 8, y: y >> 8)
    }
}
