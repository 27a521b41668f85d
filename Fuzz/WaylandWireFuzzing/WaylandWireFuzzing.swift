public import Foundation
import TransferDisplay
import TransferKitPlatform

/// The checks of the Wayland wire decoder's fuzzer (`WaylandWireFuzzer`).
///
/// An input is what a hostile compositor could send to the clipboard's Wayland backend once it has bound its
/// objects. The first byte picks the size of the reads the stream is fed in (1–64 bytes). The second byte is a
/// set of flags: bits 0–2 say how many file descriptors arrive with each read (0–7, as `SCM_RIGHTS` would bring
/// them), bit 3 destroys the data source before the stream starts (so events still in flight to it must decode
/// as events to a destroyed object), bit 4 lets the round-trip callback finish first, bit 5 binds for drag and drop
/// instead of data control (issue 23). The rest is the compositor's bytes.
///
/// The harness keeps the objects the backend has at that point, created in the backend's order: `wl_registry` 2,
/// `wl_callback` 3, `wl_seat` 4, the data-control manager 5, its device 6 and a data source 7. Bound for drag and drop
/// they are `wl_registry` 2, `wl_callback` 3, `wl_seat` 4, `wl_compositor` 5, `wl_shm` 6, `xdg_wm_base` 7,
/// `wl_data_device_manager` 8, `wl_data_device` 9, `wl_pointer` 10, a window's `wl_surface` 11, `xdg_surface` 12,
/// `xdg_toplevel` 13 and `wl_buffer` 14, and a drag's `wl_data_source` 15: the events of the pointer, of drags over
/// the window (`enter`, `motion`, `leave`, `drop`, the offers' `source_actions` and `action`), of the drag's source
/// (`target`, `send`, `action`, `dnd_drop_performed`, `dnd_finished`, `cancelled`) and of the window must each carry
/// exactly their arguments, a drag's offer must be an offer, and the books follow the offers a drag enters and
/// leaves. It cuts the stream
/// with the backend's frame decoder (`WaylandFrames` over the wire layer's `FrameBuffer`) and decodes each message
/// with `WaylandObjectTable.decode`, as the backend's connection does, and keeps the backend's books: offers
/// announced and shown, the ids the compositor deletes, the callback and source it finishes. It checks that
/// - the frames cut add up with the undecoded rest to exactly the bytes fed, each a multiple of 4 bytes within
///   the protocol's 4096-byte limit;
/// - a failure is a `WireViolation` of the frame decoder or a `ClipboardError` with `protocolViolation` only, and
///   ends the stream (the connection closes);
/// - each decoded message's arguments encode back to a message of the same length that decodes to the same
///   arguments, and the event carries exactly those values;
/// - descriptors are claimed in the order they arrived, never more than arrived;
/// - the object table stays bounded (the backend's limit of 16 offers at once, and the 16 destroyed offers the
///   table keeps for the events still in flight to them).
///
/// A broken invariant is a `fatalError`: the harness's way to report a finding to libFuzzer.
public enum WaylandWireFuzzing {
    /// The ids of the client's objects, created in this order by the harness (and the seeds' script).
    enum ID {
        static let registry: UInt32 = 2
        static let callback: UInt32 = 3
        static let seat: UInt32 = 4
        static let manager: UInt32 = 5
        static let device: UInt32 = 6
        static let source: UInt32 = 7
    }

    /// The ids of the drag-and-drop binding's objects, created in this order by the harness (and the seeds' script).
    enum DragID {
        static let dataDevice: UInt32 = 9
        static let pointer: UInt32 = 10
        static let surface: UInt32 = 11
        static let toplevel: UInt32 = 13
        static let source: UInt32 = 15
    }

    /// The most offers the backend keeps at once (`WaylandState.maximumOffers`).
    static let maximumOffers = 16
    /// The most descriptors the backend's connection holds unclaimed before it gives up on the compositor.
    static let maximumUnclaimedDescriptors = WaylandBackend.maximumPendingDescriptors

    /// Runs every check on one input; traps on a broken invariant.
    public static func check(_ input: Data) {
        let bytes = [UInt8](input)
        guard bytes.count >= 2 else { return }
        let readSize = 1 + Int(bytes[0]) % 64
        let descriptorsPerRead = Int(bytes[1] & 0x7)
        var books = Books()
        do {
            try books.start(
                destroySource: bytes[1] & 0x8 != 0, callbackDone: bytes[1] & 0x10 != 0,
                dragAndDrop: bytes[1] & 0x20 != 0)
        } catch {
            fatalError("the harness could not create the backend's objects: \(error)")
        }
        let stream = bytes[2...]
        var buffer = FrameBuffer()
        var frames = WaylandFrames()
        var fed = 0
        var cut = 0
        var offset = stream.startIndex
        while offset < stream.endIndex {
            let piece = stream[offset..<min(stream.endIndex, offset + readSize)]
            offset = piece.endIndex
            buffer.append(piece)
            fed += piece.count
            books.receive(descriptors: descriptorsPerRead)
            guard books.unclaimed.count <= maximumUnclaimedDescriptors else {
                // The connection ends here: the compositor passes descriptors no message claims.
                return
            }
            do throws(WireViolation) {
                while let frame = try frames.nextFrame(from: &buffer) {
                    let size = WaylandWire.headerSize + frame.body.count
                    guard size % 4 == 0, size <= WaylandWire.maximumMessageSize else {
                        fatalError("a frame of \(size) bytes came out of the reader")
                    }
                    cut += size
                    do throws(ClipboardError) {
                        try books.decode(frame)
                    } catch {
                        guard error.code == .protocolViolation else {
                            fatalError("the decoder failed with \(error.code), not protocolViolation: \(error)")
                        }
                        return
                    }
                }
            } catch {
                return  // a header the frame decoder refuses
            }
            guard cut + buffer.count == fed else {
                fatalError("cut \(cut) + pending \(buffer.count) != fed \(fed)")
            }
        }
    }

    /// What the backend knows of the connection, reduced to what decoding depends on.
    struct Books {
        var objects = WaylandObjectTable()
        /// Descriptors received and not yet claimed by a message, in arrival order (fake numbers: never closed).
        var unclaimed: [Int32] = []
        var nextDescriptor: Int32 = -1000
        /// The offers announced and not yet finished with, and what each selection shows.
        var offers: Set<UInt32> = []
        var shown: [Bool: UInt32] = [:]

        /// The drag's offer while a drag is over the window (drag and drop).
        var entered: UInt32?
        /// The number of objects the binding made (the table's bound is counted from it).
        var bound = 7

        mutating func start(destroySource: Bool, callbackDone: Bool, dragAndDrop: Bool) throws(ClipboardError) {
            let order: [(WaylandInterface, UInt32)] =
                dragAndDrop
                ? [
                    (.registry, ID.registry), (.callback, ID.callback), (.seat, ID.seat), (.compositor, 5), (.shm, 6),
                    (.windowManager, 7), (.dataDeviceManager, 8), (.dataDevice, DragID.dataDevice),
                    (.pointer, DragID.pointer), (.surface, DragID.surface), (.xdgSurface, 12),
                    (.toplevel, DragID.toplevel), (.buffer, 14), (.dataSource, DragID.source),
                ]
                : [
                    (.registry, ID.registry), (.callback, ID.callback), (.seat, ID.seat),
                    (.dataControlManager, ID.manager), (.dataControlDevice, ID.device), (.dataControlSource, ID.source),
                ]
            for (interface, expected) in order {
                let id = try objects.create(interface)
                guard id == expected else { fatalError("\(interface) was created as \(id), not \(expected)") }
            }
            bound = order.count + 1
            if destroySource { objects.destroy(dragAndDrop ? DragID.source : ID.source) }
            if callbackDone { objects.destroy(ID.callback) }
        }

        mutating func receive(descriptors count: Int) {
            for _ in 0..<count {
                unclaimed.append(nextDescriptor)
                nextDescriptor -= 1
            }
        }

        /// Decodes one frame as the backend does, checks it against a plain decode of its arguments, and keeps
        /// the books the backend keeps.
        mutating func decode(_ frame: WaylandFrame) throws(ClipboardError) {
            let before = unclaimed
            let interface = objects.object(frame.objectID)?.interface
            let (event, live) = try objects.decode(frame, fds: &unclaimed)
            guard let interface, let signature = interface.eventSignature(frame.opcode) else {
                fatalError("event \(event) decoded from object \(frame.objectID), opcode \(frame.opcode)")
            }
            var descriptors = before
            let arguments: [WaylandArgument]
            do {
                arguments = try WaylandWire.decodeArguments(frame.body, signature: signature, fds: &descriptors)
            } catch {
                fatalError("\(event) decoded, but its arguments do not: \(error)")
            }
            let claimed = before.count - unclaimed.count
            guard descriptors == unclaimed, Array(before.dropFirst(claimed)) == unclaimed else {
                fatalError("descriptors \(before) became \(unclaimed) for \(event)")
            }
            roundTrip(frame, arguments: arguments, signature: signature)
            check(event, matches: arguments, frame: frame, claimed: Array(before.prefix(claimed)))
            try keepBooks(event, live: live)
        }

        /// The arguments must encode to a message of the frame's length that decodes to the same arguments.
        func roundTrip(_ frame: WaylandFrame, arguments: [WaylandArgument], signature: [WaylandArgumentKind]) {
            let message = WaylandMessage(objectID: frame.objectID, opcode: frame.opcode, arguments: arguments)
            let encoded: (bytes: [UInt8], fds: [Int32])
            do {
                encoded = try WaylandWire.encode(message)
            } catch {
                fatalError("\(message) decoded but does not encode: \(error)")
            }
            guard encoded.bytes.count == WaylandWire.headerSize + frame.body.count else {
                fatalError("\(message) encodes to \(encoded.bytes.count) bytes from \(frame.body.count + 8)")
            }
            var again = FrameBuffer()
            again.append(encoded.bytes)
            var framesAgain = WaylandFrames()
            var fds = encoded.fds
            guard let frameAgain = try? framesAgain.nextFrame(from: &again),
                let decoded = try? WaylandWire.decodeArguments(frameAgain.body, signature: signature, fds: &fds),
                frameAgain.objectID == frame.objectID, frameAgain.opcode == frame.opcode, fds.isEmpty
            else {
                fatalError("\(message) does not decode from its own encoding")
            }
            guard decoded == arguments else { fatalError("\(arguments) came back as \(decoded)") }
        }

        /// The event must carry exactly the decoded values.
        func check(_ event: WaylandEvent, matches arguments: [WaylandArgument], frame: WaylandFrame, claimed: [Int32]) {
            let expected: [WaylandArgument]
            switch event {
            case .error(let objectID, let code, let message):
                expected = [.object(objectID), .uint(code), .string(message)]
            case .deleteID(let id), .globalRemove(let id):
                expected = [.uint(id)]
            case .global(let name, let interface, let version):
                expected = [.uint(name), .string(interface), .uint(version)]
            case .done(let callback):
                guard callback == frame.objectID else { fatalError("done for \(callback) from \(frame.objectID)") }
                return
            case .ignored, .finished, .cancelled, .keyboardEnter, .keyboardLeave, .ping, .configure:
                return
            case .dragAndDrop(let dragEvent):
                guard let carried = Self.arguments(of: dragEvent, from: frame) else { return }
                expected = carried
            case .keymap(let fd):
                guard claimed == [fd] else { fatalError("\(event) from \(frame.objectID) with descriptors \(claimed)") }
                return
            case .dataOffer(let device, let offer):
                guard device == frame.objectID else { fatalError("data_offer of \(device) from \(frame.objectID)") }
                expected = [.newID(offer)]
            case .selection(let device, let offer, let primary):
                guard device == frame.objectID, primary == (frame.opcode == 3) else {
                    fatalError("\(event) from \(frame.objectID), opcode \(frame.opcode)")
                }
                expected = [.object(offer)]
            case .offerType(let offer, let mimeType):
                guard offer == frame.objectID else { fatalError("offer type of \(offer) from \(frame.objectID)") }
                expected = [.string(mimeType)]
            case .send(let source, let mimeType, let fd):
                guard source == frame.objectID, claimed == [fd] else {
                    fatalError("\(event) from \(frame.objectID) with descriptors \(claimed)")
                }
                expected = [.string(mimeType), .fd(fd)]
            }
            guard expected == arguments else { fatalError("\(event) does not carry \(arguments)") }
        }

        /// What the backend's state does with the event, as far as objects are concerned.
        mutating func keepBooks(_ event: WaylandEvent, live: Bool) throws(ClipboardError) {
            guard live else {
                if case .deleteID(let id) = event { objects.delete(id) }
                return
            }
            switch event {
            case .deleteID(let id):
                objects.delete(id)
            case .done(let callback):
                objects.destroy(callback)
            case .dataOffer(_, let offer):
                guard offers.count < maximumOffers else {
                    throw ClipboardError(code: .protocolViolation, message: "more than \(maximumOffers) offers")
                }
                offers.insert(offer)
            case .dragAndDrop(let dragEvent):
                try keepBooks(dragEvent)
            case .selection(_, let offer, let primary):
                guard offer == 0 || offers.contains(offer) || offer == entered else {
                    // An offer destroyed as stale and shown again: the state ends the connection.
                    throw ClipboardError(code: .protocolViolation, message: "offer \(offer) shown after its end")
                }
                shown[primary] = offer == 0 ? nil : offer
                for stale in offers where !shown.values.contains(stale) && stale != entered {
                    offers.remove(stale)
                    objects.destroy(stale)
                }
            case .cancelled(let source):
                objects.destroy(source)
            case .error, .global, .globalRemove, .ignored, .finished, .send, .offerType, .keymap, .keyboardEnter,
                .keyboardLeave, .ping, .configure:
                break
            }
            // wl_display, the client's objects, the offers the state keeps and the destroyed ones the table keeps.
            guard objects.count <= bound + maximumOffers + WaylandObjectTable.maximumDestroyedServerObjects else {
                fatalError("the object table holds \(objects.count) objects")
            }
        }

        /// The arguments a drag-and-drop event carries, in its message's order; `nil` for one that carries only its
        /// object (checked against the frame's object instead).
        static func arguments(of event: WaylandDragAndDropEvent, from frame: WaylandFrame) -> [WaylandArgument]? {
            let fromItself: UInt32
            switch event {
            case .seatCapabilities(let seat, let capabilities):
                guard seat == frame.objectID else { fatalError("\(event) from \(frame.objectID)") }
                return [.uint(capabilities)]
            case .pointerEnter(let serial, let surface, let x, let y):
                return [.uint(serial), .object(surface), .fixed(x), .fixed(y)]
            case .pointerLeave(let serial, let surface):
                return [.uint(serial), .object(surface)]
            case .pointerMotion(let time, let x, let y), .dragMotion(let time, let x, let y):
                return [.uint(time), .fixed(x), .fixed(y)]
            case .pointerButton(let serial, let time, let button, let state):
                return [.uint(serial), .uint(time), .uint(button), .uint(state)]
            case .dragEnter(let serial, let surface, let x, let y, let offer):
                return [.uint(serial), .object(surface), .fixed(x), .fixed(y), .object(offer)]
            case .sourceActions(let offer, let mask), .offerAction(let offer, let mask):
                guard offer == frame.objectID else { fatalError("\(event) from \(frame.objectID)") }
                return [.uint(mask)]
            case .dragAction(let source, let mask):
                guard source == frame.objectID else { fatalError("\(event) from \(frame.objectID)") }
                return [.uint(mask)]
            case .dragTarget(let source, let mimeType):
                guard source == frame.objectID else { fatalError("\(event) from \(frame.objectID)") }
                return [.string(mimeType)]
            case .dragLeave(let device), .dragDrop(let device):
                fromItself = device
            case .dropPerformed(let source), .dragFinished(let source):
                fromItself = source
            case .windowClosed(let toplevel):
                fromItself = toplevel
            }
            guard fromItself == frame.objectID else { fatalError("\(event) from \(frame.objectID)") }
            return nil
        }

        /// The offers a drag enters and leaves: the entered one is kept until the drag leaves it (or drops it and
        /// the target is done); a drag's offer must be one the compositor announced.
        mutating func keepBooks(_ event: WaylandDragAndDropEvent) throws(ClipboardError) {
            switch event {
            case .dragEnter(_, _, _, _, let offer):
                guard offer == 0 || objects.object(offer)?.interface == .dataOffer else {
                    fatalError("a drag entered with object \(offer), which the decoder should have refused")
                }
                if let old = entered, old != offer, !shown.values.contains(old) {
                    offers.remove(old)
                    objects.destroy(old)
                }
                entered = offer == 0 ? nil : offer
            case .dragLeave:
                if let old = entered, !shown.values.contains(old) {
                    offers.remove(old)
                    objects.destroy(old)
                }
                entered = nil
            case .dragFinished(let source):
                objects.destroy(source)
            case .seatCapabilities, .pointerEnter, .pointerLeave, .pointerMotion, .pointerButton, .dragMotion,
                .dragDrop, .sourceActions, .offerAction, .dragTarget, .dropPerformed, .dragAction, .windowClosed:
                break
            }
        }
    }
}
