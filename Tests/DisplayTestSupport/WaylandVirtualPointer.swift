package import Foundation
import TransferClipboard
import TransferDisplay
import TransferKitPlatform

/// A pointer for tests on a compositor whose seat has none (headless sway): a `zwlr_virtual_pointer_v1` from
/// `zwlr_virtual_pointer_manager_v1`, spoken with the project's own Wayland wire code on a connection of its own.
///
/// Creating it gives the seat the pointer capability, so clients that bind the seat afterwards (or listen to its
/// `capabilities`) get a `wl_pointer` whose events this driver causes: ``move(to:)`` (`motion_absolute` in the
/// output's pixels), ``press()`` and ``release()`` (`button` `BTN_LEFT`), each followed by `frame`.
package final class WaylandVirtualPointer: Sendable {
    private let socket: UnixSocket
    /// The virtual pointer's id.
    private let pointer: UInt32 = 6
    /// The width and height of the output layout the absolute coordinates map to.
    package let extent: (width: UInt32, height: UInt32)
    private let start = ContinuousClock.now
    /// The next id for a `sync` callback (ids are not reused, so no `delete_id` is waited for).
    private let nextCallback = SanitizedMutex<UInt32>(8)

    /// `BTN_LEFT` in Linux's input event codes.
    package static let firstButton: UInt32 = 0x110

    /// Connects to `compositor`, binds its seat and virtual-pointer manager, and creates the pointer; `extent` is
    /// the output layout's size (headless sway's one output is 1280×720).
    ///
    /// - Throws: ``XvfbError`` when the compositor has no virtual-pointer manager or seat, or does not answer.
    package init(socketPath: String, extent: (width: UInt32, height: UInt32) = (1280, 720)) throws {
        do {
            socket = try UnixSocket.connect(toPath: socketPath)
        } catch {
            throw XvfbError(message: "cannot connect to \(socketPath): \(error.reason)")
        }
        self.extent = extent
        // wl_display.get_registry(2), then sync(3): the globals come before the callback's done.
        try send([
            WaylandMessage(objectID: 1, opcode: 1, arguments: [.newID(2)]),
            WaylandMessage(objectID: 1, opcode: 0, arguments: [.newID(3)]),
        ])
        var globals: [String: (name: UInt32, version: UInt32)] = [:]
        try readUntilDone(callback: 3) { frame in
            guard frame.objectID == 2, frame.opcode == 0 else { return }
            var none: [Int32] = []
            let arguments = try WaylandWire.decodeArguments(
                frame.body, signature: [.uint, .string(nullable: false), .uint], fds: &none)
            guard case .uint(let name) = arguments[0], case .string(let interface?) = arguments[1],
                case .uint(let version) = arguments[2]
            else { return }
            globals[interface] = (name, version)
        }
        guard let seat = globals["wl_seat"], let manager = globals["zwlr_virtual_pointer_manager_v1"] else {
            throw XvfbError(message: "the compositor lacks wl_seat or zwlr_virtual_pointer_manager_v1: \(globals.keys)")
        }
        try send([
            // wl_registry.bind(name, interface, version, id): the seat as 4, the manager as 5.
            WaylandMessage(
                objectID: 2, opcode: 0, arguments: [.uint(seat.name), .string("wl_seat"), .uint(1), .newID(4)]),
            WaylandMessage(
                objectID: 2, opcode: 0,
                arguments: [
                    .uint(manager.name), .string("zwlr_virtual_pointer_manager_v1"), .uint(min(manager.version, 2)),
                    .newID(5),
                ]),
            // create_virtual_pointer(seat, id)
            WaylandMessage(objectID: 5, opcode: 0, arguments: [.object(4), .newID(pointer)]),
            WaylandMessage(objectID: 1, opcode: 0, arguments: [.newID(7)]),  // sync
        ])
        try readUntilDone(callback: 7) { _ in }
    }

    deinit {
        // destroy, then the connection ends.
        try? send([WaylandMessage(objectID: pointer, opcode: 8)])
        socket.close()
    }

    /// Moves the pointer to (`x`, `y`) in the output's pixels.
    package func move(to point: (x: Int, y: Int)) throws {
        // motion_absolute(time, x, y, x_extent, y_extent), frame
        try send([
            WaylandMessage(
                objectID: pointer, opcode: 1,
                arguments: [
                    .uint(time), .uint(UInt32(clamping: point.x)), .uint(UInt32(clamping: point.y)),
                    .uint(extent.width), .uint(extent.height),
                ]),
            WaylandMessage(objectID: pointer, opcode: 4),
        ])
    }

    /// Presses the first button.
    package func press() throws { try button(pressed: true) }

    /// Releases the first button.
    package func release() throws { try button(pressed: false) }

    private func button(pressed: Bool) throws {
        // button(time, button, state), frame
        try send([
            WaylandMessage(
                objectID: pointer, opcode: 2, arguments: [.uint(time), .uint(Self.firstButton), .uint(pressed ? 1 : 0)]),
            WaylandMessage(objectID: pointer, opcode: 4),
        ])
    }

    /// Waits until the compositor has handled every request sent so far (a `sync` round trip), at most 30 s.
    package func sync() throws {
        let callback = nextCallback.withLock { next in
            defer { next += 1 }
            return next
        }
        try send([WaylandMessage(objectID: 1, opcode: 0, arguments: [.newID(callback)])])
        try readUntilDone(callback: callback) { _ in }
    }

    /// Milliseconds since this pointer was made, the events' time stamps.
    private var time: UInt32 {
        let elapsed = ContinuousClock.now - start
        return UInt32(
            truncatingIfNeeded: elapsed.components.seconds * 1000 + elapsed.components.attoseconds
                / 1_000_000_000_000_000)
    }

    private func send(_ messages: [WaylandMessage]) throws {
        try sendWayland(messages, on: socket)
    }

    private func readUntilDone(callback: UInt32, _ handle: (WaylandFrame) throws -> Void) throws {
        try readWayland(from: socket, until: callback, handle)
    }
}

/// Sends `messages` (and the descriptors their arguments carry) on `socket`.
private func sendWayland(_ messages: [WaylandMessage], on socket: UnixSocket) throws {
    var bytes: [UInt8] = []
    var descriptors: [Int32] = []
    for message in messages {
        let encoded = try WaylandWire.encode(message)
        bytes += encoded.bytes
        descriptors += encoded.fds
    }
    do {
        try socket.sendAll(bytes, descriptors: descriptors, timeout: .seconds(30))
    } catch {
        throw XvfbError(message: "cannot write to the compositor: \(error.reason)")
    }
}

/// Reads events from `socket` until `callback`'s `done`, handing every other frame to `handle`; a
/// `wl_display.error` throws.
private func readWayland(
    from socket: UnixSocket, until callback: UInt32, _ handle: (WaylandFrame) throws -> Void
) throws {
    var buffer = FrameBuffer()
    var frames = WaylandFrames()
    var chunk = [UInt8](repeating: 0, count: 4096)
    let deadline = ContinuousClock.now + .seconds(30)
    while true {
        while let frame = try frames.nextFrame(from: &buffer) {
            if frame.objectID == callback && frame.opcode == 0 { return }
            if frame.objectID == 1 && frame.opcode == 0 {
                throw XvfbError(message: "the compositor refused a request: \(Array(frame.body))")
            }
            try handle(frame)
        }
        guard ContinuousClock.now < deadline, try socket.waitUntilReadable(timeout: deadline - .now) else {
            throw XvfbError(message: "the compositor did not answer within 30 s")
        }
        var descriptors: [Int32] = []
        let received = chunk.withUnsafeMutableBytes { raw in
            Result { () throws(SystemError) in try socket.receive(into: raw, descriptors: &descriptors) }
        }
        let count = try received.get()
        for fd in descriptors { Syscall.close(fd) }
        guard count > 0 else { throw XvfbError(message: "the compositor closed the connection") }
        buffer.append(chunk[..<count])
    }
}

/// A keyboard for tests on a compositor whose seat has none (headless sway): a `zwp_virtual_keyboard_v1` from
/// `zwp_virtual_keyboard_manager_v1` with a US layout, on a connection of its own.
///
/// Creating it gives the seat the keyboard capability; the window sway focuses gets the keys
/// ``type(_:modifiers:)`` presses (Linux input event codes).
package final class WaylandVirtualKeyboard: Sendable {
    private let socket: UnixSocket
    /// The virtual keyboard's id.
    private let keyboard: UInt32 = 6
    private let start = ContinuousClock.now
    /// The next id for a `sync` callback (ids are not reused, so no `delete_id` is waited for).
    private let nextCallback = SanitizedMutex<UInt32>(8)

    /// `KEY_C` and `KEY_V` in Linux's input event codes.
    package static let c: UInt32 = 46
    package static let v: UInt32 = 47
    /// The Control modifier's mask in the keymap (its third modifier).
    package static let control: UInt32 = 1 << 2

    /// Connects to the compositor at `socketPath`, binds its seat and virtual-keyboard manager, creates the keyboard
    /// and gives it a US keymap (written to `keymapFile`, whose descriptor the compositor maps).
    ///
    /// - Throws: ``XvfbError`` when the compositor has no virtual-keyboard manager or seat, or does not answer.
    package init(socketPath: String, keymapFile: URL) throws {
        do {
            socket = try UnixSocket.connect(toPath: socketPath)
        } catch {
            throw XvfbError(message: "cannot connect to \(socketPath): \(error.reason)")
        }
        try sendWayland(
            [
                WaylandMessage(objectID: 1, opcode: 1, arguments: [.newID(2)]),
                WaylandMessage(objectID: 1, opcode: 0, arguments: [.newID(3)]),
            ], on: socket)
        var globals: [String: UInt32] = [:]
        try readWayland(from: socket, until: 3) { frame in
            guard frame.objectID == 2, frame.opcode == 0 else { return }
            var none: [Int32] = []
            let arguments = try WaylandWire.decodeArguments(
                frame.body, signature: [.uint, .string(nullable: false), .uint], fds: &none)
            guard case .uint(let name) = arguments[0], case .string(let interface?) = arguments[1] else { return }
            globals[interface] = name
        }
        guard let seat = globals["wl_seat"], let manager = globals["zwp_virtual_keyboard_manager_v1"] else {
            throw XvfbError(message: "the compositor lacks wl_seat or zwp_virtual_keyboard_manager_v1: \(globals.keys)")
        }
        // The compositor compiles the keymap (resolving the includes) and hands its own text to the clients.
        let keymap =
            Data(
                """
                xkb_keymap {
                    xkb_keycodes { include "evdev+aliases(qwerty)" };
                    xkb_types { include "complete" };
                    xkb_compat { include "complete" };
                    xkb_symbols { include "pc+us+inet(evdev)" };
                };
                """.utf8) + Data([0])
        try keymap.write(to: keymapFile)
        let descriptor = try Syscall.openForReading(keymapFile.path)
        defer { Syscall.close(descriptor) }
        try sendWayland(
            [
                WaylandMessage(
                    objectID: 2, opcode: 0, arguments: [.uint(seat), .string("wl_seat"), .uint(1), .newID(4)]),
                WaylandMessage(
                    objectID: 2, opcode: 0,
                    arguments: [.uint(manager), .string("zwp_virtual_keyboard_manager_v1"), .uint(1), .newID(5)]),
                // create_virtual_keyboard(seat, id), then keymap(XKB_V1, fd, size)
                WaylandMessage(objectID: 5, opcode: 0, arguments: [.object(4), .newID(keyboard)]),
                WaylandMessage(
                    objectID: keyboard, opcode: 0,
                    arguments: [.uint(1), .fd(descriptor), .uint(UInt32(keymap.count))]),
                WaylandMessage(objectID: 1, opcode: 0, arguments: [.newID(7)]),
            ], on: socket)
        try readWayland(from: socket, until: 7) { _ in }
    }

    deinit {
        try? sendWayland([WaylandMessage(objectID: keyboard, opcode: 3)], on: socket)
        socket.close()
    }

    /// Presses and releases `key` with `modifiers` held, and waits until the compositor has handled it: the
    /// compositor takes a virtual keyboard's modifier state as the client says it, not from the keys.
    package func type(_ key: UInt32, modifiers: UInt32 = 0) throws {
        let time = UInt32(truncatingIfNeeded: (ContinuousClock.now - start).components.seconds * 1000)
        // modifiers(depressed, latched, locked, group), key(time, key, state)
        func modifiersMessage(_ depressed: UInt32) -> WaylandMessage {
            WaylandMessage(objectID: keyboard, opcode: 2, arguments: [.uint(depressed), .uint(0), .uint(0), .uint(0)])
        }
        func keyMessage(pressed: Bool) -> WaylandMessage {
            WaylandMessage(objectID: keyboard, opcode: 1, arguments: [.uint(time), .uint(key), .uint(pressed ? 1 : 0)])
        }
        let strokes = [modifiersMessage(modifiers), keyMessage(pressed: true), keyMessage(pressed: false)]
        let callback = nextCallback.withLock { next in
            defer { next += 1 }
            return next
        }
        let sync = WaylandMessage(objectID: 1, opcode: 0, arguments: [.newID(callback)])
        try sendWayland(strokes + [modifiersMessage(0), sync], on: socket)
        try readWayland(from: socket, until: callback) { _ in }
    }
}

extension WaylandVirtualPointer {
    /// Drags from `from` to `to` (points of the output): moves to `from` and, once `isPressable` holds, presses;
    /// moves on in 4-pixel steps until `hasStarted` holds (the source's drag began), then in eight steps to `to`,
    /// and on over `to` until `isOver` holds; then releases unless `release` is false. Every wait has a deadline.
    package func drag(
        from: (x: Int, y: Int), to: (x: Int, y: Int), isPressable: @escaping () async throws -> Bool,
        hasStarted: @escaping () async throws -> Bool, isOver: @escaping () async throws -> Bool, release: Bool = true
    ) async throws {
        try move(to: from)
        try await waitUntil("the pointer over the source window", isPressable)
        try press()
        var step = 0
        try await waitUntil("the source's drag") {
            step += 1
            try self.move(to: (from.x + 4 * min(step, 10), from.y))
            return try await hasStarted()
        }
        // The drag's grab follows the pointer: a few steps, so the target sees motion too.
        for index in 1...8 {
            let x: Int = from.x + (to.x - from.x) * index / 8
            let y: Int = from.y + (to.y - from.y) * index / 8
            try move(to: (x, y))
            try await Task.sleep(for: .milliseconds(10))
        }
        var wiggle = 0
        try await waitUntil("the drag over the target window") {
            wiggle += 1
            try self.move(to: (to.x + wiggle % 2, to.y))
            return try await isOver()
        }
        if release { try self.release() }
    }
}
