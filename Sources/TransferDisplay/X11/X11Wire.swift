package import TransferKitPlatform

#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// The X11 core protocol's numbers this backend uses (X Window System Protocol, version 11).
package enum X11 {
    /// An atom or resource identifier: a 32-bit number on the wire.
    package typealias ID = UInt32

    /// `None` as a window, atom or property.
    package static let none: ID = 0
    /// `CurrentTime` as a timestamp.
    package static let currentTime: UInt32 = 0

    /// The predefined atoms this backend names.
    package enum Atom {
        /// `PRIMARY`.
        package static let primary: ID = 1
        /// `ATOM`.
        package static let atom: ID = 4
        /// `INTEGER`.
        package static let integer: ID = 19
        /// `STRING`.
        package static let string: ID = 31
        /// `WM_NAME`.
        package static let wmName: ID = 39
        /// `WM_CLASS`.
        package static let wmClass: ID = 67
    }

    /// Event codes (the high bit, set on events a client sent, is masked off before comparing).
    package enum EventCode {
        /// `KeyPress`.
        package static let keyPress: UInt8 = 2
        /// `ButtonPress`.
        package static let buttonPress: UInt8 = 4
        /// `ButtonRelease`.
        package static let buttonRelease: UInt8 = 5
        /// `MotionNotify`.
        package static let motionNotify: UInt8 = 6
        /// `Expose`.
        package static let expose: UInt8 = 12
        /// `DestroyNotify`.
        package static let destroyNotify: UInt8 = 17
        /// `PropertyNotify`.
        package static let propertyNotify: UInt8 = 28
        /// `SelectionClear`.
        package static let selectionClear: UInt8 = 29
        /// `SelectionRequest`.
        package static let selectionRequest: UInt8 = 30
        /// `SelectionNotify`.
        package static let selectionNotify: UInt8 = 31
        /// `ClientMessage`.
        package static let clientMessage: UInt8 = 33
        /// `GenericEvent` (X Generic Event extension): a reply-like length field follows.
        package static let genericEvent: UInt8 = 35
    }

    /// Event-mask bits.
    package enum EventMask {
        /// `KeyPress`.
        package static let keyPress: UInt32 = 0x0000_0001
        /// `ButtonPress`.
        package static let buttonPress: UInt32 = 0x0000_0004
        /// `ButtonRelease`.
        package static let buttonRelease: UInt32 = 0x0000_0008
        /// `PointerMotion`: `MotionNotify` whether or not a button is held.
        package static let pointerMotion: UInt32 = 0x0000_0040
        /// `Exposure`: `Expose`.
        package static let exposure: UInt32 = 0x0000_8000
        /// `StructureNotify`: `DestroyNotify` among others.
        package static let structureNotify: UInt32 = 0x0002_0000
        /// `PropertyChange`: `PropertyNotify`.
        package static let propertyChange: UInt32 = 0x0040_0000
    }

    /// The largest message the decoder accepts: a reply's or generic event's length field above it is a
    /// protocol violation, found before anything is allocated for it.
    package static let defaultMessageLimit = 8 << 20
}

// MARK: - Requests

/// Builds the bytes of X11 requests, little-endian (the byte order this client announces in its setup).
package struct X11RequestEncoder {
    private var bytes: [UInt8] = []

    private init(opcode: UInt8, data: UInt8) {
        bytes.reserveCapacity(32)
        bytes.append(opcode)
        bytes.append(data)
        bytes.append(contentsOf: [0, 0])
    }

    private mutating func u8(_ value: UInt8) { bytes.append(value) }
    private mutating func u16(_ value: UInt16) { bytes.append(contentsOf: [UInt8(value & 0xFF), UInt8(value >> 8)]) }
    private mutating func u32(_ value: UInt32) {
        bytes.append(contentsOf: [
            UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8(value >> 24),
        ])
    }
    private mutating func padded<Bytes: Collection<UInt8>>(_ data: Bytes) {
        bytes.append(contentsOf: data)
        bytes.append(contentsOf: repeatElement(0, count: X11RequestEncoder.padding(data.count)))
    }

    /// A request whose only field is one 32-bit value: a window, atom, font, GC or timestamp.
    private static func request(opcode: UInt8, resource: X11.ID) -> [UInt8] {
        var encoder = X11RequestEncoder(opcode: opcode, data: 0)
        encoder.u32(resource)
        return encoder.finished()
    }

    /// A request that carries a name (an atom's, a font's, an extension's), after a resource when given.
    private static func request(opcode: UInt8, data: UInt8 = 0, resource: X11.ID? = nil, name: String) -> [UInt8] {
        let utf8 = Array(name.utf8.prefix(Int(UInt16.max)))
        var encoder = X11RequestEncoder(opcode: opcode, data: data)
        if let resource { encoder.u32(resource) }
        encoder.u16(UInt16(utf8.count))
        encoder.u16(0)
        encoder.padded(utf8)
        return encoder.finished()
    }

    /// The pad bytes after `count` bytes, up to a multiple of four.
    package static func padding(_ count: Int) -> Int { (4 - count % 4) % 4 }

    /// The request with its length field (in 4-byte units) filled in.
    private consuming func finished() -> [UInt8] {
        let units = bytes.count / 4
        bytes[2] = UInt8(units & 0xFF)
        bytes[3] = UInt8((units >> 8) & 0xFF)
        return bytes
    }

    /// The connection setup: little-endian, protocol 11.0, with an authorization (or none).
    package static func setup(authorizationName: [UInt8], authorizationData: [UInt8]) -> [UInt8] {
        var encoder = X11RequestEncoder(opcode: 0x6C, data: 0)
        encoder.bytes.removeLast(2)
        encoder.u16(11)
        encoder.u16(0)
        encoder.u16(UInt16(clamping: authorizationName.count))
        encoder.u16(UInt16(clamping: authorizationData.count))
        encoder.u16(0)
        encoder.padded(authorizationName.prefix(Int(UInt16.max)))
        encoder.padded(authorizationData.prefix(Int(UInt16.max)))
        return encoder.bytes
    }

    /// `CreateWindow`: an unmapped 1×1 InputOnly window on `parent`, selecting `eventMask`.
    package static func createWindow(_ window: X11.ID, parent: X11.ID, eventMask: UInt32) -> [UInt8] {
        var encoder = X11RequestEncoder(opcode: 1, data: 0)
        encoder.u32(window)
        encoder.u32(parent)
        encoder.u16(0)  // x
        encoder.u16(0)  // y
        encoder.u16(1)  // width
        encoder.u16(1)  // height
        encoder.u16(0)  // border width (InputOnly windows must have none)
        encoder.u16(2)  // class InputOnly
        encoder.u32(0)  // visual CopyFromParent
        encoder.u32(0x800)  // value mask: event-mask
        encoder.u32(eventMask)
        return encoder.finished()
    }

    /// `ChangeWindowAttributes` setting only the event mask this client selects on `window`.
    package static func changeEventMask(_ window: X11.ID, eventMask: UInt32) -> [UInt8] {
        var encoder = X11RequestEncoder(opcode: 2, data: 0)
        encoder.u32(window)
        encoder.u32(0x800)
        encoder.u32(eventMask)
        return encoder.finished()
    }

    /// `DestroyWindow`.
    package static func destroyWindow(_ window: X11.ID) -> [UInt8] {
        request(opcode: 4, resource: window)
    }

    /// `InternAtom` (reply: the atom).
    package static func internAtom(_ name: String, onlyIfExists: Bool = false) -> [UInt8] {
        request(opcode: 16, data: onlyIfExists ? 1 : 0, name: name)
    }

    /// `GetAtomName` (reply: the name).
    package static func getAtomName(_ atom: X11.ID) -> [UInt8] {
        request(opcode: 17, resource: atom)
    }

    /// How `ChangeProperty` combines the new data with the old.
    package enum PropertyMode: UInt8 {
        /// The data replaces the property.
        case replace = 0
        /// The data goes after the existing data (INCR chunks may be sent this way).
        case append = 2
    }

    /// `ChangeProperty` of 8-bit or 32-bit `data` (its count must be a multiple of `format / 8`).
    package static func changeProperty(
        _ window: X11.ID, property: X11.ID, type: X11.ID, format: UInt8, mode: PropertyMode = .replace,
        data: some Collection<UInt8>
    ) -> [UInt8] {
        var encoder = X11RequestEncoder(opcode: 18, data: mode.rawValue)
        encoder.bytes.reserveCapacity(24 + data.count + 3)
        encoder.u32(window)
        encoder.u32(property)
        encoder.u32(type)
        encoder.u8(format)
        encoder.bytes.append(contentsOf: [0, 0, 0])
        encoder.u32(UInt32(data.count / max(1, Int(format) / 8)))
        encoder.padded(data)
        return encoder.finished()
    }

    /// `ChangeProperty` of 32-bit values such as atoms.
    package static func changeProperty(
        _ window: X11.ID, property: X11.ID, type: X11.ID, mode: PropertyMode = .replace,
        values: some Collection<UInt32>
    ) -> [UInt8] {
        var data: [UInt8] = []
        data.reserveCapacity(values.count * 4)
        for value in values {
            data.append(contentsOf: [
                UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8(value >> 24),
            ])
        }
        return changeProperty(window, property: property, type: type, format: 32, mode: mode, data: data)
    }

    /// `DeleteProperty`.
    package static func deleteProperty(_ window: X11.ID, property: X11.ID) -> [UInt8] {
        var encoder = X11RequestEncoder(opcode: 19, data: 0)
        encoder.u32(window)
        encoder.u32(property)
        return encoder.finished()
    }

    /// `GetProperty` of any type, `length` 4-byte units from `offset` (reply: type, format, bytes after, value).
    package static func getProperty(
        _ window: X11.ID, property: X11.ID, delete: Bool, offset: UInt32 = 0, length: UInt32
    ) -> [UInt8] {
        var encoder = X11RequestEncoder(opcode: 20, data: delete ? 1 : 0)
        encoder.u32(window)
        encoder.u32(property)
        encoder.u32(0)  // AnyPropertyType
        encoder.u32(offset)
        encoder.u32(length)
        return encoder.finished()
    }

    /// `SetSelectionOwner` (`owner` `None` clears the selection).
    package static func setSelectionOwner(_ owner: X11.ID, selection: X11.ID, time: UInt32) -> [UInt8] {
        var encoder = X11RequestEncoder(opcode: 22, data: 0)
        encoder.u32(owner)
        encoder.u32(selection)
        encoder.u32(time)
        return encoder.finished()
    }

    /// `GetSelectionOwner` (reply: the owner window or `None`).
    package static func getSelectionOwner(_ selection: X11.ID) -> [UInt8] {
        request(opcode: 23, resource: selection)
    }

    /// `ConvertSelection`: asks the owner to put `target` into `property` on `requestor`.
    package static func convertSelection(
        requestor: X11.ID, selection: X11.ID, target: X11.ID, property: X11.ID, time: UInt32
    ) -> [UInt8] {
        var encoder = X11RequestEncoder(opcode: 24, data: 0)
        encoder.u32(requestor)
        encoder.u32(selection)
        encoder.u32(target)
        encoder.u32(property)
        encoder.u32(time)
        return encoder.finished()
    }

    /// `SendEvent` of a `SelectionNotify` to `requestor` (event mask 0: it goes to the window's creator).
    package static func sendSelectionNotify(
        requestor: X11.ID, selection: X11.ID, target: X11.ID, property: X11.ID, time: UInt32
    ) -> [UInt8] {
        var encoder = X11RequestEncoder(opcode: 25, data: 0)
        encoder.u32(requestor)
        encoder.u32(0)
        encoder.u8(X11.EventCode.selectionNotify)
        encoder.u8(0)
        encoder.u16(0)
        encoder.u32(time)
        encoder.u32(requestor)
        encoder.u32(selection)
        encoder.u32(target)
        encoder.u32(property)
        encoder.bytes.append(contentsOf: repeatElement(0, count: 8))
        return encoder.finished()
    }

    /// `SendEvent` of a format-32 `ClientMessage` about `window` to the root window `root`, for the clients that
    /// select `StructureNotify` there (ICCCM 2.8: a manager selection's `MANAGER` announcement).
    package static func sendRootClientMessage(
        root: X11.ID, window: X11.ID, type: X11.ID, data: [UInt32]
    ) -> [UInt8] {
        sendClientMessage(to: root, eventMask: X11.EventMask.structureNotify, window: window, type: type, data: data)
    }

    /// `SendEvent` of a format-32 `ClientMessage` about `window` to `destination`: with `eventMask` 0 it goes to
    /// the client that created `destination` (how XDND's messages travel), else to the clients selecting the mask.
    /// `data` is padded or cut to the message's five 32-bit items.
    package static func sendClientMessage(
        to destination: X11.ID, eventMask: UInt32 = 0, window: X11.ID, type: X11.ID, data: [UInt32]
    ) -> [UInt8] {
        var encoder = X11RequestEncoder(opcode: 25, data: 0)
        encoder.u32(destination)
        encoder.u32(eventMask)
        encoder.u8(X11.EventCode.clientMessage)
        encoder.u8(32)
        encoder.u16(0)
        encoder.u32(window)
        encoder.u32(type)
        for index in 0..<5 { encoder.u32(index < data.count ? data[index] : 0) }
        return encoder.finished()
    }

    /// `CreateWindow`: an unmapped InputOutput top-level window of the parent's depth and visual at `x`, `y`, with
    /// the background pixel `background` (painted by the server on every exposure) and `eventMask` selected.
    package static func createInputOutputWindow(
        _ window: X11.ID, parent: X11.ID, x: Int16, y: Int16, width: UInt16, height: UInt16, background: UInt32,
        eventMask: UInt32
    ) -> [UInt8] {
        var encoder = X11RequestEncoder(opcode: 1, data: 0)  // depth CopyFromParent
        encoder.u32(window)
        encoder.u32(parent)
        encoder.u16(UInt16(bitPattern: x))
        encoder.u16(UInt16(bitPattern: y))
        encoder.u16(max(1, width))
        encoder.u16(max(1, height))
        encoder.u16(0)  // border width
        encoder.u16(1)  // class InputOutput
        encoder.u32(0)  // visual CopyFromParent
        encoder.u32(0x802)  // value mask: background-pixel, event-mask
        encoder.u32(background)
        encoder.u32(eventMask)
        return encoder.finished()
    }

    /// `MapWindow`.
    package static func mapWindow(_ window: X11.ID) -> [UInt8] {
        request(opcode: 8, resource: window)
    }

    /// `ConfigureWindow` moving `window` to `x`, `y`.
    package static func moveWindow(_ window: X11.ID, x: Int16, y: Int16) -> [UInt8] {
        var encoder = X11RequestEncoder(opcode: 12, data: 0)
        encoder.u32(window)
        encoder.u16(0x0003)  // x, y
        encoder.u16(0)
        encoder.u32(UInt32(bitPattern: Int32(x)))
        encoder.u32(UInt32(bitPattern: Int32(y)))
        return encoder.finished()
    }

    /// `ConfigureWindow` setting the size of `window`.
    package static func resizeWindow(_ window: X11.ID, width: UInt16, height: UInt16) -> [UInt8] {
        var encoder = X11RequestEncoder(opcode: 12, data: 0)
        encoder.u32(window)
        encoder.u16(0x000C)  // width, height
        encoder.u16(0)
        encoder.u32(UInt32(max(1, width)))
        encoder.u32(UInt32(max(1, height)))
        return encoder.finished()
    }

    /// `OpenFont`: the core font `name` (such as `fixed`) as `font`.
    package static func openFont(_ font: X11.ID, name: String) -> [UInt8] {
        request(opcode: 45, resource: font, name: name)
    }

    /// `CloseFont`.
    package static func closeFont(_ font: X11.ID) -> [UInt8] {
        request(opcode: 46, resource: font)
    }

    /// `CreateGC` on `drawable` with a foreground and background pixel and, when given, a font.
    package static func createGC(
        _ gc: X11.ID, drawable: X11.ID, foreground: UInt32, background: UInt32, font: X11.ID?
    ) -> [UInt8] {
        var encoder = X11RequestEncoder(opcode: 55, data: 0)
        encoder.u32(gc)
        encoder.u32(drawable)
        encoder.u32(font == nil ? 0x0C : 0x400C)  // foreground, background (, font)
        encoder.u32(foreground)
        encoder.u32(background)
        if let font { encoder.u32(font) }
        return encoder.finished()
    }

    /// `FreeGC`.
    package static func freeGC(_ gc: X11.ID) -> [UInt8] {
        request(opcode: 60, resource: gc)
    }

    /// `ClearArea` of the whole `window` to its background, without `Expose` events.
    package static func clearWindow(_ window: X11.ID) -> [UInt8] {
        var encoder = X11RequestEncoder(opcode: 61, data: 0)
        encoder.u32(window)
        encoder.u32(0)  // x, y
        encoder.u32(0)  // width, height 0: to the window's edges
        return encoder.finished()
    }

    /// `ImageText8`: up to 255 bytes of `text` with the GC's font, its baseline's left end at `x`, `y`.
    package static func imageText8(
        drawable: X11.ID, gc: X11.ID, x: Int16, y: Int16, text: some Collection<UInt8>
    ) -> [UInt8] {
        let bytes = Array(text.prefix(255))
        var encoder = X11RequestEncoder(opcode: 76, data: UInt8(bytes.count))
        encoder.u32(drawable)
        encoder.u32(gc)
        encoder.u16(UInt16(bitPattern: x))
        encoder.u16(UInt16(bitPattern: y))
        encoder.padded(bytes)
        return encoder.finished()
    }

    /// `QueryPointer` on `window` (reply: the root, the child of `window` the pointer is in, and its positions).
    package static func queryPointer(_ window: X11.ID) -> [UInt8] {
        request(opcode: 38, resource: window)
    }

    /// `TranslateCoordinates` of `x`, `y` in `source` to `destination` (reply: the point there, and the child of
    /// `destination` that contains it).
    package static func translateCoordinates(
        from source: X11.ID, to destination: X11.ID, x: Int16, y: Int16
    ) -> [UInt8] {
        var encoder = X11RequestEncoder(opcode: 40, data: 0)
        encoder.u32(source)
        encoder.u32(destination)
        encoder.u16(UInt16(bitPattern: x))
        encoder.u16(UInt16(bitPattern: y))
        return encoder.finished()
    }

    /// `GrabPointer` for `window`, reporting `eventMask` to it (owner events off, both modes asynchronous, no
    /// confinement, no cursor change) (reply: the status, 0 when granted).
    package static func grabPointer(_ window: X11.ID, eventMask: UInt16, time: UInt32) -> [UInt8] {
        var encoder = X11RequestEncoder(opcode: 26, data: 0)
        encoder.u32(window)
        encoder.u16(eventMask)
        encoder.u8(1)  // pointer mode Asynchronous
        encoder.u8(1)  // keyboard mode Asynchronous
        encoder.u32(X11.none)  // confine-to
        encoder.u32(X11.none)  // cursor
        encoder.u32(time)
        return encoder.finished()
    }

    /// `UngrabPointer`.
    package static func ungrabPointer(time: UInt32) -> [UInt8] {
        request(opcode: 27, resource: time)
    }

    /// `GrabKeyboard` for `window` (owner events off, both modes asynchronous) (reply: the status, 0 when granted).
    package static func grabKeyboard(_ window: X11.ID, time: UInt32) -> [UInt8] {
        var encoder = X11RequestEncoder(opcode: 31, data: 0)
        encoder.u32(window)
        encoder.u32(time)
        encoder.u8(1)
        encoder.u8(1)
        encoder.u16(0)
        return encoder.finished()
    }

    /// `UngrabKeyboard`.
    package static func ungrabKeyboard(time: UInt32) -> [UInt8] {
        request(opcode: 32, resource: time)
    }

    /// `GetInputFocus`: a request with a reply, sent to wait for the server to have handled what came before.
    package static func getInputFocus() -> [UInt8] {
        X11RequestEncoder(opcode: 43, data: 0).finished()
    }

    /// `GrabServer`: the server handles no other client's requests until `UngrabServer` (tests use it to make a
    /// sequence of requests reach the server as one).
    package static func grabServer() -> [UInt8] {
        X11RequestEncoder(opcode: 36, data: 0).finished()
    }

    /// `UngrabServer`.
    package static func ungrabServer() -> [UInt8] {
        X11RequestEncoder(opcode: 37, data: 0).finished()
    }

    /// `QueryExtension` (reply: present, major opcode, first event, first error).
    package static func queryExtension(_ name: String) -> [UInt8] {
        request(opcode: 98, name: name)
    }

    /// `XFixesQueryVersion`, which must come before any other XFIXES request.
    package static func xfixesQueryVersion(majorOpcode: UInt8, major: UInt32, minor: UInt32) -> [UInt8] {
        var encoder = X11RequestEncoder(opcode: majorOpcode, data: 0)
        encoder.u32(major)
        encoder.u32(minor)
        return encoder.finished()
    }

    /// `XFixesSelectSelectionInput`: owner-change events of `selection` delivered for `window`.
    package static func xfixesSelectSelectionInput(
        majorOpcode: UInt8, window: X11.ID, selection: X11.ID, eventMask: UInt32
    ) -> [UInt8] {
        var encoder = X11RequestEncoder(opcode: majorOpcode, data: 2)
        encoder.u32(window)
        encoder.u32(selection)
        encoder.u32(eventMask)
        return encoder.finished()
    }
}

// MARK: - Reading

/// Little-endian reads at checked offsets of a message the decoder has already sized.
package struct X11Bytes: Sendable {
    /// The message.
    package let bytes: [UInt8]

    /// Wraps a message.
    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The byte at `offset`, or 0 past the end (callers check lengths first; a short message never traps).
    package func u8(_ offset: Int) -> UInt8 { offset >= 0 && offset < bytes.count ? bytes[offset] : 0 }
    /// The 16-bit value at `offset`.
    package func u16(_ offset: Int) -> UInt16 { UInt16(u8(offset)) | UInt16(u8(offset + 1)) << 8 }
    /// The 32-bit value at `offset`.
    package func u32(_ offset: Int) -> UInt32 {
        UInt32(u8(offset)) | UInt32(u8(offset + 1)) << 8 | UInt32(u8(offset + 2)) << 16 | UInt32(u8(offset + 3)) << 24
    }
}

/// A protocol violation found while decoding, before it becomes a `ClipboardError`.
package struct X11WireError: Error, Sendable, Equatable {
    /// What is wrong.
    package let reason: String
}

/// The server's answer to the connection setup.
package enum X11SetupReply: Sendable, Equatable {
    /// The connection is open.
    case success(X11ServerInfo)
    /// The server refused the connection, saying why.
    case failed(reason: String)
    /// The server wants more authentication, saying why.
    case authenticate(reason: String)

    /// The size of the setup reply that starts with `header` (8 bytes at least), checked against `limit`.
    package static func totalLength(header: [UInt8], limit: Int = 1 << 20) throws(X11WireError) -> Int {
        let reader = X11Bytes(header)
        guard header.count >= 8 else { throw X11WireError(reason: "a setup reply shorter than its 8-byte header") }
        guard reader.u8(0) <= 2 else {
            throw X11WireError(reason: "a setup reply with the unknown status \(reader.u8(0))")
        }
        let total = 8 + Int(reader.u16(6)) * 4
        guard total <= limit else {
            throw X11WireError(reason: "a setup reply of \(total) bytes, over the limit of \(limit)")
        }
        return total
    }

    /// Parses a whole setup reply (``totalLength(header:limit:)`` bytes).
    package init(parsing bytes: [UInt8]) throws(X11WireError) {
        let total = try Self.totalLength(header: bytes, limit: max(bytes.count, 8))
        guard bytes.count == total else {
            throw X11WireError(reason: "a setup reply of \(bytes.count) bytes where its header says \(total)")
        }
        let reader = X11Bytes(bytes)
        switch reader.u8(0) {
        case 0:
            let length = Int(reader.u8(1))
            guard 8 + length <= bytes.count else {
                throw X11WireError(reason: "a setup failure whose reason runs past the reply")
            }
            self = .failed(reason: Self.text(bytes[8..<(8 + length)]))
        case 2:
            self = .authenticate(reason: Self.text(bytes[8...]).trimming(.controlCharacters))
        default:
            self = .success(try X11ServerInfo(parsing: reader))
        }
    }

    private static func text(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}

/// What this backend needs of a successful setup reply.
package struct X11ServerInfo: Sendable, Equatable {
    /// The base of the resource identifiers this client allocates.
    package var resourceIDBase: UInt32
    /// The bits of an identifier the client may vary.
    package var resourceIDMask: UInt32
    /// The largest request the server accepts, in bytes.
    package var maximumRequestBytes: Int
    /// The root window of the first screen.
    package var rootWindow: X11.ID
    /// The vendor string.
    package var vendor: String
    /// The first screen's white pixel value.
    package var whitePixel: UInt32
    /// The first screen's black pixel value.
    package var blackPixel: UInt32

    /// Creates server facts (for tests and the fake server).
    package init(
        resourceIDBase: UInt32, resourceIDMask: UInt32, maximumRequestBytes: Int, rootWindow: X11.ID, vendor: String,
        whitePixel: UInt32 = 0xFF_FFFF, blackPixel: UInt32 = 0
    ) {
        self.resourceIDBase = resourceIDBase
        self.resourceIDMask = resourceIDMask
        self.maximumRequestBytes = maximumRequestBytes
        self.rootWindow = rootWindow
        self.vendor = vendor
        self.whitePixel = whitePixel
        self.blackPixel = blackPixel
    }

    init(parsing reader: X11Bytes) throws(X11WireError) {
        let count = reader.bytes.count
        guard count >= 40 else { throw X11WireError(reason: "a setup reply of \(count) bytes, under the 40 needed") }
        resourceIDBase = reader.u32(12)
        resourceIDMask = reader.u32(16)
        guard resourceIDMask != 0 else { throw X11WireError(reason: "a setup reply with no resource identifiers") }
        let vendorLength = Int(reader.u16(24))
        maximumRequestBytes = Int(reader.u16(26)) * 4
        guard maximumRequestBytes >= 4096 else {
            throw X11WireError(reason: "a maximum request length of \(maximumRequestBytes) bytes, under 4096")
        }
        let screens = Int(reader.u8(28))
        let formats = Int(reader.u8(29))
        let vendorEnd = 40 + vendorLength
        let screenStart = vendorEnd + X11RequestEncoder.padding(vendorLength) + 8 * formats
        guard screens >= 1, screenStart + 40 <= count else {
            throw X11WireError(reason: "a setup reply without a whole first screen")
        }
        vendor = String(decoding: reader.bytes[40..<vendorEnd], as: UTF8.self)
        rootWindow = reader.u32(screenStart)
        whitePixel = reader.u32(screenStart + 8)
        blackPixel = reader.u32(screenStart + 12)
    }
}

/// One message from the server after the setup: a reply, an error or an event.
package enum X11Message: Sendable, Equatable {
    /// The reply to the request numbered `sequence` (low 16 bits): all its bytes, 32 or more.
    case reply(sequence: UInt16, X11Bytes)
    /// The error of the request numbered `sequence`.
    case error(sequence: UInt16, code: UInt8, majorOpcode: UInt8)
    /// An event.
    case event(X11Event)
}

extension X11Bytes: Equatable {
    /// Equal bytes.
    package static func == (lhs: X11Bytes, rhs: X11Bytes) -> Bool { lhs.bytes == rhs.bytes }
}

/// The events this backend acts on; others are kept only by their code.
package enum X11Event: Sendable, Equatable {
    /// A property changed (`deleted` false: a new value).
    case propertyNotify(window: X11.ID, atom: X11.ID, time: UInt32, deleted: Bool)
    /// This client lost `selection`.
    case selectionClear(time: UInt32, owner: X11.ID, selection: X11.ID)
    /// A client asks this owner to convert `selection` to `target` into `property` on `requestor`.
    case selectionRequest(
        time: UInt32, owner: X11.ID, requestor: X11.ID, selection: X11.ID, target: X11.ID, property: X11.ID)
    /// The owner answered a `ConvertSelection` (`property` `None`: refused).
    case selectionNotify(time: UInt32, requestor: X11.ID, selection: X11.ID, target: X11.ID, property: X11.ID)
    /// A window was destroyed.
    case destroyNotify(window: X11.ID)
    /// XFIXES: the owner of `selection` changed (`owner` `None`: cleared).
    case selectionOwnerChanged(window: X11.ID, owner: X11.ID, selection: X11.ID, time: UInt32)
    /// XFIXES: the owner of `selection` went away, its window destroyed or its client's connection closed (the
    /// `SelectionWindowDestroyNotify` and `SelectionClientCloseNotify` subtypes); the server clears the selection.
    case selectionOwnerGone(window: X11.ID, selection: X11.ID, time: UInt32)
    /// A `ClientMessage` to `window` (XDND's messages among others): its `format` (8, 16 or 32), its `type`
    /// atom and its 20 bytes of data as sent.
    case clientMessage(window: X11.ID, format: UInt8, type: X11.ID, data: [UInt8])
    /// Part of `window` must be drawn again (`count`: how many more `Expose` events follow at once).
    case expose(window: X11.ID, count: UInt16)
    /// A pointer button was pressed (`pressed` true) or released on `window` (or, during a grab, the grabbing
    /// window), or the pointer moved (`MotionNotify`: `button` 0).
    case pointer(X11PointerEvent)
    /// A key was pressed on `window` (`keycode`: the server's key number; 9 is Escape on every X server with an
    /// evdev or PC keyboard map).
    case keyPress(window: X11.ID, keycode: UInt8, time: UInt32)
    /// Any other event.
    case other(code: UInt8)
}

/// A `ButtonPress`, `ButtonRelease` or `MotionNotify` event.
package struct X11PointerEvent: Sendable, Hashable {
    /// What happened.
    package enum Kind: Sendable, Hashable {
        /// A button went down.
        case press
        /// A button went up.
        case release
        /// The pointer moved.
        case motion
    }

    /// What happened.
    package var kind: Kind
    /// The button (1 is the first), 0 for motion.
    package var button: UInt8
    /// The window the event is reported on.
    package var window: X11.ID
    /// The server time.
    package var time: UInt32
    /// The pointer's position on the root window.
    package var rootX: Int16
    /// The pointer's position on the root window.
    package var rootY: Int16
    /// The pointer's position in `window`.
    package var x: Int16
    /// The pointer's position in `window`.
    package var y: Int16
    /// The modifier and button mask before the event.
    package var state: UInt16

    /// A pointer event.
    package init(
        kind: Kind, button: UInt8, window: X11.ID, time: UInt32, rootX: Int16, rootY: Int16, x: Int16, y: Int16,
        state: UInt16
    ) {
        self.kind = kind
        self.button = button
        self.window = window
        self.time = time
        self.rootX = rootX
        self.rootY = rootY
        self.x = x
        self.y = y
        self.state = state
    }
}

/// One frame of what the X server sends: its setup reply, then messages.
package enum X11Frame: Sendable, Equatable {
    /// The answer to the connection setup (always the first frame).
    case setup(X11SetupReply)
    /// A reply, error or event: all its bytes (32, or 32 plus a reply's or generic event's extra length), decoded
    /// by ``X11Message/init(decoding:xfixesFirstEvent:)``.
    case message(X11Bytes)
}

/// X11's framing on the wire layer's ``FrameBuffer``: the setup reply (8 bytes and its length field in 4-byte
/// units), then 32-byte events and errors and replies with their extra length.
///
/// Every length comes from the peer, so each is checked against a limit before the frame is buffered or taken.
package struct X11Frames: FrameDecoder {
    /// The largest message accepted, in bytes.
    package let limit: Int
    /// Whether the next frame is the setup reply.
    package private(set) var expectsSetup: Bool

    /// A decoder of messages of up to `limit` bytes, which reads a setup reply first when `expectsSetup`.
    package init(limit: Int = X11.defaultMessageLimit, expectsSetup: Bool = true) {
        self.limit = max(32, limit)
        self.expectsSetup = expectsSetup
    }

    /// The next whole frame, or `nil` (taking nothing) until more bytes arrive.
    ///
    /// - Throws: ``WireViolation`` (its cause an ``X11WireError``) for a malformed setup reply or a message over
    ///   the limit.
    package mutating func nextFrame(from buffer: inout FrameBuffer) throws(WireViolation) -> X11Frame? {
        if expectsSetup {
            guard buffer.count >= 8 else { return nil }
            do throws(X11WireError) {
                let total = try X11SetupReply.totalLength(header: Array(buffer.bytes(at: 0, length: 8)))
                guard buffer.count >= total else { return nil }
                let reply = try X11SetupReply(parsing: buffer.take(total))
                expectsSetup = false
                return .setup(reply)
            } catch {
                throw WireViolation("Malformed X11 setup reply: \(error.reason).", cause: error)
            }
        }
        guard buffer.count >= 32 else { return nil }
        let kind = buffer[0]
        var total = 32
        if kind == 1 || kind & 0x7F == X11.EventCode.genericEvent {
            let extra = buffer.littleEndianInteger(at: 4, width: 4) * 4
            guard extra <= UInt64(limit - 32) else {
                let error = X11WireError(reason: "a message of \(extra + 32) bytes, over the limit of \(limit)")
                throw WireViolation("The X server broke the protocol: \(error.reason).", cause: error)
            }
            total += Int(extra)
        }
        guard buffer.count >= total else { return nil }
        return .message(X11Bytes(buffer.take(total)))
    }
}

extension X11Message {
    /// Decodes one message frame; `xfixesFirstEvent`, once known, makes XFIXES's selection events decode.
    package init(decoding message: X11Bytes, xfixesFirstEvent: UInt8?) {
        let sequence = message.u16(2)
        switch message.u8(0) {
        case 0:
            self = .error(sequence: sequence, code: message.u8(1), majorOpcode: message.u8(10))
        case 1:
            self = .reply(sequence: sequence, message)
        default:
            self = .event(X11Event(decoding: message, xfixesFirstEvent: xfixesFirstEvent))
        }
    }
}

extension X11Event {
    /// Decodes a 32-byte event.
    ///
    /// The high bit of the code marks an event a client sent (`SendEvent`). Client messages and selection events
    /// are sent that way by nature and decode as any other; a sent pointer or key event is `.other`, so no client
    /// can fake a button release (a drop) or an Escape (a cancel) during a drag.
    package init(decoding m: X11Bytes, xfixesFirstEvent: UInt8?) {
        let code = m.u8(0) & 0x7F
        let sent = m.u8(0) & 0x80 != 0
        switch code {
        case X11.EventCode.propertyNotify:
            self = .propertyNotify(window: m.u32(4), atom: m.u32(8), time: m.u32(12), deleted: m.u8(16) == 1)
        case X11.EventCode.selectionClear:
            self = .selectionClear(time: m.u32(4), owner: m.u32(8), selection: m.u32(12))
        case X11.EventCode.selectionRequest:
            self = .selectionRequest(
                time: m.u32(4), owner: m.u32(8), requestor: m.u32(12), selection: m.u32(16), target: m.u32(20),
                property: m.u32(24))
        case X11.EventCode.selectionNotify:
            self = .selectionNotify(
                time: m.u32(4), requestor: m.u32(8), selection: m.u32(12), target: m.u32(16), property: m.u32(20))
        case X11.EventCode.destroyNotify:
            self = .destroyNotify(window: m.u32(8))
        case X11.EventCode.clientMessage:
            self = .clientMessage(window: m.u32(4), format: m.u8(1), type: m.u32(8), data: (12..<32).map(m.u8))
        case X11.EventCode.expose:
            self = .expose(window: m.u32(4), count: m.u16(16))
        case X11.EventCode.keyPress where !sent:
            self = .keyPress(window: m.u32(12), keycode: m.u8(1), time: m.u32(4))
        case X11.EventCode.buttonPress where !sent, X11.EventCode.buttonRelease where !sent,
            X11.EventCode.motionNotify where !sent:
            let kind: X11PointerEvent.Kind =
                code == X11.EventCode.buttonPress ? .press : code == X11.EventCode.buttonRelease ? .release : .motion
            self = .pointer(
                X11PointerEvent(
                    kind: kind, button: kind == .motion ? 0 : m.u8(1), window: m.u32(12), time: m.u32(4),
                    rootX: Int16(bitPattern: m.u16(20)), rootY: Int16(bitPattern: m.u16(22)),
                    x: Int16(bitPattern: m.u16(24)), y: Int16(bitPattern: m.u16(26)), state: m.u16(28)))
        case let code where code == xfixesFirstEvent && m.u8(1) != 0:
            // Subtype 1 (window destroyed) or 2 (client closed): the server sends `None` as the owner.
            self = .selectionOwnerGone(window: m.u32(4), selection: m.u32(12), time: m.u32(16))
        case let code where code == xfixesFirstEvent:
            self = .selectionOwnerChanged(window: m.u32(4), owner: m.u32(8), selection: m.u32(12), time: m.u32(16))
        default:
            self = .other(code: code)
        }
    }
}

/// The fields of replies this backend reads, each checked against the reply's real size.
package enum X11Reply {
    /// `InternAtom`: the atom.
    package static func atom(_ reply: X11Bytes) -> X11.ID { reply.u32(8) }

    /// `GetSelectionOwner`: the owner.
    package static func owner(_ reply: X11Bytes) -> X11.ID { reply.u32(8) }

    /// `TranslateCoordinates`: the child of the destination window that contains the point (`None`: none), and
    /// the point in the destination window.
    package static func translated(_ reply: X11Bytes) -> (child: X11.ID, x: Int16, y: Int16) {
        (reply.u32(8), Int16(bitPattern: reply.u16(12)), Int16(bitPattern: reply.u16(14)))
    }

    /// `QueryPointer`: the child of the queried window that contains the pointer (`None`: none), and the pointer's
    /// position on the root window.
    package static func pointer(_ reply: X11Bytes) -> (child: X11.ID, rootX: Int16, rootY: Int16) {
        (reply.u32(12), Int16(bitPattern: reply.u16(16)), Int16(bitPattern: reply.u16(18)))
    }

    /// `GrabPointer` and `GrabKeyboard`: the status (0 `Success`; 1 already grabbed, 2 invalid time, 3 not
    /// viewable, 4 frozen).
    package static func grabStatus(_ reply: X11Bytes) -> UInt8 { reply.u8(1) }

    /// `GetAtomName`: the name.
    package static func atomName(_ reply: X11Bytes) throws(X11WireError) -> String {
        let length = Int(reply.u16(8))
        guard 32 + length <= reply.bytes.count else {
            throw X11WireError(reason: "an atom name of \(length) bytes in a reply of \(reply.bytes.count)")
        }
        return String(decoding: reply.bytes[32..<(32 + length)], as: UTF8.self)
    }

    /// `QueryExtension`: whether it is present, its major opcode and its first event code.
    package static func extensionInfo(_ reply: X11Bytes) -> (present: Bool, majorOpcode: UInt8, firstEvent: UInt8) {
        (reply.u8(8) != 0, reply.u8(9), reply.u8(10))
    }

    /// A `GetProperty` reply.
    package struct Property: Sendable, Equatable {
        /// The property's type (`None` when it does not exist).
        package var type: X11.ID
        /// 0, 8, 16 or 32.
        package var format: UInt8
        /// The bytes after what was returned.
        package var bytesAfter: UInt32
        /// The returned bytes.
        package var value: Data

        /// The value as 32-bit items (atoms, for TARGETS), little-endian.
        package var items32: [UInt32] {
            guard format == 32 else { return [] }
            let reader = X11Bytes(Array(value))
            return (0..<(value.count / 4)).map { reader.u32($0 * 4) }
        }
    }

    /// `GetProperty`: the type, format and value, the value's length checked against the reply.
    package static func property(_ reply: X11Bytes) throws(X11WireError) -> Property {
        let format = reply.u8(1)
        guard [0, 8, 16, 32].contains(format) else {
            throw X11WireError(reason: "a property of format \(format), not 0, 8, 16 or 32")
        }
        let items = UInt64(reply.u32(16))
        let byteCount = items * UInt64(format / 8)
        guard byteCount <= UInt64(reply.bytes.count - 32) else {
            throw X11WireError(reason: "a property value of \(byteCount) bytes in a reply of \(reply.bytes.count)")
        }
        let value = Data(reply.bytes[32..<(32 + Int(byteCount))])
        return Property(type: reply.u32(8), format: format, bytesAfter: reply.u32(12), value: value)
    }
}
