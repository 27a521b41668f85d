import TransferDisplay
import TransferKitPlatform

/// The atoms of XDND's client messages and actions on one X server (interned once per connection).
package struct XdndAtoms: Sendable, Hashable {
    /// `XdndEnter`.
    package var enter: X11.ID
    /// `XdndPosition`.
    package var position: X11.ID
    /// `XdndStatus`.
    package var status: X11.ID
    /// `XdndLeave`.
    package var leave: X11.ID
    /// `XdndDrop`.
    package var drop: X11.ID
    /// `XdndFinished`.
    package var finished: X11.ID
    /// `XdndActionCopy`, `XdndActionMove`, `XdndActionLink`, `XdndActionAsk`, in ``DesktopDragAction``'s order.
    package var actions: [DesktopDragAction: X11.ID]

    /// The names to intern, in the order ``init(interned:)`` takes their atoms.
    package static let names: [String] =
        ["XdndEnter", "XdndPosition", "XdndStatus", "XdndLeave", "XdndDrop", "XdndFinished"]
        + DesktopDragAction.allCases.map(actionName)

    /// XDND's name of `action`'s atom: `XdndActionCopy`, ….
    package static func actionName(_ action: DesktopDragAction) -> String {
        switch action {
        case .copy: "XdndActionCopy"
        case .move: "XdndActionMove"
        case .link: "XdndActionLink"
        case .ask: "XdndActionAsk"
        }
    }

    /// The atoms of ``names``, in that order (missing ones are `None`, which no message carries).
    package init(interned atoms: [X11.ID]) {
        func atom(_ index: Int) -> X11.ID { index < atoms.count ? atoms[index] : X11.none }
        enter = atom(0)
        position = atom(1)
        status = atom(2)
        leave = atom(3)
        drop = atom(4)
        finished = atom(5)
        var actions: [DesktopDragAction: X11.ID] = [:]
        for (offset, action) in DesktopDragAction.allCases.enumerated() { actions[action] = atom(6 + offset) }
        self.actions = actions
    }

    /// The atom of `action`.
    package func atom(for action: DesktopDragAction) -> X11.ID { actions[action] ?? X11.none }

    /// The action an atom names, or `nil` for `None`, `XdndActionPrivate` and any other atom.
    package func action(for atom: X11.ID) -> DesktopDragAction? {
        guard atom != X11.none else { return nil }
        return actions.first { $0.value == atom }?.key
    }
}

/// A rectangle in root-window coordinates: where a target's answer holds until the pointer leaves it.
package struct XdndRectangle: Sendable, Hashable {
    /// The left edge.
    package var x: Int16
    /// The top edge.
    package var y: Int16
    /// The width (0 with a height of 0: the answer holds only for this position).
    package var width: UInt16
    /// The height.
    package var height: UInt16

    /// A rectangle.
    package init(x: Int16, y: Int16, width: UInt16, height: UInt16) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The empty rectangle, for an answer that holds for one position only.
    package static let empty = XdndRectangle(x: 0, y: 0, width: 0, height: 0)

    /// Whether the root point `x`, `y` lies inside.
    package func contains(x px: Int16, y py: Int16) -> Bool {
        let (left, top) = (Int(x), Int(y))
        return Int(px) >= left && Int(px) < left + Int(width) && Int(py) >= top && Int(py) < top + Int(height)
    }
}

/// One XDND (version 5) client message, decoded from or encoded to a format-32 `ClientMessage`'s five 32-bit items.
///
/// Windows and atoms are the server's numbers; actions stay atoms (``XdndAtoms/action(for:)`` names the known ones),
/// so every message decodes, and one encoded from a decoded one is the same message.
package enum XdndMessage: Sendable, Hashable {
    /// The pointer entered a target: the source's `window`, its XDND `version` (the top byte of item 1), whether it
    /// offers more than three types (bit 0: read them from its `XdndTypeList` property), and the first three types
    /// (`None` items left out).
    case enter(source: X11.ID, version: UInt8, hasMoreTypes: Bool, types: [X11.ID])
    /// The pointer is at `rootX`, `rootY` (item 2: x in the high 16 bits) at `time`, the source proposing `action`.
    case position(source: X11.ID, rootX: Int16, rootY: Int16, time: UInt32, action: X11.ID)
    /// The target's answer: whether it `accepts` a drop, whether it `wantsPositions` while the pointer stays in
    /// `rectangle` (bit 1; without it the source may stay silent there), and the `action` it accepts.
    case status(target: X11.ID, accepts: Bool, wantsPositions: Bool, rectangle: XdndRectangle, action: X11.ID)
    /// The pointer left the target, or the drag ended without a drop there.
    case leave(source: X11.ID)
    /// The button was released over the target: convert `XdndSelection` with `time`.
    case drop(source: X11.ID, time: UInt32)
    /// The target is done with the drop: version 5's success bit and the action it performed (`None` on failure).
    case finished(target: X11.ID, succeeded: Bool, action: X11.ID)

    /// The window that sent the message (item 0): the source for enter, position, leave and drop; the target for
    /// status and finished.
    package var sender: X11.ID {
        switch self {
        case .enter(let window, _, _, _), .position(let window, _, _, _, _), .status(let window, _, _, _, _),
            .leave(let window), .drop(let window, _), .finished(let window, _, _):
            window
        }
    }

    /// The message of a `ClientMessage` of `type` with `data` (its 20 data bytes, little-endian items), or `nil`
    /// when `type` is no XDND message or `data` is not 20 bytes. Every item's value is accepted: reserved bits are
    /// ignored, and a version above 5 is reported as sent (the caller decides).
    package static func decode(type: X11.ID, data: some Collection<UInt8>, atoms: XdndAtoms) -> XdndMessage? {
        guard type != X11.none, data.count == 20 else { return nil }
        let bytes = X11Bytes(Array(data))
        let items = (0..<5).map { bytes.u32($0 * 4) }
        let (high, low) = (Int16(truncatingIfNeeded: items[2] >> 16), Int16(truncatingIfNeeded: items[2] & 0xFFFF))
        switch type {
        case atoms.enter:
            return .enter(
                source: items[0], version: UInt8(items[1] >> 24), hasMoreTypes: items[1] & 1 != 0,
                types: items[2...4].filter { $0 != X11.none })
        case atoms.position:
            return .position(source: items[0], rootX: high, rootY: low, time: items[3], action: items[4])
        case atoms.status:
            return .status(
                target: items[0], accepts: items[1] & 1 != 0, wantsPositions: items[1] & 2 != 0,
                rectangle: XdndRectangle(
                    x: high, y: low, width: UInt16(items[3] >> 16), height: UInt16(items[3] & 0xFFFF)),
                action: items[4])
        case atoms.leave:
            return .leave(source: items[0])
        case atoms.drop:
            return .drop(source: items[0], time: items[2])
        case atoms.finished:
            return .finished(target: items[0], succeeded: items[1] & 1 != 0, action: items[2])
        default:
            return nil
        }
    }

    /// The message's type atom and its five data items, as ``X11RequestEncoder/sendClientMessage(to:eventMask:window:type:data:)``
    /// sends them. An enter's types after the third are left out (they go in `XdndTypeList`).
    package func encode(atoms: XdndAtoms) -> (type: X11.ID, items: [UInt32]) {
        func packed(_ high: Int16, _ low: Int16) -> UInt32 {
            UInt32(UInt16(bitPattern: high)) << 16 | UInt32(UInt16(bitPattern: low))
        }
        switch self {
        case .enter(let source, let version, let hasMoreTypes, let types):
            let three = Array(types.prefix(3)) + Array(repeating: X11.none, count: max(0, 3 - types.count))
            return (atoms.enter, [source, UInt32(version) << 24 | (hasMoreTypes ? 1 : 0)] + three)
        case .position(let source, let rootX, let rootY, let time, let action):
            return (atoms.position, [source, 0, packed(rootX, rootY), time, action])
        case .status(let target, let accepts, let wantsPositions, let rectangle, let action):
            let flags: UInt32 = (accepts ? 1 : 0) | (wantsPositions ? 2 : 0)
            let size = UInt32(rectangle.width) << 16 | UInt32(rectangle.height)
            return (atoms.status, [target, flags, packed(rectangle.x, rectangle.y), size, action])
        case .leave(let source):
            return (atoms.leave, [source, 0, 0, 0, 0])
        case .drop(let source, let time):
            return (atoms.drop, [source, 0, time, 0, 0])
        case .finished(let target, let succeeded, let action):
            return (atoms.finished, [target, succeeded ? 1 : 0, action, 0, 0])
        }
    }

    /// The `SendEvent` request that delivers this message to `destination` (event mask 0: to the client that
    /// created it), about `window` (the event's window field): the target itself, or, when the message goes to the
    /// target's `XdndProxy`, the original target.
    package func request(to destination: X11.ID, about window: X11.ID? = nil, atoms: XdndAtoms) -> [UInt8] {
        let (type, items) = encode(atoms: atoms)
        return X11RequestEncoder.sendClientMessage(
            to: destination, window: window ?? destination, type: type, data: items)
    }
}

/// XDND's protocol constants, and the one wait of its drivers.
package enum Xdnd {
    /// What a driver's wait for the next event of its machine gave.
    enum Wait<Event> {
        /// The next event.
        case event(Event)
        /// The armed deadline passed first.
        case deadline
        /// The waiting task was cancelled.
        case cancelled
        /// The mailbox was closed: by the window (`nil`) or by the connection's end.
        case ended(ClipboardError?)
    }

    /// The next event of `mailbox`, waiting until `deadline`.
    static func next<Event>(from mailbox: Mailbox<Event, ClipboardError>, until deadline: Deadline) async -> Wait<Event>
    {
        do {
            return .event(try await mailbox.receive(until: deadline))
        } catch {
            switch error {
            case .timedOut: return .deadline
            case .cancelled: return .cancelled
            case .finished: return .ended(nil)
            case .closed(let failure): return .ended(failure)
            }
        }
    }

    /// The version this implementation speaks (and writes as `XdndAware`).
    package static let version: UInt8 = 5
    /// The oldest version it talks to: 3 added the `XdndAware` version check and `XdndSelection` timestamps.
    package static let oldestVersion: UInt8 = 3
}
