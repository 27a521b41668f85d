/// The interfaces this client uses, with the events it decodes and the requests it sends.
///
/// `ext_data_control_v1` and `zwlr_data_control_v1` have the same requests and events in the same order, so one
/// case stands for each pair; ``WaylandDataControlFlavor`` names the globals.
package enum WaylandInterface: Sendable, Equatable {
    /// `wl_display`, object 1.
    case display
    /// `wl_registry`.
    case registry
    /// `wl_callback`.
    case callback
    /// `wl_seat` (bound at version 1: its one event is `capabilities`).
    case seat
    /// The data-control manager.
    case dataControlManager
    /// A data-control device (one seat's selections).
    case dataControlDevice
    /// A data-control source (what this client offers).
    case dataControlSource
    /// A data-control offer (what another client offers).
    case dataControlOffer
    /// `wl_keyboard` (of the seat bound at version 1), for the focus surface's keyboard focus.
    case keyboard
    /// `wl_compositor` (no events).
    case compositor
    /// `wl_shm`.
    case shm
    /// `wl_shm_pool` (no events).
    case shmPool
    /// `wl_buffer`.
    case buffer
    /// `wl_surface`.
    case surface
    /// `xdg_wm_base` (bound at version 1).
    case windowManager
    /// `xdg_surface`.
    case xdgSurface
    /// `xdg_toplevel` (version 1).
    case toplevel
    /// `wl_data_device_manager` (bound at version 1).
    case dataDeviceManager
    /// `wl_data_device`: the seat's selection, seen only while this client has keyboard focus.
    case dataDevice
    /// `wl_data_source`.
    case dataSource
    /// `wl_data_offer`.
    case dataOffer
    /// `wl_pointer` (of the seat bound at version 1), for drags from TransferKit's own windows.
    case pointer

    /// The argument types of event `opcode`, or `nil` when the interface has no such event.
    package func eventSignature(_ opcode: UInt16) -> [WaylandArgumentKind]? {
        switch (self, opcode) {
        case (.display, 0): [.object(nullable: false), .uint, .string(nullable: false)]  // error
        case (.display, 1): [.uint]  // delete_id
        case (.registry, 0): [.uint, .string(nullable: false), .uint]  // global
        case (.registry, 1): [.uint]  // global_remove
        case (.callback, 0): [.uint]  // done
        case (.seat, 0): [.uint]  // capabilities
        case (.seat, 1): [.string(nullable: false)]  // name (version 2; tolerated)
        case (.dataControlDevice, 0): [.newID]  // data_offer
        case (.dataControlDevice, 1): [.object(nullable: true)]  // selection
        case (.dataControlDevice, 2): []  // finished
        case (.dataControlDevice, 3): [.object(nullable: true)]  // primary_selection
        case (.dataControlSource, 0): [.string(nullable: false), .fd]  // send
        case (.dataControlSource, 1): []  // cancelled
        case (.dataControlOffer, 0): [.string(nullable: false)]  // offer
        case (.keyboard, 0): [.uint, .fd, .uint]  // keymap
        case (.keyboard, 1): [.uint, .object(nullable: true), .array]  // enter
        case (.keyboard, 2): [.uint, .object(nullable: true)]  // leave
        case (.keyboard, 3): [.uint, .uint, .uint, .uint]  // key
        case (.keyboard, 4): [.uint, .uint, .uint, .uint, .uint]  // modifiers
        case (.shm, 0): [.uint]  // format
        case (.buffer, 0): []  // release
        case (.surface, 0), (.surface, 1): [.object(nullable: true)]  // enter, leave (an output)
        case (.windowManager, 0): [.uint]  // ping
        case (.xdgSurface, 0): [.uint]  // configure
        case (.toplevel, 0): [.int, .int, .array]  // configure
        case (.toplevel, 1): []  // close
        case (.dataDevice, 0): [.newID]  // data_offer
        case (.dataDevice, 1): [.uint, .object(nullable: true), .fixed, .fixed, .object(nullable: true)]  // enter
        case (.dataDevice, 2), (.dataDevice, 4): []  // leave, drop
        case (.dataDevice, 3): [.uint, .fixed, .fixed]  // motion
        case (.dataDevice, 5): [.object(nullable: true)]  // selection
        case (.dataSource, 0): [.string(nullable: true)]  // target
        case (.dataSource, 1): [.string(nullable: false), .fd]  // send
        case (.dataSource, 2): []  // cancelled
        case (.dataSource, 3), (.dataSource, 4): []  // dnd_drop_performed, dnd_finished (version 3)
        case (.dataSource, 5): [.uint]  // action (version 3)
        case (.dataOffer, 0): [.string(nullable: false)]  // offer
        case (.dataOffer, 1), (.dataOffer, 2): [.uint]  // source_actions, action (version 3)
        case (.pointer, 0): [.uint, .object(nullable: true), .fixed, .fixed]  // enter
        case (.pointer, 1): [.uint, .object(nullable: true)]  // leave
        case (.pointer, 2): [.uint, .fixed, .fixed]  // motion
        case (.pointer, 3): [.uint, .uint, .uint, .uint]  // button
        case (.pointer, 4): [.uint, .uint, .fixed]  // axis
        default: nil
        }
    }
}

/// Which of the two data-control protocols the compositor offers.
package enum WaylandDataControlFlavor: String, Sendable, CaseIterable {
    /// `ext-data-control-v1`, the standard one.
    case ext
    /// `wlr-data-control-unstable-v1`, the wlroots one that came first.
    case wlr

    /// The manager's global interface name.
    package var managerInterface: String {
        switch self {
        case .ext: "ext_data_control_manager_v1"
        case .wlr: "zwlr_data_control_manager_v1"
        }
    }

    /// The protocol's name for messages.
    package var protocolName: String {
        switch self {
        case .ext: "Wayland (ext-data-control-v1)"
        case .wlr: "Wayland (zwlr-data-control)"
        }
    }

    /// The manager version this client binds, at most: the first with the primary selection.
    package var preferredVersion: UInt32 {
        switch self {
        case .ext: 1
        case .wlr: 2
        }
    }
}

/// An event this client understands, decoded and checked against the objects it knows.
package enum WaylandEvent: Sendable, Equatable {
    /// `wl_display.error`: the compositor ends the connection.
    case error(objectID: UInt32, code: UInt32, message: String)
    /// `wl_display.delete_id`: the id may be used again.
    case deleteID(UInt32)
    /// `wl_registry.global`.
    case global(name: UInt32, interface: String, version: UInt32)
    /// `wl_registry.global_remove`.
    case globalRemove(name: UInt32)
    /// `wl_callback.done` of a round trip.
    case done(callback: UInt32)
    /// An event that needs no action (`wl_seat.capabilities`, `wl_seat.name`).
    case ignored
    /// `data_offer`: a new offer object; its MIME types follow, then a selection event names it.
    case dataOffer(device: UInt32, offer: UInt32)
    /// `selection` (`primary: false`) or `primary_selection` (`primary: true`); offer 0 means empty.
    case selection(device: UInt32, offer: UInt32, primary: Bool)
    /// `finished`: the device is no longer valid.
    case finished(device: UInt32)
    /// `offer.offer`: one MIME type of an offer.
    case offerType(offer: UInt32, mimeType: String)
    /// `source.send`: write the data of `mimeType` to `fd` and close it.
    case send(source: UInt32, mimeType: String, fd: Int32)
    /// `source.cancelled`: the source is no longer the selection.
    case cancelled(source: UInt32)
    /// `wl_keyboard.keymap`: a descriptor this client does not use (closed at once).
    case keymap(fd: Int32)
    /// `wl_keyboard.enter`: `surface` has keyboard focus, with the serial a selection request needs.
    case keyboardEnter(serial: UInt32, surface: UInt32)
    /// `wl_keyboard.leave`.
    case keyboardLeave(surface: UInt32)
    /// `xdg_wm_base.ping`: answer with `pong`, or the compositor thinks this client hangs.
    case ping(serial: UInt32)
    /// `xdg_surface.configure`: acknowledge, then attach a buffer to show the surface.
    case configure(xdgSurface: UInt32, serial: UInt32)
    /// An event of drag and drop: the seat's pointer, a drag over a window, a drag source's progress.
    case dragAndDrop(WaylandDragAndDropEvent)
}

/// The objects of one connection: which ids are live and of which interface, and which ids are free again.
///
/// Ids this client creates start at 2 (1 is `wl_display`) and are reused after the compositor's `delete_id`; ids
/// the compositor creates (offers) are at `0xff000000` and above. A destroyed object stays known until its
/// `delete_id` so that the events still in flight to it are decoded (and their descriptors closed), then dropped.
/// The compositor sends no `delete_id` for its own ids: the last ``maximumDestroyedServerObjects`` destroyed ones
/// are kept the same way until the compositor reuses the id or newer ones push them out.
package struct WaylandObjectTable: Sendable {
    /// The first id of the compositor's range.
    package static let serverRangeStart: UInt32 = 0xff00_0000
    /// How many destroyed objects of the compositor's range stay known for the events still in flight to them.
    package static let maximumDestroyedServerObjects = 16

    private var objects: [UInt32: (interface: WaylandInterface, live: Bool)] = [1: (.display, true)]
    private var freeIDs: [UInt32] = []
    private var nextID: UInt32 = 2
    /// Destroyed ids of the compositor's range, oldest first.
    private var destroyedServerIDs: [UInt32] = []

    /// A table that knows only `wl_display`.
    package init() {}

    /// The interface of `id` and whether the client still uses it, or `nil` for an unknown id.
    package func object(_ id: UInt32) -> (interface: WaylandInterface, live: Bool)? {
        objects[id].map { ($0.interface, $0.live) }
    }

    /// A fresh id for a new object of `interface`.
    ///
    /// - Throws: ``ClipboardError`` with `protocolViolation` when the client's range is used up.
    package mutating func create(_ interface: WaylandInterface) throws(ClipboardError) -> UInt32 {
        let id: UInt32
        if let reused = freeIDs.popLast() {
            id = reused
        } else {
            guard nextID < Self.serverRangeStart else {
                throw ClipboardError(code: .protocolViolation, message: "This Wayland connection ran out of ids.")
            }
            id = nextID
            nextID += 1
        }
        objects[id] = (interface, true)
        return id
    }

    /// Takes back an id from ``create(_:)`` that was never sent to the compositor.
    package mutating func forget(_ id: UInt32) {
        guard id > 1, id < Self.serverRangeStart, objects.removeValue(forKey: id) != nil else { return }
        freeIDs.append(id)
    }

    /// Records an object the compositor created (a `data_offer`).
    ///
    /// - Throws: ``ClipboardError`` with `protocolViolation` when the id is outside the compositor's range or in use
    ///   (a destroyed one may be reused).
    package mutating func insertServerObject(_ id: UInt32, _ interface: WaylandInterface) throws(ClipboardError) {
        guard id >= Self.serverRangeStart, objects[id]?.live != true else {
            throw WaylandWire.violation("creates an object with id \(id), which is not free in its range")
        }
        destroyedServerIDs.removeAll { $0 == id }
        objects[id] = (interface, true)
    }

    /// Marks `id` destroyed by this client: events to it are still decoded (as not live) until the compositor
    /// deletes or reuses it.
    package mutating func destroy(_ id: UInt32) {
        guard let entry = objects[id], entry.live, id > 1 else { return }
        objects[id] = (entry.interface, false)
        if id >= Self.serverRangeStart {
            destroyedServerIDs.append(id)
            if destroyedServerIDs.count > Self.maximumDestroyedServerObjects {
                objects[destroyedServerIDs.removeFirst()] = nil
            }
        }
    }

    /// Frees `id` after the compositor's `delete_id`: only an id this client destroyed (a `delete_id` for a live
    /// object, an unknown one or one of the compositor's range changes nothing).
    package mutating func delete(_ id: UInt32) {
        guard id > 1, id < Self.serverRangeStart, objects[id]?.live == false else { return }
        objects[id] = nil
        freeIDs.append(id)
    }

    /// The number of known objects (live or awaiting deletion).
    package var count: Int { objects.count }

    /// Decodes `frame` as an event of the object it comes from, recording any object it creates.
    ///
    /// - Parameters:
    ///   - frame: A message cut by ``WaylandFrames``.
    ///   - fds: The received descriptors not yet claimed; a `send` event takes the first.
    /// - Returns: The event, and whether its object is still live (events to destroyed objects are to be dropped
    ///   after closing any descriptor they carry).
    /// - Throws: ``ClipboardError`` with `protocolViolation` for an unknown object or opcode or bad arguments.
    package mutating func decode(
        _ frame: WaylandFrame, fds: inout [Int32]
    ) throws(ClipboardError) -> (event: WaylandEvent, live: Bool) {
        guard let (interface, live) = object(frame.objectID) else {
            throw WaylandWire.violation("is addressed to object \(frame.objectID), which does not exist")
        }
        guard let signature = interface.eventSignature(frame.opcode) else {
            throw WaylandWire.violation("is event \(frame.opcode) of \(interface), which has no such event")
        }
        let arguments = try WaylandWire.decodeArguments(frame.body, signature: signature, fds: &fds)
        let id = frame.objectID
        let values = WaylandArguments(arguments)
        let event: WaylandEvent
        switch (interface, frame.opcode) {
        case (.display, 0):
            event = .error(objectID: values.word(0), code: values.word(1), message: values.string(2))
        case (.display, 1):
            event = .deleteID(values.word(0))
        case (.registry, 0):
            event = .global(name: values.word(0), interface: values.string(1), version: values.word(2))
        case (.registry, 1):
            event = .globalRemove(name: values.word(0))
        case (.callback, _):
            event = .done(callback: id)
        case (.seat, 0):
            event = .dragAndDrop(.seatCapabilities(seat: id, values.word(0)))
        case (.seat, _):
            event = .ignored
        case (.dataControlDevice, 0):
            let offer = values.word(0)
            try insertServerObject(offer, .dataControlOffer)
            event = .dataOffer(device: id, offer: offer)
        case (.dataControlDevice, 2):
            event = .finished(device: id)
        case (.dataControlDevice, _):
            let offer = values.word(0)
            if offer != 0 {
                guard object(offer)?.interface == .dataControlOffer else {
                    throw WaylandWire.violation("names object \(offer) as the selection, which is not an offer")
                }
            }
            event = .selection(device: id, offer: offer, primary: frame.opcode == 3)
        case (.dataControlSource, 0):
            event = .send(source: id, mimeType: values.string(0), fd: values.fd(1))
        case (.dataControlSource, _):
            event = .cancelled(source: id)
        case (.dataControlOffer, _), (.dataOffer, 0):
            event = .offerType(offer: id, mimeType: values.string(0))
        case (.keyboard, 0):
            event = .keymap(fd: values.fd(1))
        case (.keyboard, 1):
            event = .keyboardEnter(serial: values.word(0), surface: values.word(1))
        case (.keyboard, 2):
            event = .keyboardLeave(surface: values.word(1))
        case (.windowManager, _):
            event = .ping(serial: values.word(0))
        case (.xdgSurface, _):
            event = .configure(xdgSurface: id, serial: values.word(0))
        case (.dataDevice, 0):
            let offer = values.word(0)
            try insertServerObject(offer, .dataOffer)
            event = .dataOffer(device: id, offer: offer)
        case (.dataDevice, 5):
            let offer = values.word(0)
            if offer != 0 {
                guard object(offer)?.interface == .dataOffer else {
                    throw WaylandWire.violation("names object \(offer) as the selection, which is not an offer")
                }
            }
            event = .selection(device: id, offer: offer, primary: false)
        case (.dataSource, 1):
            event = .send(source: id, mimeType: values.string(0), fd: values.fd(1))
        case (.dataSource, 2):
            event = .cancelled(source: id)
        case (.dataDevice, _), (.dataSource, _), (.dataOffer, _), (.pointer, 0...3), (.toplevel, 1):
            event = .dragAndDrop(try WaylandDragAndDropEvent(interface, frame.opcode, from: id, values, objects: self))
        case (.keyboard, _), (.shm, _), (.buffer, _), (.surface, _), (.toplevel, _), (.pointer, _):
            // Key presses, formats, releases, outputs, window states, scrolling: nothing this client acts on.
            event = .ignored
        case (.display, _), (.registry, _), (.dataControlManager, _), (.compositor, _), (.shmPool, _),
            (.dataDeviceManager, _):
            // eventSignature has no other events for these: unreachable, and harmless if not.
            throw WaylandWire.violation("is event \(frame.opcode) of \(interface), which this client cannot read")
        }
        return (event, live)
    }
}

/// Typed reads of decoded arguments whose shape the signature already checked; a mismatch reads as 0 or empty.
struct WaylandArguments {
    let arguments: [WaylandArgument]

    init(_ arguments: [WaylandArgument]) { self.arguments = arguments }

    func word(_ index: Int) -> UInt32 {
        guard arguments.indices.contains(index) else { return 0 }
        switch arguments[index] {
        case .uint(let value), .object(let value), .newID(let value): return value
        case .int(let value), .fixed(let value): return UInt32(bitPattern: value)
        default: return 0
        }
    }

    func string(_ index: Int) -> String {
        guard arguments.indices.contains(index), case .string(let value?) = arguments[index] else { return "" }
        return value
    }

    func fd(_ index: Int) -> Int32 {
        guard arguments.indices.contains(index), case .fd(let value) = arguments[index] else { return -1 }
        return value
    }
}
