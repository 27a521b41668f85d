import Foundation
import Testing
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport

@testable import TransferDisplay

/// Drag and drop's part of the Wayland machine, without a compositor: binding, windows.
@Suite("Wayland state machine: drag and drop", .timeLimit(.minutes(5)))
struct WaylandDragAndDropStateTests {
    /// A machine bound for drag and drop to a compositor that announced `interfaces`, each at `version`.
    static func bound(
        _ interfaces: [String] = WaylandState.focusSurfaceInterfaces, version: UInt32 = 3
    ) throws(ClipboardError) -> (WaylandState, [WaylandState.Action]) {
        var machine = try WaylandState.announcing(interfaces, version: version)
        let actions = try machine.bindDragAndDrop(compositor: "test")
        return (machine, actions)
    }

    static func requests(_ actions: [WaylandState.Action]) -> [WaylandMessage] {
        WaylandFocusSurfaceStateTests.requests(actions)
    }

    @Test("Each missing global is named: protocolUnavailable", arguments: WaylandState.focusSurfaceInterfaces)
    func missingGlobal(_ missing: String) throws {
        let error = #expect(throws: ClipboardError.self) {
            _ = try Self.bound(WaylandState.focusSurfaceInterfaces.filter { $0 != missing })
        }
        #expect(error?.code == .protocolUnavailable)
        #expect(error?.message.contains("has no \(missing)") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("drag and drop") == true, "\(error?.message ?? "")")
    }

    @Test("wl_data_device_manager below version 3 has no drag actions: protocolUnavailable, naming the version")
    func oldManager() throws {
        let error = #expect(throws: ClipboardError.self) { _ = try Self.bound(version: 2) }
        #expect(error?.code == .protocolUnavailable)
        #expect(error?.message.contains("wl_data_device_manager v3 (it has v2)") == true, "\(error?.message ?? "")")
    }

    @Test("The manager is bound at version 3, no keyboard is asked for, and the clipboard is refused")
    func binding() throws {
        let (machine, actions) = try Self.bound()
        let binds = Self.requests(actions).filter { $0.objectID == machine.registry }
        #expect(
            binds.contains {
                $0.arguments.contains(.string("wl_data_device_manager")) && $0.arguments.contains(.uint(3))
            })
        #expect(
            !Self.requests(actions).contains { $0.objectID == machine.seat },
            "the pointer comes with the seat's capability")
        #expect(machine.isBoundForDragAndDrop)
        let refused = #expect(throws: ClipboardError.self) { try machine.checkSelection(.clipboard) }
        #expect(refused?.code == .protocolUnavailable)
    }

    @Test("The pointer is asked for once the seat has one, and only once")
    func pointerFromCapabilities() throws {
        var (machine, _) = try Self.bound()
        #expect(machine.handle(.dragAndDrop(.seatCapabilities(seat: machine.seat, 0)), live: true).isEmpty)
        let made = machine.handle(.dragAndDrop(.seatCapabilities(seat: machine.seat, 1)), live: true)
        let pointer = machine.dragAndDrop.pointer
        #expect(pointer != 0)
        #expect(
            Self.requests(made) == [WaylandMessage(objectID: machine.seat, opcode: 0, arguments: [.newID(pointer)])])
        #expect(machine.handle(.dragAndDrop(.seatCapabilities(seat: machine.seat, 3)), live: true).isEmpty)
    }

    @Test("A window is a titled toplevel with a buffer of its size; its first configure shows it, once")
    func window() throws {
        var (machine, _) = try Self.bound()
        let (window, surface, actions) = try machine.openWindow(title: "drops", bufferFD: 70, width: 320, height: 48)
        let messages = Self.requests(actions)
        #expect(messages.contains { $0.arguments.contains(.fd(70)) && $0.arguments.contains(.int(320 * 4 * 48)) })
        #expect(messages.contains { $0.arguments == [.string("drops")] })
        let state = try #require(machine.dragAndDrop.windows[window])
        #expect(state.toplevel.surface == surface)
        let configured = machine.handle(.configure(xdgSurface: state.toplevel.xdgSurface, serial: 5), live: true)
        #expect(configured.last == .dragAndDrop(.windowShown(window: window)))
        let again = machine.handle(.configure(xdgSurface: state.toplevel.xdgSurface, serial: 6), live: true)
        #expect(!again.contains(.dragAndDrop(.windowShown(window: window))))
        let closed = machine.closeWindow(window)
        #expect(closed.last == .dragAndDrop(.windowClosed(window: window)))
        #expect(Self.requests(closed).count == 4, "toplevel, xdg_surface, surface and buffer are destroyed")
    }

    @Test("A clipboard machine cannot open windows: protocolUnavailable")
    func windowNeedsTheBinding() throws {
        var (machine, _) = try WaylandFocusSurfaceStateTests.bound()
        let error = #expect(throws: ClipboardError.self) {
            _ = try machine.openWindow(title: "x", bufferFD: 70, width: 1, height: 1)
        }
        #expect(error?.code == .protocolUnavailable)
    }
}

extension WaylandState {
    /// A machine whose registry announced `interfaces`, each at `version`, and that has finished its first round
    /// trip: ready to bind.
    static func announcing(_ interfaces: [String], version: UInt32) throws(ClipboardError) -> WaylandState {
        var machine = WaylandState()
        _ = try machine.getRegistry()
        let (callback, _) = try machine.startRoundTrip()
        for (index, interface) in interfaces.enumerated() {
            _ = machine.handle(.global(name: UInt32(index + 1), interface: interface, version: version), live: true)
        }
        _ = machine.handle(.done(callback: callback), live: true)
        _ = machine.handle(.deleteID(callback), live: false)
        return machine
    }
}
