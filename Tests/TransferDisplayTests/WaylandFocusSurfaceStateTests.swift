import Testing
import TransferKitPlatform

@testable import TransferDisplay

/// The state machine's focus-surface fallback without a compositor: the surface's life, the focus serial, and the
/// `wl_data_device` requests that differ from data control's.
@Suite("Wayland state machine: the focus-surface fallback", .timeLimit(.minutes(5)))
struct WaylandFocusSurfaceStateTests {
    /// A machine bound for the fallback to a compositor that announced `interfaces` (all of them by default).
    static func bound(
        _ interfaces: [String] = WaylandState.focusSurfaceInterfaces
    ) throws(ClipboardError) -> (WaylandState, [WaylandState.Action]) {
        var machine = try WaylandState.announcing(interfaces, version: 3)
        let actions = try machine.bindDataDevice(compositor: "test")
        return (machine, actions)
    }

    /// The requests of `actions`, as (object, opcode) pairs.
    static func requests(_ actions: [WaylandState.Action]) -> [WaylandMessage] {
        actions.flatMap { action -> [WaylandMessage] in
            if case .send(let messages) = action { messages } else { [] }
        }
    }

    @Test("Binding needs every global; a compositor without a seat is protocolUnavailable, naming it")
    func missingSeat() throws {
        let error = #expect(throws: ClipboardError.self) {
            _ = try Self.bound(WaylandState.focusSurfaceInterfaces.filter { $0 != "wl_seat" })
        }
        #expect(error?.code == .protocolUnavailable)
        #expect(error?.message.contains("has no wl_seat") == true, "\(error?.message ?? "")")
    }

    @Test("Ids are used in the order they were made: the compositor refuses one past the next free id")
    func idsInOrder() throws {
        var (machine, actions) = try Self.bound()
        var newIDs = Self.requests(actions).flatMap { message in
            message.arguments.compactMap { argument -> UInt32? in if case .newID(let id) = argument { id } else { nil }
            }
        }
        let shown = try machine.showFocusSurface(bufferFD: 90)
        newIDs += Self.requests(shown).flatMap { message in
            message.arguments.compactMap { argument -> UInt32? in if case .newID(let id) = argument { id } else { nil }
            }
        }
        #expect(newIDs == newIDs.sorted() && Set(newIDs).count == newIDs.count, "\(newIDs)")
    }

    @Test("The surface is shown at its configure, focus gives the serial that set_selection uses, and it goes")
    func lifeOfTheSurface() throws {
        var (machine, _) = try Self.bound()
        let noFocus = #expect(throws: ClipboardError.self) { _ = try machine.own(.clipboard, targets: ["text/plain"]) }
        #expect(noFocus?.code == .protocolUnavailable)
        let shown = try machine.showFocusSurface(bufferFD: 90)
        #expect(Self.requests(shown).contains { $0.arguments.contains(.fd(90)) }, "the pixel's file goes out once")
        #expect(try machine.showFocusSurface(bufferFD: 91) == [.close(91)], "one surface at a time")
        let focus = try #require(machine.focusSurface)
        let configured = machine.handle(.configure(xdgSurface: focus.xdgSurface, serial: 7), live: true)
        #expect(
            Self.requests(configured) == [
                WaylandMessage(objectID: focus.xdgSurface, opcode: 4, arguments: [.uint(7)]),
                WaylandMessage(
                    objectID: focus.surface, opcode: 1, arguments: [.object(focus.buffer), .int(0), .int(0)]),
                WaylandMessage(objectID: focus.surface, opcode: 6),
            ])
        #expect(machine.handle(.keyboardEnter(serial: 42, surface: focus.surface + 100), live: true).isEmpty)
        #expect(machine.handle(.keyboardEnter(serial: 42, surface: focus.surface), live: true) == [.focusGained])
        #expect(machine.focusSerial == 42)
        let (source, owned) = try machine.own(.clipboard, targets: ["text/plain"])
        #expect(
            Self.requests(owned).last
                == WaylandMessage(objectID: machine.device, opcode: 1, arguments: [.object(source), .uint(42)]))
        let hidden = machine.hideFocusSurface()
        #expect(
            Self.requests(hidden).map(\.objectID) == [focus.toplevel, focus.xdgSurface, focus.surface, focus.buffer])
        #expect(machine.focusSurface == nil && machine.focusSerial == nil)
        // The source outlives the surface: the compositor's requests for it are served.
        #expect(
            machine.handle(.send(source: source, mimeType: "text/plain", fd: 93), live: true)
                == [.serve(source: source, mimeType: "text/plain", fd: 93)])
        // Released, it is destroyed (the compositor clears a selection whose source is gone).
        #expect(
            machine.release(source) == [
                .send([WaylandMessage(objectID: source, opcode: 1)]), .endOwnership(source: source),
            ])
    }

    @Test("Pings are answered, keymaps closed, and there is no primary selection")
    func chores() throws {
        var (machine, _) = try Self.bound()
        let pong = machine.handle(.ping(serial: 5), live: true)
        #expect(Self.requests(pong).first?.opcode == 3 && Self.requests(pong).first?.arguments == [.uint(5)])
        #expect(machine.handle(.keymap(fd: 94), live: true) == [.close(94)])
        #expect(machine.handle(.keymap(fd: 95), live: false) == [.close(95)])
        let primary = #expect(throws: ClipboardError.self) { try machine.checkSelection(.primary) }
        #expect(primary?.code == .protocolUnavailable)
    }
}
