import Foundation
import Testing
import TransferKitTestSupport

@testable import TransferDesktop
@testable import TransferDisplay

/// XDND's client messages: exact items each way, and a decoder that takes any 20 bytes.
@Suite("XDND client-message codec", .timeLimit(.minutes(5)))
struct XdndMessageTests {
    /// Atoms as a server might number them (any distinct non-zero values do).
    static let atoms = XdndAtoms(interned: Array(300..<310))
    /// `XdndActionCopy` and `XdndActionMove` among ``atoms``.
    static let (copy, move): (X11.ID, X11.ID) = (306, 307)

    /// The 20 data bytes of `items`, little-endian.
    static func bytes(_ items: [UInt32]) -> [UInt8] {
        items.flatMap { item in (0..<4).map { UInt8(truncatingIfNeeded: item >> ($0 * 8)) } }
    }

    static let cases: [(XdndMessage, X11.ID, [UInt32])] = [
        (
            .enter(source: 0x20_0001, version: 5, hasMoreTypes: false, types: [41, 42]), 300,
            [0x20_0001, 0x0500_0000, 41, 42, 0]
        ),
        (
            .enter(source: 0x20_0001, version: 5, hasMoreTypes: true, types: [41, 42, 43]), 300,
            [0x20_0001, 0x0500_0001, 41, 42, 43]
        ),
        (
            .position(source: 7, rootX: 300, rootY: 20, time: 123_456, action: 306), 301,
            [7, 0, 300 << 16 | 20, 123_456, 306]
        ),
        (
            .position(source: 7, rootX: -2, rootY: -1, time: 0, action: 307), 301,
            [7, 0, 0xFFFE_FFFF, 0, 307]
        ),
        (
            .status(
                target: 9, accepts: true, wantsPositions: true,
                rectangle: XdndRectangle(x: 10, y: 20, width: 240, height: 120), action: 306), 302,
            [9, 3, 10 << 16 | 20, 240 << 16 | 120, 306]
        ),
        (
            .status(target: 9, accepts: false, wantsPositions: false, rectangle: .empty, action: 0), 302,
            [9, 0, 0, 0, 0]
        ),
        (.leave(source: 7), 303, [7, 0, 0, 0, 0]),
        (.drop(source: 7, time: 99), 304, [7, 0, 99, 0, 0]),
        (.finished(target: 9, succeeded: true, action: 307), 305, [9, 1, 307, 0, 0]),
        (.finished(target: 9, succeeded: false, action: 0), 305, [9, 0, 0, 0, 0]),
    ]

    @Test("Each message has its exact items and decodes back to itself", arguments: cases)
    func exactItems(message: XdndMessage, type: X11.ID, items: [UInt32]) {
        let encoded = message.encode(atoms: Self.atoms)
        #expect(encoded.type == type)
        #expect(encoded.items == items)
        #expect(XdndMessage.decode(type: type, data: Self.bytes(items), atoms: Self.atoms) == message)
    }

    @Test("Reserved bits and unused items are ignored; a later version is reported as sent")
    func lenientDecoding() {
        let enter = XdndMessage.decode(
            type: 300, data: Self.bytes([5, 0x07FF_FFFE, 0, 44, 0]), atoms: Self.atoms)
        #expect(enter == .enter(source: 5, version: 7, hasMoreTypes: false, types: [44]))
        let leave = XdndMessage.decode(type: 303, data: Self.bytes([5, 0xFFFF_FFFF, 1, 2, 3]), atoms: Self.atoms)
        #expect(leave == .leave(source: 5))
        let finished = XdndMessage.decode(
            type: 305, data: Self.bytes([5, 0xFFFF_FFFE, 306, 0, 0]), atoms: Self.atoms)
        #expect(finished == .finished(target: 5, succeeded: false, action: 306))
    }

    @Test("Another type, None, or data of the wrong length is no message")
    func notMessages() {
        let data = Self.bytes([1, 2, 3, 4, 5])
        #expect(XdndMessage.decode(type: 299, data: data, atoms: Self.atoms) == nil)
        #expect(XdndMessage.decode(type: X11.none, data: data, atoms: XdndAtoms(interned: [])) == nil)
        #expect(XdndMessage.decode(type: 300, data: data.dropLast(), atoms: Self.atoms) == nil)
        #expect(XdndMessage.decode(type: 300, data: data + [0], atoms: Self.atoms) == nil)
        #expect(XdndMessage.decode(type: 300, data: [UInt8](), atoms: Self.atoms) == nil)
    }

    @Test("Random types and bytes decode without trapping, and what decodes encodes to the same items")
    func randomInput() {
        var random = SplitMix64(state: 23)
        for _ in 0..<20_000 {
            let type = X11.ID(298 + random.next() % 10)
            let count = random.next() % 8 == 0 ? Int(random.next() % 40) : 20
            let data = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            guard let message = XdndMessage.decode(type: type, data: data, atoms: Self.atoms) else { continue }
            let encoded = message.encode(atoms: Self.atoms)
            #expect(encoded.type == type)
            #expect(XdndMessage.decode(type: type, data: Self.bytes(encoded.items), atoms: Self.atoms) == message)
        }
    }

    @Test("Action atoms name the four actions; None and other atoms name none")
    func actions() {
        for action in DesktopDragAction.allCases {
            #expect(Self.atoms.action(for: Self.atoms.atom(for: action)) == action)
        }
        #expect(Self.atoms.atom(for: .copy) == 306)
        #expect(Self.atoms.atom(for: .ask) == 309)
        #expect(Self.atoms.action(for: X11.none) == nil)
        #expect(Self.atoms.action(for: 310) == nil)
        #expect(XdndAtoms.names.count == 10)
    }

    @Test("A ClientMessage event decodes with its window, format, type and data")
    func clientMessageEvent() {
        var event = [UInt8](repeating: 0, count: 32)
        event[0] = 33 | 0x80  // sent by a client
        event[1] = 32
        event.replaceSubrange(4..<8, with: Self.bytes([0x40_0001]).prefix(4))
        event.replaceSubrange(8..<12, with: Self.bytes([301]).prefix(4))
        let items: [UInt32] = [7, 0, 300 << 16 | 20, 55, 306]
        event.replaceSubrange(12..<32, with: Self.bytes(items))
        let decoded = X11Event(decoding: X11Bytes(event), xfixesFirstEvent: nil)
        #expect(decoded == .clientMessage(window: 0x40_0001, format: 32, type: 301, data: Self.bytes(items)))
        // The request that sends it carries the same 32 bytes after SendEvent's 12-byte header (propagate off).
        let request = XdndMessage.position(source: 7, rootX: 300, rootY: 20, time: 55, action: 306)
            .request(to: 0x40_0001, atoms: Self.atoms)
        #expect(request.count == 44)
        #expect(Array(request[12...]) == [33] + event[1...])
    }

    @Test("Pointer, key and expose events decode their fields")
    func inputEvents() {
        var press = [UInt8](repeating: 0, count: 32)
        press[0] = 4
        press[1] = 1
        press.replaceSubrange(4..<8, with: Self.bytes([1000]).prefix(4))
        press.replaceSubrange(12..<16, with: Self.bytes([0x40_0001]).prefix(4))
        press.replaceSubrange(20..<28, with: [0x2C, 0x01, 0xFE, 0xFF, 5, 0, 6, 0])
        #expect(
            X11Event(decoding: X11Bytes(press), xfixesFirstEvent: nil)
                == .pointer(
                    X11PointerEvent(
                        kind: .press, button: 1, window: 0x40_0001, time: 1000, rootX: 300, rootY: -2, x: 5, y: 6,
                        state: 0)))
        var expose = [UInt8](repeating: 0, count: 32)
        expose[0] = 12
        expose.replaceSubrange(4..<8, with: Self.bytes([0x40_0001]).prefix(4))
        expose[16] = 2
        #expect(X11Event(decoding: X11Bytes(expose), xfixesFirstEvent: nil) == .expose(window: 0x40_0001, count: 2))
        var key = [UInt8](repeating: 0, count: 32)
        key[0] = 2
        key[1] = 9
        key.replaceSubrange(12..<16, with: Self.bytes([0x40_0001]).prefix(4))
        #expect(
            X11Event(decoding: X11Bytes(key), xfixesFirstEvent: nil)
                == .keyPress(window: 0x40_0001, keycode: 9, time: 0))
    }

    @Test(
        "A pointer or key event a client sent (SendEvent) is not input: no client fakes a release or an Escape",
        arguments: [(UInt8(2), UInt8(9)), (4, 1), (5, 1), (6, 0)])
    func sentInputIsIgnored(code: UInt8, detail: UInt8) {
        var event = [UInt8](repeating: 0, count: 32)
        event[0] = code | 0x80
        event[1] = detail
        event.replaceSubrange(12..<16, with: Self.bytes([0x40_0001]).prefix(4))
        #expect(X11Event(decoding: X11Bytes(event), xfixesFirstEvent: nil) == .other(code: code))
        event[0] = code
        #expect(X11Event(decoding: X11Bytes(event), xfixesFirstEvent: nil) != .other(code: code))
    }
}
