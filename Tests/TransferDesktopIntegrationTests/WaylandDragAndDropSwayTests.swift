import Foundation
import Testing
import TransferDisplayTestSupport
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport

@testable import TransferClipboard
@testable import TransferDesktop
@testable import TransferDisplay

/// TransferKit's own windows and drags under headless sway.
@Suite(
    "Wayland drag and drop under headless sway", .timeLimit(.minutes(5)),
    .enabled(if: waylandToolsPresent, "needs sway, wl-clipboard and setpriv (Debian: sway, wl-clipboard, util-linux)"))
struct WaylandDragAndDropSwayTests {
    @Test("openWindow shows a titled toplevel that sway maps; close takes it away")
    func openWindow() async throws {
        let compositor = try await WaylandCompositor.start()
        defer { compositor.stop() }
        let backend = try await WaylandBackend.connectForDragAndDrop(
            environment: compositor.environment, timeout: waylandPatience)
        defer { backend.close() }
        #expect(backend.dragAndDropProtocolName == "Wayland (wl_data_device)")
        let title = uniqueWindowTitle("transferkit window")
        let window = try await backend.openWindow(title: title, lines: ["one", "two"])
        #expect(window.identifier.hasPrefix("wl_surface@"))
        try await window.show(lines: ["one", "two", "three"])
        let rect = try await compositor.waitForWindow(titled: title)
        #expect(rect.width > 0 && rect.height > 0)
        try await window.show(lines: ["one", "two", "three"])
        window.close()
        let deadline = ContinuousClock.now + .seconds(30)
        while try await compositor.windowRect(titled: title) != nil, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(try await compositor.windowRect(titled: title) == nil, "the closed window is gone")
    }

    @Test("makeDragAndDropBackend gives Wayland drag and drop under WAYLAND_DISPLAY, for .wayland and .automatic")
    func madeByTheChoice() async throws {
        let compositor = try await WaylandCompositor.start()
        defer { compositor.stop() }
        for choice in [ClipboardBackendChoice.wayland, .automatic] {
            let backend = try await makeDragAndDropBackend(
                choice: choice, environment: compositor.environment, timeout: waylandPatience)
            defer { backend.close() }
            #expect(backend.dragAndDropProtocolName == "Wayland (wl_data_device)")
            let title = uniqueWindowTitle("chosen")
            let window = try await backend.openWindow(title: title, lines: [])
            _ = try await compositor.waitForWindow(titled: title)
            window.close()
        }
    }

    @Test("Cancelling a drag that waits for a press ends it with cancelled; the window can drag again")
    func cancelWaitingDrag() async throws {
        let compositor = try await WaylandCompositor.start()
        defer { compositor.stop() }
        let backend = try await WaylandBackend.connectForDragAndDrop(
            environment: compositor.environment, timeout: waylandPatience)
        defer { backend.close() }
        let window = try await backend.openWindow(title: uniqueWindowTitle("cancelled"), lines: [])
        let offer = DesktopDragOffer(targets: ["text/plain"], actions: [.copy]) { _ in TransferByteStream(data: Data())
        }
        for _ in 0..<2 {
            let dragging = Task { try await window.drag(offer) }
            try await waitUntil("the window armed") {
                backend.dragAndDropState.windows.values.contains { $0.armed != nil }
            }
            dragging.cancel()
            let error = await #expect(throws: ClipboardError.self) { _ = try await dragging.value }
            #expect(error?.code == .cancelled)
            #expect(backend.dragAndDropState.windows.values.allSatisfy { $0.armed == nil })
        }
        let link = DesktopDragOffer(targets: ["text/plain"], actions: [.link]) { _ in TransferByteStream(data: Data()) }
        let refused = await #expect(throws: ClipboardError.self) { _ = try await window.drag(link) }
        #expect(refused?.code == .protocolUnavailable, "Wayland has no link action")
    }

    @Test("sway closing the window (xdg_toplevel.close) acts as the user closing it: the drag and the drops end")
    func compositorCloses() async throws {
        let compositor = try await WaylandCompositor.start()
        defer { compositor.stop() }
        let backend = try await WaylandBackend.connectForDragAndDrop(
            environment: compositor.environment, timeout: waylandPatience)
        defer { backend.close() }
        let title = uniqueWindowTitle("killed")
        let window = try await backend.openWindow(title: title, lines: [])
        _ = try await compositor.waitForWindow(titled: title)
        let drops = window.drops { _, _ in .copy }
        let watching = Task { () -> Int in
            var count = 0
            for try await _ in drops { count += 1 }
            return count
        }
        let offer = DesktopDragOffer(targets: ["text/plain"], actions: [.copy]) { _ in TransferByteStream(data: Data())
        }
        let dragging = Task { try await window.drag(offer) }
        try await waitUntil("the window armed") {
            backend.dragAndDropState.windows.values.contains { $0.armed != nil }
        }
        try await compositor.swaymsg(["[title=\"^\(title)$\"]", "kill"])
        #expect(try await dragging.value == .cancelled(reason: "the window was closed"))
        #expect(try await watching.value == 0, "the drops stream finished without an error")
        #expect(backend.dragAndDropState.windows.isEmpty)
        try await waitUntil("the window gone from sway") { try await compositor.windowRect(titled: title) == nil }
    }

    @Test("A clipboard-only compositor connection cannot open windows: protocolUnavailable")
    func dataControlCannotOpenWindows() async throws {
        let compositor = try await WaylandCompositor.start()
        defer { compositor.stop() }
        let backend = try await WaylandBackend.connect(environment: compositor.environment, timeout: waylandPatience)
        defer { backend.close() }
        let error = await #expect(throws: ClipboardError.self) {
            _ = try await backend.openWindow(title: uniqueWindowTitle("refused"), lines: [])
        }
        #expect(error?.code == .protocolUnavailable)
    }
}

/// Drags between two TransferKit connections under headless sway, driven by a virtual pointer.
@Suite(
    "Wayland drag and drop between TransferKit windows", .timeLimit(.minutes(5)),
    .enabled(if: waylandToolsPresent, "needs sway, wl-clipboard and setpriv (Debian: sway, wl-clipboard, util-linux)"))
struct WaylandDragBetweenWindowsTests {
    static let text = Data("a card, dragged".utf8)

    /// An offer of `text/plain` (and a TransferKit type) with `actions`, serving `bytes`.
    static func offer(_ actions: [DesktopDragAction], bytes: Data = text) -> DesktopDragOffer {
        DesktopDragOffer(targets: ["text/plain;charset=utf-8", "com.example.card"], actions: actions) { _ in
            TransferByteStream(data: bytes)
        }
    }

    /// Takes the first drop on the rig's target window: its bytes of `text/plain;charset=utf-8`, finishing with
    /// `perform` (the accepted action by default).
    static func takeFirstDrop(
        _ rig: WaylandDragRig, perform: DesktopDragAction? = nil,
        decide: @escaping @Sendable ([String], [DesktopDragAction]) -> DesktopDragAction?
    ) -> Task<(Data, any DesktopDropHandle), any Error> {
        let drops = rig.targetWindow.drops(decide: decide)
        return Task {
            for try await drop in drops {
                let bytes = try await collect(try await drop.receive("text/plain;charset=utf-8"))
                await drop.finish(performed: perform ?? drop.action)
                return (bytes, drop)
            }
            throw XvfbError(message: "the drops ended without one")
        }
    }

    @Test("Text dragged from one window to another arrives; the source sees a performed copy")
    func copyText() async throws {
        let rig = try await WaylandDragRig()
        let dropped = Self.takeFirstDrop(rig) { targets, actions in
            targets.contains("text/plain;charset=utf-8") && actions.contains(.copy) ? .copy : nil
        }
        let dragging = Task { try await rig.sourceWindow.drag(Self.offer([.copy, .move])) }
        try await rig.drag { rig.targetDecided }
        let (bytes, drop) = try await dropped.value
        #expect(bytes == Self.text)
        #expect(drop.targets == ["text/plain;charset=utf-8", "com.example.card"])
        #expect(drop.sourceActions == [.copy, .move])
        #expect(drop.action == .copy)
        #expect(drop.source == nil)
        let outcome = try await dragging.value
        #expect(outcome == .dropped(performed: .copy, target: "text/plain;charset=utf-8"))
    }

    @Test("A move is reported as performed only after the target finished with move")
    func move() async throws {
        let rig = try await WaylandDragRig()
        let dropped = Self.takeFirstDrop(rig) { _, actions in actions.contains(.move) ? .move : nil }
        let dragging = Task { try await rig.sourceWindow.drag(Self.offer([.copy, .move])) }
        try await rig.drag { rig.targetDecided }
        let (bytes, drop) = try await dropped.value
        #expect(bytes == Self.text && drop.action == .move)
        #expect(try await dragging.value == .dropped(performed: .move, target: "text/plain;charset=utf-8"))
    }

    @Test("A second drops() on a window takes over: the first stream ends, the second gets the next drop")
    func secondDropsTakesOver() async throws {
        let rig = try await WaylandDragRig()
        let first = rig.targetWindow.drops { _, _ in nil }
        let firstEnded = Task { () -> Int in
            var count = 0
            for try await _ in first { count += 1 }
            return count
        }
        let dropped = Self.takeFirstDrop(rig) { _, actions in actions.contains(.copy) ? .copy : nil }
        #expect(try await firstEnded.value == 0, "the first stream ended without a drop or an error")
        let dragging = Task { try await rig.sourceWindow.drag(Self.offer([.copy])) }
        try await rig.drag { rig.targetDecided }
        let (bytes, drop) = try await dropped.value
        #expect(bytes == Self.text && drop.action == .copy)
        #expect(try await dragging.value == .dropped(performed: .copy, target: "text/plain;charset=utf-8"))
    }

    @Test("A refused drop: decide says no, nothing is delivered, the source sees refused")
    func refused() async throws {
        let rig = try await WaylandDragRig()
        let asked = SanitizedMutex(0)
        let dropped = Self.takeFirstDrop(rig) { _, _ in
            asked.withLock { $0 += 1 }
            return nil
        }
        let dragging = Task { try await rig.sourceWindow.drag(Self.offer([.copy])) }
        try await rig.drag { rig.targetDecided }
        let outcome = try await dragging.value
        #expect(outcome == .refused(target: nil))
        #expect(asked.withLock { $0 } > 0, "decide was asked")
        let target = rig.target
        try await waitUntil("the drag's leave") { target.dragAndDropState.visit == nil }
        try await target.roundTrip()
        #expect(target.dragAndDropState.dropped.isEmpty, "nothing was delivered")
        dropped.cancel()
    }

    @Test("A decide that takes its time does not hold up the connection: a round trip ends meanwhile; then it counts")
    func slowDecide() async throws {
        let rig = try await WaylandDragRig()
        let asked = Latch<Void>()
        let answer = Latch<Void>()
        let dropped = Self.takeFirstDrop(rig) { _, actions in
            asked.open()
            // Blocks whatever runs decide until the test lets it answer (at most a minute: a guard, not a timing).
            _ = answer.block(until: .after(.seconds(60)))
            return actions.contains(.copy) ? .copy : nil
        }
        let dragging = Task { try await rig.sourceWindow.drag(Self.offer([.copy])) }
        let dragged = Task { try await rig.drag { rig.targetDecided } }
        _ = await asked.wait()
        // decide is waiting: the target's connection still answers (its reader thread is not the one waiting).
        try await rig.target.roundTrip()
        #expect(!rig.targetDecided, "decide has not answered yet")
        answer.open()
        try await dragged.value
        let (bytes, drop) = try await dropped.value
        #expect(bytes == Self.text && drop.action == .copy)
        #expect(try await dragging.value == .dropped(performed: .copy, target: "text/plain;charset=utf-8"))
    }

    @Test("A window that is not a drop target refuses at once, without a decide")
    func notATarget() async throws {
        let rig = try await WaylandDragRig()
        let dragging = Task { try await rig.sourceWindow.drag(Self.offer([.copy])) }
        try await rig.drag { rig.targetDecided }
        #expect(try await dragging.value == .refused(target: nil))
    }

    @Test("64 MiB dragged between the windows arrive whole and in order")
    func large() async throws {
        let rig = try await WaylandDragRig()
        let total = 64 << 20
        let offer = DesktopDragOffer(targets: ["application/octet-stream"], actions: [.copy]) { _ in
            TransferByteStream(length: UInt64(total), PatternChunks(total: total))
        }
        let drops = rig.targetWindow.drops { _, _ in .copy }
        let received = Task { try await firstPatternDrop(drops) }
        let dragging = Task { try await rig.sourceWindow.drag(offer) }
        try await rig.drag { rig.targetDecided }
        let (count, intact) = try await received.value
        #expect(count == total && intact)
        #expect(try await dragging.value == .dropped(performed: .copy, target: "application/octet-stream"))
    }

    @Test("A target that takes the drop and never finishes: the source's drag fails with timedOut at its time limit")
    func targetNeverFinishes() async throws {
        // The source's time limit is short, so the test ends soon; it is the deadline under test, not a speed.
        let rig = try await WaylandDragRig(sourceTimeout: .seconds(5))
        let drops = rig.targetWindow.drops { _, _ in .move }
        let held = Task { () -> (any DesktopDropHandle)? in
            for try await drop in drops {
                _ = try await collect(try await drop.receive("text/plain;charset=utf-8"))
                return drop  // kept, never finished
            }
            return nil
        }
        let dragging = Task { try await rig.sourceWindow.drag(Self.offer([.move])) }
        try await rig.drag { rig.targetDecided }
        let error = await #expect(throws: ClipboardError.self) { _ = try await dragging.value }
        #expect(error?.code == .timedOut, "\(String(describing: error))")
        let drop = try await held.value
        await drop?.finish(performed: .move)
    }

    @Test("A source that never sends the data: the target's read fails with timedOut at its time limit")
    func sourceNeverSends() async throws {
        // The target's time limit is short, so the test ends soon; it is the deadline under test, not a speed.
        let rig = try await WaylandDragRig(targetTimeout: .seconds(5))
        let (silent, silence) = AsyncStream<Data>.makeStream()
        defer { silence.finish() }
        let offer = DesktopDragOffer(targets: ["text/plain;charset=utf-8"], actions: [.copy]) { _ in
            TransferByteStream(silent)
        }
        let drops = rig.targetWindow.drops { _, _ in .copy }
        let reading = Task { () -> ClipboardError? in
            for try await drop in drops {
                defer { Task { await drop.finish(performed: nil) } }
                do {
                    _ = try await collect(try await drop.receive("text/plain;charset=utf-8"))
                    return nil
                } catch let error as ClipboardError {
                    return error
                }
            }
            return nil
        }
        let dragging = Task { try await rig.sourceWindow.drag(offer) }
        try await rig.drag { rig.targetDecided }
        let error = try await reading.value
        #expect(error?.code == .timedOut, "\(String(describing: error))")
        #expect(error?.message.hasPrefix("The drag's source sent no bytes") == true, "\(String(describing: error))")
        silence.finish()
        _ = try? await dragging.value
    }

    @Test("The target dies mid-transfer: the source's drag ends cancelled, not dropped")
    func targetDies() async throws {
        let rig = try await WaylandDragRig()
        let offer = DesktopDragOffer(targets: ["text/plain;charset=utf-8"], actions: [.copy, .move]) { _ in
            TransferByteStream(EndlessChunks(onStop: {}))
        }
        let drops = rig.targetWindow.drops { _, _ in .move }
        let target = rig.target
        let reading = Task {
            for try await drop in drops {
                var count = 0
                for try await chunk in try await drop.receive("text/plain;charset=utf-8") {
                    count += chunk.count
                    // Some bytes came: the target dies without finishing.
                    if count > 1 << 20 {
                        target.close()
                        return
                    }
                }
            }
        }
        let dragging = Task { try await rig.sourceWindow.drag(offer) }
        try await rig.drag { rig.targetDecided }
        let outcome = try await dragging.value
        guard case .cancelled = outcome else {
            Issue.record("the source saw \(outcome), not cancelled")
            return
        }
        reading.cancel()
    }

    @Test("The source dies mid-drag: the drag leaves the target window and no drop is delivered")
    func sourceDies() async throws {
        let rig = try await WaylandDragRig()
        let delivered = SanitizedMutex(0)
        let drops = rig.targetWindow.drops { _, _ in .copy }
        let watching = Task {
            for try await _ in drops { delivered.withLock { $0 += 1 } }
        }
        let dragging = Task { try await rig.sourceWindow.drag(Self.offer([.copy])) }
        try await rig.drag(release: false) { rig.targetDecided }
        rig.source.close()
        let error = await #expect(throws: ClipboardError.self) { _ = try await dragging.value }
        #expect(error?.code == .cancelled)
        let target = rig.target
        try await waitUntil("the drag's leave") { target.dragAndDropState.visit == nil }
        try rig.pointer.release()
        try rig.pointer.sync()
        try await target.roundTrip()
        #expect(delivered.withLock { $0 } == 0)
        watching.cancel()
    }
}
