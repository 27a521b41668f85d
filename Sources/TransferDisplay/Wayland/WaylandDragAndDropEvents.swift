/// An event of drag and drop on Wayland, decoded: the seat's pointer over TransferKit's own windows, a drag over
/// them (`wl_data_device`, `wl_data_offer`), and the progress of a drag from them (`wl_data_source` version 3).
///
/// Coordinates are the wire's 24.8 fixed-point values, kept raw.
package enum WaylandDragAndDropEvent: Sendable, Equatable {
    /// `wl_seat.capabilities`: bit 0 a pointer, bit 1 a keyboard, bit 2 touch.
    case seatCapabilities(seat: UInt32, UInt32)
    /// `wl_pointer.enter`: the pointer is over `surface` at (`x`, `y`).
    case pointerEnter(serial: UInt32, surface: UInt32, x: Int32, y: Int32)
    /// `wl_pointer.leave`.
    case pointerLeave(serial: UInt32, surface: UInt32)
    /// `wl_pointer.motion` over the surface the pointer entered.
    case pointerMotion(time: UInt32, x: Int32, y: Int32)
    /// `wl_pointer.button`: `state` 1 pressed, 0 released; a press's serial is the implicit grab's.
    case pointerButton(serial: UInt32, time: UInt32, button: UInt32, state: UInt32)
    /// `wl_data_device.enter`: a drag entered `surface`, offering `offer` (0: a drag without data).
    case dragEnter(serial: UInt32, surface: UInt32, x: Int32, y: Int32, offer: UInt32)
    /// `wl_data_device.leave`.
    case dragLeave(device: UInt32)
    /// `wl_data_device.motion`.
    case dragMotion(time: UInt32, x: Int32, y: Int32)
    /// `wl_data_device.drop`: the user released the drag on the surface it entered last.
    case dragDrop(device: UInt32)
    /// `wl_data_offer.source_actions`: the actions the drag's source allows.
    case sourceActions(offer: UInt32, UInt32)
    /// `wl_data_offer.action`: the action the compositor chose from both sides' wishes.
    case offerAction(offer: UInt32, UInt32)
    /// `wl_data_source.target`: the MIME type the target accepts now (nil: none).
    case dragTarget(source: UInt32, mimeType: String?)
    /// `wl_data_source.dnd_drop_performed`: the user dropped; the target may now take the data.
    case dropPerformed(source: UInt32)
    /// `wl_data_source.dnd_finished`: the target finished with the drop.
    case dragFinished(source: UInt32)
    /// `wl_data_source.action`: the action the compositor chose; the last one before `dnd_finished` was performed.
    case dragAction(source: UInt32, UInt32)
    /// `xdg_toplevel.close`: the user asked to close a window.
    case windowClosed(toplevel: UInt32)

    /// Decodes event `opcode` of `interface` from object `id`, whose arguments (`values`) the signature checked.
    ///
    /// - Throws: ``ClipboardError`` with `protocolViolation` when a drag enters with an object that is not an offer.
    init(
        _ interface: WaylandInterface, _ opcode: UInt16, from id: UInt32, _ values: WaylandArguments,
        objects: WaylandObjectTable
    ) throws(ClipboardError) {
        switch (interface, opcode) {
        case (.pointer, 0):
            self = .pointerEnter(
                serial: values.word(0), surface: values.word(1), x: values.integer(2), y: values.integer(3))
        case (.pointer, 1):
            self = .pointerLeave(serial: values.word(0), surface: values.word(1))
        case (.pointer, 2):
            self = .pointerMotion(time: values.word(0), x: values.integer(1), y: values.integer(2))
        case (.pointer, _):
            self = .pointerButton(
                serial: values.word(0), time: values.word(1), button: values.word(2), state: values.word(3))
        case (.dataDevice, 1):
            let offer = values.word(4)
            guard offer == 0 || objects.object(offer)?.interface == .dataOffer else {
                throw WaylandWire.violation("names object \(offer) as a drag's offer, which is not an offer")
            }
            self = .dragEnter(
                serial: values.word(0), surface: values.word(1), x: values.integer(2), y: values.integer(3),
                offer: offer)
        case (.dataDevice, 2):
            self = .dragLeave(device: id)
        case (.dataDevice, 3):
            self = .dragMotion(time: values.word(0), x: values.integer(1), y: values.integer(2))
        case (.dataDevice, _):
            self = .dragDrop(device: id)
        case (.dataOffer, 1):
            self = .sourceActions(offer: id, values.word(0))
        case (.dataOffer, _):
            self = .offerAction(offer: id, values.word(0))
        case (.dataSource, 0):
            self = .dragTarget(source: id, mimeType: values.optionalString(0))
        case (.dataSource, 3):
            self = .dropPerformed(source: id)
        case (.dataSource, 4):
            self = .dragFinished(source: id)
        case (.dataSource, _):
            self = .dragAction(source: id, values.word(0))
        case (.seat, _):
            self = .seatCapabilities(seat: id, values.word(0))
        default:
            self = .windowClosed(toplevel: id)
        }
    }
}

extension WaylandArguments {
    /// The signed value of a word argument (`int`, `fixed`).
    func integer(_ index: Int) -> Int32 { Int32(bitPattern: word(index)) }

    /// A nullable string argument: nil for the null string.
    func optionalString(_ index: Int) -> String? {
        guard arguments.indices.contains(index), case .string(let value) = arguments[index] else { return nil }
        return value
    }
}
