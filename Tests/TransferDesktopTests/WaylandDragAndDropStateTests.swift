import Foundation
import Testing
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport

@testable import TransferDesktop
@testable import TransferDisplay

/// Drag and drop's part of the Wayland machine, without a compositor: binding, windows.
@Suite("Wayland state machine: drag and drop", .timeLimit(.minutes(5)))
struct WaylandDragAndDropStateTests {
    /// A core bound for drag and drop to a compositor that announced `interfaces`, each at `version`, and drag and
    /// drop's machine, its subscriber.
    static func bound(
        _ interfaces: [String] = WaylandState.focusSurfaceInterfaces, version: UInt32 = 3
    ) throws(ClipboardError) -> (WaylandState, WaylandDragAndDropState, [WaylandDragAndDropAction]) {
        var machine = try WaylandState.announcing(interfaces, version: version)
        var dnd = WaylandDragAndDropState()
        let actions = try dnd.bind(compositor: "test", core: &machine)
        return (machine, dnd, actions)
    }

    /// The requests among drag and drop's actions, in order.
    static func requests(_ actions: [WaylandDragAndDropAction]) -> [WaylandMessage] {
        actions.flatMap { action -> [WaylandMessage] in
            if case .display(.send(let messages)) = action { messages } else { [] }
        }
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
        let (machine, _, actions) = try Self.bound()
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
        var (machine, dnd, _) = try Self.bound()
        let seat = machine.seat
        #expect(dnd.feed(.dragAndDrop(.seatCapabilities(seat: seat, 0)), from: seat, core: &machine).isEmpty)
        let made = dnd.feed(.dragAndDrop(.seatCapabilities(seat: seat, 1)), from: seat, core: &machine)
        let pointer = dnd.pointer
        #expect(pointer != 0)
        #expect(machine.routed.contains(pointer))
        #expect(Self.requests(made) == [WaylandMessage(objectID: seat, opcode: 0, arguments: [.newID(pointer)])])
        #expect(dnd.feed(.dragAndDrop(.seatCapabilities(seat: seat, 3)), from: seat, core: &machine).isEmpty)
    }

    @Test("A window is a titled toplevel with a buffer of its size; its first configure shows it, once")
    func window() throws {
        var (machine, dnd, _) = try Self.bound()
        let (window, surface, actions) = try dnd.openWindow(
            title: "drops", bufferFD: 70, width: 320, height: 48, core: &machine)
        let messages = Self.requests(actions)
        #expect(messages.contains { $0.arguments.contains(.fd(70)) && $0.arguments.contains(.int(320 * 4 * 48)) })
        #expect(messages.contains { $0.arguments == [.string("drops")] })
        let state = try #require(dnd.windows[window])
        #expect(state.toplevel.surface == surface)
        let xdgSurface = state.toplevel.xdgSurface
        let configured = dnd.feed(.configure(xdgSurface: xdgSurface, serial: 5), from: xdgSurface, core: &machine)
        #expect(configured.last == .windowShown(window: window))
        let again = dnd.feed(.configure(xdgSurface: xdgSurface, serial: 6), from: xdgSurface, core: &machine)
        #expect(!again.contains(.windowShown(window: window)))
        let closed = dnd.closeWindow(window, core: &machine)
        #expect(closed.last == .windowClosed(window: window))
        #expect(!machine.routed.contains(xdgSurface), "a closed window's objects are no longer routed")
        #expect(Self.requests(closed).count == 4, "toplevel, xdg_surface, surface and buffer are destroyed")
    }

    @Test("Told of the connection's end, the machine ends its waits once, however often it is told")
    func endOnce() throws {
        var (machine, dnd, _) = try Self.bound()
        let error = ClipboardError(code: .cancelled, message: "closed")
        let failed = machine.fail(error)
        #expect(failed.contains(.endSubscription(error)), "the core tells the subscriber it bound")
        #expect(dnd.connectionEnded(error, core: &machine) == [.endWaits])
        #expect(dnd.connectionEnded(error, core: &machine).isEmpty)
    }

    @Test("A clipboard machine cannot open windows: protocolUnavailable")
    func windowNeedsTheBinding() throws {
        var machine = try WaylandState.announcing(WaylandState.focusSurfaceInterfaces, version: 1)
        _ = try machine.bindDataDevice(compositor: "test")
        var dnd = WaylandDragAndDropState()
        let error = #expect(throws: ClipboardError.self) {
            _ = try dnd.openWindow(title: "x", bufferFD: 70, width: 1, height: 1, core: &machine)
        }
        #expect(error?.code == .protocolUnavailable)
    }
}

extension WaylandDragAndDropState {
    /// Feeds `event` from `object` to `core` and each event it routes to this machine, as the shell does: the
    /// core's own actions come back as ``WaylandDragAndDropAction/display(_:)``, in order.
    mutating func feed(
        _ event: WaylandEvent, from object: UInt32, core: inout WaylandState
    ) -> [WaylandDragAndDropAction] {
        var actions: [WaylandDragAndDropAction] = []
        for action in core.handle(event, from: object, live: true) {
            switch action {
            case .route(let routed): actions += receive(routed, core: &core)
            case .endSubscription(let error): actions += connectionEnded(error, core: &core)
            default: actions.append(.display(action))
            }
        }
        return actions
    }
}
