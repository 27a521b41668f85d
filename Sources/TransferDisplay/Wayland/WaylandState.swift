/// One Wayland connection's core as a pure state machine: state in, a request or an event in, actions out.
///
/// It knows the objects, globals, offers, selections, the sources this client owns, the round trips in flight and
/// the watchers, all by id; it holds no continuation, socket or closure and calls nothing. ``WaylandConnection``
/// matches its actions to the waiters and closures its ids stand for, and ``WaylandBackend`` carries them out: sends
/// the requests, starts the transfers, closes descriptors, resumes the waiters.
/// Once the connection has failed, every later event is dropped (closing any descriptor it carried) and every
/// request throws the failure.
///
/// The objects it does not own (a subscriber's: TransferKit's own windows, the seat's pointer, a drag's source and
/// offer) are routed (``route(_:)``): their events come out as ``Action/route(_:)`` for the one
/// ``WaylandObjectSubscriber``, which the shell runs under the same lock, and the end of the connection as
/// ``Action/endSubscription(_:)``, once.
package struct WaylandState: Sendable {
    /// A global the registry announced.
    struct Global: Sendable, Equatable {
        /// The registry's name for it.
        var name: UInt32
        /// Its interface, such as `wl_seat`.
        var interface: String
        /// The highest version it supports.
        var version: UInt32
    }

    /// What the shell does for the machine, in order.
    package enum Action: Sendable, Equatable {
        /// Sends these requests after every request sent before; the descriptors they carry are the shell's to
        /// close once sent.
        case send([WaylandMessage])
        /// Writes `mimeType` of `source` into `fd` (a transfer of its own, which closes `fd`).
        case serve(source: UInt32, mimeType: String, fd: Int32)
        /// Closes a descriptor nobody will use.
        case close(Int32)
        /// The compositor handled every request sent before round trip `callback`.
        case finishRoundTrip(callback: UInt32)
        /// Round trip `callback` failed.
        case failRoundTrip(callback: UInt32, ClipboardError)
        /// The selection `source` held is lost (taken, released, or the connection ended).
        case endOwnership(source: UInt32)
        /// Watcher `watcher` sees a new owner offering `types` (empty: cleared), and `omitted` more names beyond
        /// ``WaylandState/maximumTypesPerOffer``.
        case notify(watcher: UInt64, types: [String], omitted: Int)
        /// Watcher `watcher`'s stream ends, with the error or (when the user closed the connection) without.
        case finishWatcher(UInt64, ClipboardError?)
        /// The connection failed: shut the socket down.
        case disconnect
        /// The focus surface has keyboard focus: the waits for it end.
        case focusGained
        /// An event of a routed object: hand it to the subscriber (``WaylandObjectSubscriber/receive(_:core:)``).
        case route(WaylandEvent)
        /// The connection ended with this error: tell the subscriber
        /// (``WaylandObjectSubscriber/connectionEnded(_:core:)``); comes once, and only after ``subscribe()``.
        case endSubscription(ClipboardError)

        /// Equal actions; errors are compared by code.
        package static func == (lhs: Action, rhs: Action) -> Bool {
            switch (lhs, rhs) {
            case (.send(let left), .send(let right)): left == right
            case (.serve(let s1, let m1, let f1), .serve(let s2, let m2, let f2)): s1 == s2 && m1 == m2 && f1 == f2
            case (.close(let left), .close(let right)): left == right
            case (.finishRoundTrip(let left), .finishRoundTrip(let right)): left == right
            case (.failRoundTrip(let c1, let e1), .failRoundTrip(let c2, let e2)): c1 == c2 && e1.code == e2.code
            case (.endOwnership(let left), .endOwnership(let right)): left == right
            case (.notify(let w1, let t1, let o1), .notify(let w2, let t2, let o2)): w1 == w2 && t1 == t2 && o1 == o2
            case (.finishWatcher(let w1, let e1), .finishWatcher(let w2, let e2)): w1 == w2 && e1?.code == e2?.code
            case (.disconnect, .disconnect), (.focusGained, .focusGained): true
            case (.route(let left), .route(let right)): left == right
            case (.endSubscription(let left), .endSubscription(let right)): left.code == right.code
            default: false
            }
        }
    }

    /// The objects this client knows, by id (a subscriber makes objects in it too).
    package var objects = WaylandObjectTable()
    /// Why the connection ended, once it has.
    package private(set) var failure: ClipboardError?
    /// The registry's globals, in announcement order.
    private(set) var globals: [Global] = []
    /// The registry, once asked for.
    private(set) var registry: UInt32 = 0
    /// The data-control manager (or `wl_data_device_manager`), once bound.
    package private(set) var manager: UInt32 = 0
    /// The version the manager was bound at.
    private(set) var managerVersion: UInt32 = 0
    /// The seat's data-control device (or `wl_data_device`), once made.
    package private(set) var device: UInt32 = 0
    /// The seat, once bound.
    package private(set) var seat: UInt32 = 0
    /// The data-control protocol in use, once bound.
    private(set) var flavor: WaylandDataControlFlavor?
    /// The MIME types of each offer the compositor announced and that is not finished with.
    package private(set) var offers: [UInt32: [String]] = [:]
    /// The actions each offer's source allows (`wl_data_offer.source_actions`, a `dnd_action` mask), as announced.
    package private(set) var sourceActions: [UInt32: UInt32] = [:]
    /// How many names each offer listed beyond ``maximumTypesPerOffer`` (ignored; absent when none).
    private(set) var omittedTypes: [UInt32: Int] = [:]
    /// The most MIME types kept of one offer (``ClipboardLimits/maximumOfferedTypes`` when the connection was made);
    /// the others are ignored, and counted in ``omittedTypes``. Selections and drag and drop share it.
    var maximumTypesPerOffer = ClipboardLimits.maximumOfferedTypes
    /// The offer each selection shows now.
    private(set) var current: [ClipboardSelection: UInt32] = [:]
    /// The sources this client owns, with the selection each holds.
    private(set) var sources: [UInt32: ClipboardSelection] = [:]
    /// The round trips whose `done` is awaited.
    private(set) var roundTrips: Set<UInt32> = []
    /// The watchers and the selection each watches.
    private(set) var watchers: [UInt64: ClipboardSelection] = [:]
    private var nextWatcher: UInt64 = 1
    /// Whether the selection goes through `wl_data_device` and a focus surface rather than data control.
    private(set) var usesFocusSurface = false
    /// The focus surface's objects, while it exists.
    private(set) var focusSurface: Toplevel?
    /// The serial of the keyboard focus the focus surface holds, while it holds it.
    private(set) var focusSerial: UInt32?
    /// The objects that make surfaces, shared memory and toplevels, once bound.
    private(set) var factories = (compositor: UInt32(0), shm: UInt32(0), windowManager: UInt32(0))
    /// The objects whose events go to the subscriber (``Action/route(_:)``), not to this machine.
    package private(set) var routed: Set<UInt32> = []
    /// Whether a subscriber takes the routed events (``subscribe()``), and so the end.
    package private(set) var isSubscribed = false

    /// A toplevel window and the one buffer it shows: the focus surface (a short-lived 1×1 toplevel that takes
    /// keyboard focus, so that `wl_data_device` lets this client set and read the selection, as wl-clipboard does
    /// on compositors without data control), or a window of drag and drop.
    package struct Toplevel: Sendable, Equatable {
        /// The `wl_surface`.
        package var surface: UInt32
        /// Its `xdg_surface`.
        package var xdgSurface: UInt32
        /// Its `xdg_toplevel`.
        package var toplevel: UInt32
        /// The `wl_buffer` it shows.
        package var buffer: UInt32
        /// Whether the first configure came and the buffer is attached.
        package var isShown = false

        /// The requests that answer configure `serial`: acknowledge it and, the first time, attach the buffer (the
        /// surface is mapped at the commit that follows).
        package mutating func configured(serial: UInt32) -> [WaylandMessage] {
            var messages = [WaylandMessage(objectID: xdgSurface, opcode: 4, arguments: [.uint(serial)])]
            if !isShown {
                // attach(buffer, 0, 0)
                messages.append(
                    WaylandMessage(objectID: surface, opcode: 1, arguments: [.object(buffer), .int(0), .int(0)]))
                isShown = true
            }
            messages.append(WaylandMessage(objectID: surface, opcode: 6))  // commit
            return messages
        }

        /// Marks the objects destroyed in `objects` and returns their destroy requests, the toplevel first.
        package func destroy(in objects: inout WaylandObjectTable) -> [WaylandMessage] {
            let order = [toplevel, xdgSurface, surface, buffer]
            for id in order { objects.destroy(id) }
            return order.map { WaylandMessage(objectID: $0, opcode: 0) }  // each one's destroy
        }
    }

    /// The title of the focus surface's window, which a user may see flash by.
    static let focusSurfaceTitle = "TransferKit clipboard"

    /// The most offers kept at once: the two selections and a few announced ahead of their selection event.
    static let maximumOffers = 16
    /// The most globals a registry may announce.
    static let maximumGlobals = 4096

    /// A connection that knows only `wl_display`.
    init() {}

    // MARK: - Requests

    /// Throws the failure once the connection has ended.
    package func checkOpen() throws(ClipboardError) {
        if let failure { throw failure }
    }

    /// Asks for the registry (`wl_display.get_registry`); its globals arrive before the next round trip ends.
    mutating func getRegistry() throws(ClipboardError) -> [Action] {
        try checkOpen()
        registry = try objects.create(.registry)
        return [.send([WaylandMessage(objectID: 1, opcode: 1, arguments: [.newID(registry)])])]
    }

    /// Binds the seat and the data-control manager the registry announced and makes the seat's data device.
    ///
    /// - Parameter compositor: The compositor's name for messages (its socket).
    /// - Throws: ``ClipboardError`` with `protocolUnavailable` without a data-control manager or a seat.
    mutating func bindDataControl(compositor: String) throws(ClipboardError) -> [Action] {
        try checkOpen()
        let globals = self.globals
        let found = WaylandDataControlFlavor.allCases.lazy.compactMap { flavor in
            globals.first { $0.interface == flavor.managerInterface }.map { (flavor, $0) }
        }.first
        guard let (flavor, managerGlobal) = found else {
            // The focus-surface fallback is named only where the compositor has what it needs.
            let canFocus = Self.focusSurfaceInterfaces.allSatisfy { name in globals.contains { $0.interface == name } }
            let choices =
                canFocus
                ? ", a compositor that has data control (sway, Hyprland, KDE Plasma 6, labwc, niri, …), or opt in "
                    + "to the focus-surface fallback (a window flashes and takes keyboard focus: "
                    + "ClipboardBackendChoice.waylandFocusSurface, transferkit --backend wayland-focus)."
                : ", or a compositor that has data control (sway, Hyprland, KDE Plasma 6, labwc, niri, …)."
            throw ClipboardError(
                code: .protocolUnavailable,
                message: "The Wayland compositor at \(compositor) offers neither ext_data_control_manager_v1 "
                    + "(ext-data-control-v1) nor zwlr_data_control_manager_v1 (wlr-data-control), so no client "
                    + "can read or write its clipboard without keyboard focus (GNOME's Mutter and weston have "
                    + "neither). It offers \(Self.describe(globals)). Use X11 through XWayland (set DISPLAY to its "
                    + "display, as GNOME sessions do)" + choices,
                source: compositor)
        }
        guard let seatGlobal = globals.first(where: { $0.interface == "wl_seat" }) else {
            throw ClipboardError(
                code: .protocolUnavailable,
                message: "The Wayland compositor at \(compositor) has no seat (wl_seat), and a clipboard "
                    + "belongs to a seat.", source: compositor)
        }
        let seat = try objects.create(.seat)
        manager = try objects.create(.dataControlManager)
        managerVersion = min(managerGlobal.version, flavor.preferredVersion)
        device = try objects.create(.dataControlDevice)
        self.flavor = flavor
        return [
            .send([
                bind(seatGlobal, version: 1, id: seat),
                bind(managerGlobal, version: managerVersion, id: manager),
                // get_data_device(id, seat)
                WaylandMessage(objectID: manager, opcode: 1, arguments: [.newID(device), .object(seat)]),
            ])
        ]
    }

    /// The globals a diagnosis names: the data-control managers, and what a client with a window uses instead
    /// (`wl_data_device_manager` through a `wl_seat`'s keyboard focus, on an `xdg_wm_base` surface in `wl_shm`).
    package static let diagnosedInterfaces = [
        "ext_data_control_manager_v1", "zwlr_data_control_manager_v1", "wl_data_device_manager", "wl_seat",
        "xdg_wm_base", "wl_shm",
    ]

    /// Which of ``diagnosedInterfaces`` `globals` holds, with their versions, and which not:
    /// `wl_data_device_manager v3, xdg_wm_base v1 and wl_shm v1, but no wl_seat`.
    static func describe(_ globals: [Global]) -> String {
        var present: [String] = []
        var absent: [String] = []
        for interface in diagnosedInterfaces.dropFirst(2) {
            if let version = globals.filter({ $0.interface == interface }).map(\.version).max() {
                present.append("\(interface) v\(version)")
            } else {
                absent.append(interface)
            }
        }
        func list(_ names: [String], _ conjunction: String = "and") -> String {
            names.count < 2
                ? names.joined()
                : names.dropLast().joined(separator: ", ") + " \(conjunction) " + names[names.count - 1]
        }
        switch (present.isEmpty, absent.isEmpty) {
        case (true, _): return "none of \(list(absent))"
        case (false, true): return list(present)
        case (false, false): return "\(list(present)), but no \(list(absent, "or"))"
        }
    }

    /// The globals the focus-surface fallback needs.
    package static let focusSurfaceInterfaces = [
        "wl_compositor", "wl_shm", "xdg_wm_base", "wl_seat", "wl_data_device_manager",
    ]

    /// Binds what the focus-surface fallback needs (all at version 1) and makes the seat's keyboard and data device.
    ///
    /// - Parameter compositor: The compositor's name for messages (its socket).
    /// - Throws: ``ClipboardError`` with `protocolUnavailable` when a global is missing (weston's headless backend
    ///   has no `wl_seat`).
    mutating func bindDataDevice(compositor: String) throws(ClipboardError) -> [Action] {
        let actions = try bindWindowGlobals(
            compositor: compositor, managerVersion: 1, purpose: "the focus-surface fallback")
        usesFocusSurface = true
        return actions
    }

    /// Binds the globals a client with windows and a data device needs (``focusSurfaceInterfaces``), the manager at
    /// `managerVersion` and the rest at version 1, and makes the seat's data device, and its keyboard when the
    /// manager is at version 1 (the focus surface's selection).
    ///
    /// - Parameters:
    ///   - compositor: The compositor's name for messages (its socket).
    ///   - purpose: What needs the globals, for the message.
    /// - Throws: ``ClipboardError`` with `protocolUnavailable` naming the missing globals.
    package mutating func bindWindowGlobals(
        compositor: String, managerVersion: UInt32, purpose: String
    ) throws(ClipboardError) -> [Action] {
        try checkOpen()
        let globals = self.globals
        let found = Self.focusSurfaceInterfaces.map { name in globals.first { $0.interface == name } }
        var missing = zip(Self.focusSurfaceInterfaces, found).filter { $0.1 == nil }.map(\.0)
        if let manager = found[4], manager.version < managerVersion {
            missing.append("wl_data_device_manager v\(managerVersion) (it has v\(manager.version))")
        }
        guard missing.isEmpty else {
            throw ClipboardError(
                code: .protocolUnavailable,
                message: "The Wayland compositor at \(compositor) has no \(missing.joined(separator: " or ")), which "
                    + "\(purpose) needs (it offers \(Self.describe(globals))).",
                source: compositor)
        }
        let global = found.compactMap { $0 }
        // Ids in the order the requests use them: the compositor refuses an id past the next free one.
        factories = (
            try objects.create(.compositor), try objects.create(.shm), try objects.create(.windowManager)
        )
        seat = try objects.create(.seat)
        manager = try objects.create(.dataDeviceManager)
        self.managerVersion = managerVersion
        let keyboard = managerVersion == 1 ? try objects.create(.keyboard) : nil
        device = try objects.create(.dataDevice)
        var messages = [
            bind(global[0], version: 1, id: factories.compositor),
            bind(global[1], version: 1, id: factories.shm),
            bind(global[2], version: 1, id: factories.windowManager),
            bind(global[3], version: 1, id: seat),
            bind(global[4], version: managerVersion, id: manager),
        ]
        if let keyboard { messages.append(WaylandMessage(objectID: seat, opcode: 1, arguments: [.newID(keyboard)])) }
        // get_data_device(id, seat)
        messages.append(WaylandMessage(objectID: manager, opcode: 1, arguments: [.newID(device), .object(seat)]))
        return [.send(messages)]
    }

    /// Makes the focus surface, unless it exists: a toplevel whose one 4-byte pixel is in `bufferFD` (a file of at
    /// least 4 bytes, which the shell closes once sent); it is shown at its first configure, and
    /// ``Action/focusGained`` follows when the compositor gives it keyboard focus.
    mutating func showFocusSurface(bufferFD: Int32) throws(ClipboardError) -> [Action] {
        try checkOpen()
        guard usesFocusSurface, focusSurface == nil else { return [.close(bufferFD)] }
        let (focus, messages) = try makeToplevel(
            title: Self.focusSurfaceTitle, bufferFD: bufferFD, width: 1, height: 1)
        focusSurface = focus
        return [.send(messages)]
    }

    /// The requests that make a toplevel titled `title` showing one `width`×`height` ARGB buffer whose pixels are in
    /// `bufferFD` (which the request owns from here); it is shown at its first configure (``handle(_:live:)``).
    package mutating func makeToplevel(
        title: String, bufferFD: Int32, width: Int32, height: Int32
    ) throws(ClipboardError) -> (Toplevel, [WaylandMessage]) {
        // Ids in the order the requests below use them.
        let (buffer, poolMessages) = try makeBuffer(bufferFD: bufferFD, width: width, height: height)
        let surface = try objects.create(.surface)
        let toplevel = Toplevel(
            surface: surface, xdgSurface: try objects.create(.xdgSurface), toplevel: try objects.create(.toplevel),
            buffer: buffer)
        return (
            toplevel,
            poolMessages + [
                WaylandMessage(objectID: factories.compositor, opcode: 0, arguments: [.newID(toplevel.surface)]),
                // get_xdg_surface(id, surface), get_toplevel(id), set_title, then commit for the first configure
                WaylandMessage(
                    objectID: factories.windowManager, opcode: 2,
                    arguments: [.newID(toplevel.xdgSurface), .object(toplevel.surface)]),
                WaylandMessage(objectID: toplevel.xdgSurface, opcode: 1, arguments: [.newID(toplevel.toplevel)]),
                WaylandMessage(objectID: toplevel.toplevel, opcode: 2, arguments: [.string(title)]),
                WaylandMessage(objectID: toplevel.surface, opcode: 6),
            ]
        )
    }

    /// The requests that make one `width`×`height` ARGB buffer over the pixels in `bufferFD` (a pool that is
    /// destroyed at once: the buffer keeps the memory).
    package mutating func makeBuffer(
        bufferFD: Int32, width: Int32, height: Int32
    ) throws(ClipboardError) -> (buffer: UInt32, [WaylandMessage]) {
        let pool = try objects.create(.shmPool)
        let buffer = try objects.create(.buffer)
        objects.destroy(pool)
        let stride = width &* 4
        return (
            buffer,
            [
                WaylandMessage(
                    objectID: factories.shm, opcode: 0,
                    arguments: [.newID(pool), .fd(bufferFD), .int(stride &* height)]),
                // create_buffer(id, offset 0, width, height, stride, argb8888)
                WaylandMessage(
                    objectID: pool, opcode: 0,
                    arguments: [.newID(buffer), .int(0), .int(width), .int(height), .int(stride), .uint(0)]),
                WaylandMessage(objectID: pool, opcode: 1),  // destroy: the buffer keeps the memory
            ]
        )
    }

    /// Destroys the focus surface, if it exists; the compositor gives the focus back.
    mutating func hideFocusSurface() -> [Action] {
        guard let focus = focusSurface, failure == nil else { return [] }
        focusSurface = nil
        focusSerial = nil
        return [.send(focus.destroy(in: &objects))]
    }

    private func bind(_ global: Global, version: UInt32, id: UInt32) -> WaylandMessage {
        WaylandMessage(
            objectID: registry, opcode: 0,
            arguments: [.uint(global.name), .string(global.interface), .uint(version), .newID(id)])
    }

    /// Starts a round trip (`wl_display.sync`): ``Action/finishRoundTrip(callback:)`` follows once the compositor
    /// handled every request sent before.
    mutating func startRoundTrip() throws(ClipboardError) -> (callback: UInt32, actions: [Action]) {
        try checkOpen()
        let callback = try objects.create(.callback)
        roundTrips.insert(callback)
        return (callback, [.send([WaylandMessage(objectID: 1, opcode: 0, arguments: [.newID(callback)])])])
    }

    /// Round trip `callback` passed its deadline: the connection is no longer trusted, unless its answer came first.
    mutating func roundTripTimedOut(_ callback: UInt32, after timeout: Duration) -> [Action] {
        guard roundTrips.contains(callback) else { return [] }
        return fail(
            ClipboardError(code: .timedOut, message: "The Wayland compositor did not answer within \(timeout)."))
    }

    /// The waiter of round trip `callback` gave up (its task was cancelled); the answer is dropped when it comes.
    mutating func abandonRoundTrip(_ callback: UInt32) {
        roundTrips.remove(callback)
    }

    /// Checks that `selection` exists under the bound protocol (zwlr version 1 has no primary selection).
    func checkSelection(_ selection: ClipboardSelection) throws(ClipboardError) {
        if isBoundForDragAndDrop {
            throw ClipboardError(
                code: .protocolUnavailable,
                message: "This Wayland connection was bound for drag and drop, which has no clipboard; connect with "
                    + "the dataControl binding for the clipboard.")
        }
        if selection == .primary && usesFocusSurface {
            throw ClipboardError(
                code: .protocolUnavailable,
                message: "wl_data_device, which the focus-surface fallback uses, has no primary selection; use the "
                    + "clipboard.")
        }
        if selection == .primary && flavor == .wlr && managerVersion < 2 {
            throw ClipboardError(
                code: .protocolUnavailable,
                message: "This compositor's zwlr_data_control_manager_v1 is version 1, which has no primary "
                    + "selection; use the clipboard.")
        }
    }

    /// Takes `selection` with a new source offering `targets`.
    /// - Returns: The source, whose `send` events become ``Action/serve(source:mimeType:fd:)``.
    /// - Throws: ``ClipboardError``: the failure, `protocolUnavailable` for a selection the protocol lacks, or
    ///   `protocolViolation` for a target too long for a message.
    mutating func own(
        _ selection: ClipboardSelection, targets: [String]
    ) throws(ClipboardError) -> (source: UInt32, actions: [Action]) {
        try checkOpen()
        try checkSelection(selection)
        let source = try objects.create(usesFocusSurface ? .dataSource : .dataControlSource)
        // create_data_source, an offer per target, then set_selection or set_primary_selection.
        var messages = [WaylandMessage(objectID: manager, opcode: 0, arguments: [.newID(source)])]
        for target in targets {
            messages.append(WaylandMessage(objectID: source, opcode: 0, arguments: [.string(target)]))
        }
        if usesFocusSurface {
            guard let focusSerial else {
                objects.forget(source)
                throw ClipboardError(
                    code: .protocolUnavailable,
                    message: "The focus surface does not have keyboard focus, which wl_data_device needs to set the "
                        + "selection.")
            }
            // wl_data_device.set_selection(source, serial)
            messages.append(
                WaylandMessage(objectID: device, opcode: 1, arguments: [.object(source), .uint(focusSerial)]))
        } else {
            messages.append(
                WaylandMessage(objectID: device, opcode: selection == .primary ? 2 : 0, arguments: [.object(source)]))
        }
        do {
            for message in messages { _ = try WaylandWire.encode(message) }
        } catch {
            objects.forget(source)
            throw error
        }
        sources[source] = selection
        return (source, [.send(messages)])
    }

    /// Gives up `source`: clears its selection if it still holds it, and destroys it.
    mutating func release(_ source: UInt32) -> [Action] {
        guard let selection = sources.removeValue(forKey: source) else { return [] }
        objects.destroy(source)
        if usesFocusSurface {
            // Without focus set_selection would be ignored; the compositor clears a selection whose source is
            // destroyed.
            return [.send([WaylandMessage(objectID: source, opcode: 1)]), .endOwnership(source: source)]
        }
        return [
            .send([
                WaylandMessage(objectID: device, opcode: selection == .primary ? 2 : 0, arguments: [.object(0)]),
                WaylandMessage(objectID: source, opcode: 1),  // destroy
            ]),
            .endOwnership(source: source),
        ]
    }

    /// The MIME types `selection` offers now.
    func offeredTypes(_ selection: ClipboardSelection) -> [String] {
        current[selection].flatMap { offers[$0] } ?? []
    }

    /// How many MIME types beyond ``maximumTypesPerOffer`` the offer `selection` shows now listed (and this client
    /// ignored).
    func omittedTypeCount(_ selection: ClipboardSelection) -> Int {
        current[selection].flatMap { omittedTypes[$0] } ?? 0
    }

    /// Asks the owner of `selection` to write `target` into `fd` (the write end of a pipe, which the shell closes
    /// once the request is sent).
    /// - Throws: ``ClipboardError``: the failure, or `typeUnavailable` when `selection` does not offer `target`.
    func receive(
        _ target: String, from selection: ClipboardSelection, into fd: Int32
    ) throws(ClipboardError) -> [Action] {
        try checkOpen()
        guard let offer = current[selection], offers[offer]?.contains(target) == true else {
            throw ClipboardError(
                code: .typeUnavailable,
                message: "The \(selection.rawValue) does not offer \(target) now; list its types first.",
                source: target)
        }
        // offer.receive(mime, fd): opcode 1 of wl_data_offer (after accept), 0 of a data-control offer.
        let opcode: UInt16 = usesFocusSurface ? 1 : 0
        return [.send([WaylandMessage(objectID: offer, opcode: opcode, arguments: [.string(target), .fd(fd)])])]
    }

    /// Adds a watcher of `selection`'s changes.
    /// - Throws: The failure, once the connection has ended.
    mutating func watch(_ selection: ClipboardSelection) throws(ClipboardError) -> UInt64 {
        try checkOpen()
        if isBoundForDragAndDrop { try checkSelection(selection) }
        let id = nextWatcher
        nextWatcher += 1
        watchers[id] = selection
        return id
    }

    /// Removes a watcher (its stream was dropped).
    mutating func unwatch(_ id: UInt64) {
        watchers[id] = nil
    }

    /// The user closed the connection.
    mutating func close() -> [Action] {
        fail(ClipboardError(code: .cancelled, message: "The Wayland connection was closed."))
    }

    /// The connection ended with `error` (the socket failed, the compositor hung up or broke the protocol).
    package mutating func fail(_ error: ClipboardError) -> [Action] {
        guard failure == nil else { return [] }
        failure = error
        var actions: [Action] = roundTrips.sorted().map { .failRoundTrip(callback: $0, error) }
        actions += sources.keys.sorted().map { .endOwnership(source: $0) }
        let userClosed = error.code == .cancelled
        actions += watchers.keys.sorted().map { .finishWatcher($0, userClosed ? nil : error) }
        if isSubscribed { actions.append(.endSubscription(error)) }
        actions.append(.disconnect)
        roundTrips = []
        sources = [:]
        watchers = [:]
        return actions
    }

    /// A machine whose registry announced `interfaces`, each at `version`, and that has finished its first round
    /// trip: ready to bind, as a connection is before it binds. For the tests of the machines over it, without a
    /// compositor (this module's and TransferDesktop's).
    package static func announcing(_ interfaces: [String], version: UInt32) throws(ClipboardError) -> WaylandState {
        var machine = WaylandState()
        _ = try machine.getRegistry()
        let (callback, _) = try machine.startRoundTrip()
        var actions: [Action] = []
        for (index, interface) in interfaces.enumerated() {
            actions += machine.handle(
                .global(name: UInt32(index + 1), interface: interface, version: version), live: true)
        }
        actions += machine.handle(.done(callback: callback), live: true)
        actions += machine.handle(.deleteID(callback), live: false)
        // The globals ask for nothing, and the round trip's end is the one action; nobody waits for it here.
        guard actions.count == 1, case .finishRoundTrip(let finished) = actions[0], finished == callback else {
            throw ClipboardError(
                code: .protocolViolation, message: "Announcing \(interfaces.count) globals asked for \(actions).")
        }
        return machine
    }

    // MARK: - Routing

    /// Makes the subscriber known: from here the end of the connection comes out as ``Action/endSubscription(_:)``.
    package mutating func subscribe() {
        isSubscribed = true
    }

    /// Routes the events of `object` to the subscriber (but for the offers' and selections' bookkeeping); an offer
    /// routed is also kept when the selection changes.
    package mutating func route(_ object: UInt32) {
        routed.insert(object)
    }

    /// Stops routing the events of `object` (which its owner destroyed, or finished with).
    package mutating func unroute(_ object: UInt32) {
        routed.remove(object)
    }

    /// Forgets everything known about `offer` (its types, its source's actions, its routing) and marks it
    /// destroyed; the caller sends its `destroy`.
    package mutating func finishOffer(_ offer: UInt32) {
        offers[offer] = nil
        omittedTypes[offer] = nil
        sourceActions[offer] = nil
        routed.remove(offer)
        objects.destroy(offer)
    }

    /// Whether the machine was bound for windows of TransferKit's own, with `wl_data_device_manager` at version 3
    /// or later and no focus surface (drag and drop); such a connection has no clipboard.
    package var isBoundForDragAndDrop: Bool { !usesFocusSurface && flavor == nil && managerVersion >= 3 }

    // MARK: - Events

    /// Decodes `frame` and handles its event; a frame that cannot be decoded fails the connection.
    ///
    /// - Parameter descriptors: The received descriptors not yet claimed; the event takes those it carries.
    mutating func receive(_ frame: WaylandFrame, descriptors: inout [Int32]) -> [Action] {
        guard failure == nil else { return [] }
        let decoded: (event: WaylandEvent, live: Bool)
        do {
            decoded = try objects.decode(frame, fds: &descriptors)
        } catch {
            return fail(error)
        }
        return handle(decoded.event, from: frame.objectID, live: decoded.live)
    }

    /// Handles one decoded event of `object`: the offers' and selections' bookkeeping is this machine's whichever
    /// object announced it; any other event of a routed object goes to the subscriber (``Action/route(_:)``); the
    /// rest is ``handle(_:live:)``'s, which drops what it does not know.
    package mutating func handle(_ event: WaylandEvent, from object: UInt32, live: Bool) -> [Action] {
        guard live, failure == nil, routed.contains(object), !event.isBookkeeping else {
            return handle(event, live: live)
        }
        return [.route(event)]
    }

    /// Handles one decoded event; `live` is whether its object is still in use (see
    /// ``WaylandObjectTable/decode(_:fds:)``).
    mutating func handle(_ event: WaylandEvent, live: Bool) -> [Action] {
        guard live, failure == nil else {
            // An event in flight to an object this client destroyed, or after the end: drop it, closing what it
            // carried.
            if case .send(_, _, let fd) = event { return [.close(fd)] }
            if case .keymap(let fd) = event { return [.close(fd)] }
            if case .deleteID(let id) = event { objects.delete(id) }
            return []
        }
        switch event {
        case .error(let objectID, let code, let message):
            let interface = objects.object(objectID).map { "\($0.interface)" } ?? "unknown"
            return fail(
                ClipboardError(
                    code: .protocolViolation,
                    message: "The Wayland compositor ended the connection with error \(code) on object \(objectID) "
                        + "(\(interface)): \(message)"))
        case .deleteID(let id):
            objects.delete(id)
            return []
        case .global(let name, let interface, let version):
            guard globals.count < Self.maximumGlobals else {
                return fail(WaylandWire.violation("announces more than \(Self.maximumGlobals) globals"))
            }
            globals.append(Global(name: name, interface: interface, version: version))
            return []
        case .globalRemove(let name):
            globals.removeAll { $0.name == name }
            return []
        case .done(let callback):
            objects.destroy(callback)  // the compositor deletes a callback itself, with delete_id
            guard roundTrips.remove(callback) != nil else { return [] }
            return [.finishRoundTrip(callback: callback)]
        case .ignored:
            return []
        case .dataOffer(_, let offer):
            guard offers.count < Self.maximumOffers else {
                return fail(
                    WaylandWire.violation("announces more than \(Self.maximumOffers) offers without selecting them"))
            }
            offers[offer] = []
            omittedTypes[offer] = nil
            return []
        case .offerType(let offer, let mimeType):
            // A stale offer's types (its object not yet reused) are of no use to anyone.
            guard let types = offers[offer] else { return [] }
            // A long list is no violation (nothing in the protocol bounds it); past the cap, names are counted and
            // ignored, so a flood costs this client neither memory nor time per later lookup.
            guard types.count < maximumTypesPerOffer else {
                omittedTypes[offer, default: 0] += 1
                return []
            }
            offers[offer]?.append(mimeType)
            return []
        case .selection(_, let offer, let primary):
            return select(offer, on: primary ? .primary : .clipboard)
        case .finished:
            return fail(
                ClipboardError(
                    code: .connectionFailed,
                    message: "The Wayland compositor withdrew this client's data device (its seat went away)."))
        case .send(let source, let mimeType, let fd):
            guard sources[source] != nil else { return [.close(fd)] }
            return [.serve(source: source, mimeType: mimeType, fd: fd)]
        case .keymap(let fd):
            return [.close(fd)]
        case .keyboardEnter(let serial, let surface):
            guard surface != 0, surface == focusSurface?.surface else { return [] }
            focusSerial = serial
            return [.focusGained]
        case .keyboardLeave(let surface):
            if surface == focusSurface?.surface { focusSerial = nil }
            return []
        case .ping(let serial):
            return [.send([WaylandMessage(objectID: factories.windowManager, opcode: 3, arguments: [.uint(serial)])])]
        case .configure(let xdgSurface, let serial):
            guard var focus = focusSurface, focus.xdgSurface == xdgSurface else { return [] }
            let messages = focus.configured(serial: serial)
            focusSurface = focus
            return [.send(messages)]
        case .dragAndDrop(.sourceActions(let offer, let mask)):
            guard offers[offer] != nil else { return [] }
            sourceActions[offer] = mask
            return []
        case .dragAndDrop:
            // The pointer's, a drag's and a window's events, of an object nobody subscribed: nobody's.
            return []
        case .cancelled(let source):
            // A live source is always one this client owns (a released one is destroyed, so not live).
            guard sources.removeValue(forKey: source) != nil else { return [] }
            objects.destroy(source)
            return [.send([WaylandMessage(objectID: source, opcode: 1)]), .endOwnership(source: source)]
        }
    }

    private mutating func select(_ offer: UInt32, on selection: ClipboardSelection) -> [Action] {
        if offer != 0 && offers[offer] == nil {
            return fail(WaylandWire.violation("shows offer \(offer) as the selection after it was finished with"))
        }
        current[selection] = offer == 0 ? nil : offer
        // An offer is announced just before the selection event that shows it: any other that is not shown now is
        // finished with.
        var destroyed: [WaylandMessage] = []
        for stale in offers.keys.sorted() where !current.values.contains(stale) && !routed.contains(stale) {
            finishOffer(stale)
            destroyed.append(WaylandMessage(objectID: stale, opcode: usesFocusSurface ? 2 : 1))  // destroy
        }
        var actions: [Action] = destroyed.isEmpty ? [] : [.send(destroyed)]
        let types = offer == 0 ? [] : offers[offer] ?? []
        let omitted = offer == 0 ? 0 : omittedTypes[offer] ?? 0
        for (id, watched) in watchers.sorted(by: { $0.key < $1.key }) where watched == selection {
            actions.append(.notify(watcher: id, types: types, omitted: omitted))
        }
        return actions
    }
}
