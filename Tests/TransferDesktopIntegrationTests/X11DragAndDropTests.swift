import Foundation
import Testing
import TransferDisplayTestSupport
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport

@testable import TransferClipboard
@testable import TransferDesktop
@testable import TransferDisplay

/// Drags between TransferKit's own X11 windows on two connections (as two processes would), with a real pointer
/// under a private Xvfb.
@Suite(
    "X11 drag and drop between TransferKit windows", .serialized, .timeLimit(.minutes(5)),
    .enabled(if: xdndToolsPresent, "needs Xvfb, xclip and xdotool (Debian: xvfb, xclip, xdotool)"))
final class X11DragAndDropTests {
    let server: XvfbServer
    var pointer: PointerDriver { PointerDriver(environment: server.environment) }

    /// The source window's place (its size is 240 × 120) and the target's.
    static let sourceOrigin: (Int16, Int16) = (0, 0)
    static let targetOrigin: (Int16, Int16) = (400, 100)
    /// From inside the source to inside the target, and to where no window is.
    static let start = ScreenPoint(x: 50, y: 50)
    static let end = ScreenPoint(x: 470, y: 160)
    static let nowhere = ScreenPoint(x: 700, y: 500)

    init() async throws {
        server = try await XvfbServer.start(screen: "1024x768x24")
    }

    deinit {
        server.stop()
    }

    /// A source window and a target window, each on a connection of its own.
    struct Pair {
        let sourceBackend: X11Backend
        let targetBackend: X11Backend
        let source: X11DesktopWindow
        let target: X11DesktopWindow

        func close() {
            sourceBackend.close()
            targetBackend.close()
        }
    }

    func openPair() async throws -> Pair {
        let sourceBackend = try await connect()
        do {
            let targetBackend = try await connect()
            do {
                return Pair(
                    sourceBackend: sourceBackend, targetBackend: targetBackend,
                    source: try await openSource(on: sourceBackend), target: try await openTarget(on: targetBackend))
            } catch {
                targetBackend.close()
                throw error
            }
        } catch {
            sourceBackend.close()
            throw error
        }
    }

    func connect(timeout: Duration = patience) async throws -> X11Backend {
        try await X11Backend.connect(environment: server.environment, timeout: timeout)
    }

    func openSource(on backend: X11Backend) async throws -> X11DesktopWindow {
        try await backend.openDesktopWindow(
            title: "xdnd source \(UUID().uuidString.prefix(8))", lines: ["drag me"], x: Self.sourceOrigin.0,
            y: Self.sourceOrigin.1)
    }

    func openTarget(on backend: X11Backend) async throws -> X11DesktopWindow {
        try await backend.openDesktopWindow(
            title: "xdnd target \(UUID().uuidString.prefix(8))", lines: ["drop here"], x: Self.targetOrigin.0,
            y: Self.targetOrigin.1)
    }

    /// Starts `window`'s drag of `offer` and waits (at most 30 s) until it waits for the press.
    func startDrag(
        _ offer: DesktopDragOffer, from window: X11DesktopWindow
    ) async throws -> Task<DesktopDragOutcome, any Error> {
        let ended = SanitizedMutex(false)
        let drag = Task {
            defer { ended.withLock { $0 = true } }
            return try await window.drag(offer)
        }
        let deadline = ContinuousClock.now + .seconds(30)
        while window.state.withLock({ $0.drag == nil }) {
            // A drag that ended before it waited for the press says why.
            if ended.withLock({ $0 }) { _ = try await drag.value }
            guard ContinuousClock.now < deadline else { throw XvfbError(message: "the drag never started") }
            try await Task.sleep(for: .milliseconds(10))
        }
        return drag
    }

    static func textOffer(
        _ text: String, targets: [String] = ["text/plain;charset=utf-8", "UTF8_STRING"],
        actions: [DesktopDragAction] = [.move, .copy], served: CallCounter? = nil
    ) -> DesktopDragOffer {
        DesktopDragOffer(targets: targets, actions: actions) { target in
            served?.hit(target)
            return TransferByteStream(data: Data("\(text) as \(target)".utf8))
        }
    }

    static func read(_ stream: TransferByteStream) async throws -> Data {
        var data = Data()
        for try await chunk in stream { data.append(chunk) }
        return data
    }

    @Test("A small text moves: the target reads it, and the source learns the performed move")
    func smallTextMove() async throws {
        let pair = try await openPair()
        defer { pair.close() }
        let (source, target) = (pair.source, pair.target)
        let asked = SanitizedMutex<[[DesktopDragAction]]>([])
        let drops = target.drops { _, actions in
            asked.withLock { $0.append(actions) }
            return actions.first
        }
        let served = CallCounter()
        let drag = try await startDrag(Self.textOffer("hello", served: served), from: source)
        try await pointer.drag(from: Self.start, to: Self.end)

        var iterator = drops.makeAsyncIterator()
        let drop = try #require(try await iterator.next())
        #expect(drop.targets == ["text/plain;charset=utf-8", "UTF8_STRING"])
        #expect(drop.sourceActions == [.move, .copy])
        #expect(drop.action == .move)
        #expect(drop.location == DesktopPoint(x: 70, y: 60))
        #expect(drop.source == source.identifier)
        let text = try await Self.read(try await drop.receive("text/plain;charset=utf-8"))
        #expect(String(decoding: text, as: UTF8.self) == "hello as text/plain;charset=utf-8")
        let missing = await #expect(throws: ClipboardError.self) { try await drop.receive("image/png") }
        #expect(missing?.code == .typeUnavailable)
        await drop.finish(performed: .move)

        #expect(try await drag.value == .dropped(performed: .move, target: target.identifier))
        // Only the representation read was served.
        #expect(served.count("text/plain;charset=utf-8") == 1)
        #expect(served.count("UTF8_STRING") == 0)
        #expect(asked.withLock { $0.allSatisfy { $0 == [.move, .copy] } })
    }

    @Test("A target that chooses copy makes the outcome a copy, whatever the source proposed first")
    func copyOutcome() async throws {
        let pair = try await openPair()
        defer { pair.close() }
        let (source, target) = (pair.source, pair.target)
        let drops = target.drops { _, actions in actions.contains(.copy) ? .copy : nil }
        let drag = try await startDrag(Self.textOffer("copied"), from: source)
        try await pointer.drag(from: Self.start, to: Self.end)
        var iterator = drops.makeAsyncIterator()
        let drop = try #require(try await iterator.next())
        #expect(drop.action == .copy)
        _ = try await Self.read(try await drop.receive("UTF8_STRING"))
        await drop.finish(performed: .copy)
        #expect(try await drag.value == .dropped(performed: .copy, target: target.identifier))
    }

    /// Waits (at most a minute) until `window` remembers a press made while no drag waited, or no longer does.
    func waitUntil(_ window: X11DesktopWindow, remembersAPress: Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while window.state.withLock({ ($0.pressWithoutDrag != nil) != remembersAPress }) {
            guard ContinuousClock.now < deadline else {
                throw XvfbError(
                    message: remembersAPress ? "the press never reached the window" : "the release never did")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    @Test("A press on the window before drag() is called begins the drag while its button is still down")
    func pressBeforeDrag() async throws {
        let pair = try await openPair()
        defer { pair.close() }
        let (source, target) = (pair.source, pair.target)
        let drops = target.drops { _, actions in actions.contains(.copy) ? .copy : nil }
        try await pointer.press(at: Self.start)
        // The window has seen the press before the drag exists.
        try await waitUntil(source, remembersAPress: true)
        let drag = try await startDrag(Self.textOffer("pressed first"), from: source)
        for step in 1...4 {
            try await pointer.move(
                to: ScreenPoint(
                    x: Self.start.x + (Self.end.x - Self.start.x) * step / 4,
                    y: Self.start.y + (Self.end.y - Self.start.y) * step / 4))
            try await Task.sleep(for: .milliseconds(100))
        }
        try await pointer.move(to: Self.end)
        try await Task.sleep(for: .milliseconds(100))
        try await pointer.release()
        // A drag that missed the press still waits for one: closing the source after a minute ends it (cancelled),
        // and the target's stream with the pair.
        let watchdog = Task {
            try await Task.sleep(for: .seconds(60))
            source.close()
            target.close()
        }
        defer { watchdog.cancel() }
        var iterator = drops.makeAsyncIterator()
        if let drop = try await iterator.next() {
            let text = try await Self.read(try await drop.receive("UTF8_STRING"))
            #expect(String(decoding: text, as: UTF8.self) == "pressed first as UTF8_STRING")
            await drop.finish(performed: .copy)
        }
        #expect(try await drag.value == .dropped(performed: .copy, target: target.identifier))
        #expect(source.state.withLock { $0.pressWithoutDrag == nil })
    }

    @Test("A release ends what a press before drag() began: a drag started after it waits for a new press")
    func releaseForgetsThePress() async throws {
        let pair = try await openPair()
        defer { pair.close() }
        let source = pair.source
        try await pointer.press(at: Self.start)
        try await waitUntil(source, remembersAPress: true)
        try await pointer.release()
        try await waitUntil(source, remembersAPress: false)
        let drag = try await startDrag(Self.textOffer("never"), from: source)
        // Motion alone, with no button down, starts nothing: closing the window cancels the waiting drag.
        try await pointer.move(to: Self.end)
        try await Task.sleep(for: .milliseconds(300))
        source.close()
        #expect(try await drag.value == .cancelled(reason: "the window was closed"))
    }

    @Test("More than three types travel in XdndTypeList, all of them in the source's order")
    func manyTypes() async throws {
        let pair = try await openPair()
        defer { pair.close() }
        let (source, target) = (pair.source, pair.target)
        let offered = ["com.example.card", "application/json", "text/html", "text/plain;charset=utf-8", "UTF8_STRING"]
        let seen = SanitizedMutex<[String]>([])
        let drops = target.drops { targets, _ in
            seen.withLock { $0 = targets }
            return .copy
        }
        let drag = try await startDrag(Self.textOffer("{}", targets: offered, actions: [.copy]), from: source)
        try await pointer.drag(from: Self.start, to: Self.end)
        var iterator = drops.makeAsyncIterator()
        let drop = try #require(try await iterator.next())
        #expect(drop.targets == offered)
        #expect(seen.withLock { $0 } == offered)
        let last = try await Self.read(try await drop.receive("UTF8_STRING"))
        #expect(String(decoding: last, as: UTF8.self) == "{} as UTF8_STRING")
        await drop.finish(performed: .copy)
        #expect(try await drag.value == .dropped(performed: .copy, target: target.identifier))
    }

    @Test("64 MiB arrive whole through INCR")
    func large() async throws {
        let pair = try await openPair()
        defer { pair.close() }
        let (source, target) = (pair.source, pair.target)
        let drops = target.drops { _, _ in .copy }
        let total = 64 << 20
        let offer = DesktopDragOffer(targets: ["application/octet-stream"], actions: [.copy]) { _ in
            TransferByteStream(length: UInt64(total), PatternChunks(total: total))
        }
        let drag = try await startDrag(offer, from: source)
        try await pointer.drag(from: Self.start, to: Self.end)
        var iterator = drops.makeAsyncIterator()
        let drop = try #require(try await iterator.next())
        var received = 0
        var intact = true
        for try await chunk in try await drop.receive("application/octet-stream") {
            intact = intact && chunk == PatternChunks.chunk(at: received, count: chunk.count)
            received += chunk.count
        }
        #expect(received == total)
        #expect(intact)
        await drop.finish(performed: .copy)
        #expect(try await drag.value == .dropped(performed: .copy, target: target.identifier))
    }

    @Test("A refused drop leaves the target, reports .refused, and delivers nothing")
    func refused() async throws {
        let pair = try await openPair()
        defer { pair.close() }
        let (source, target) = (pair.source, pair.target)
        let asked = CallCounter()
        let drops = target.drops { _, _ in
            asked.hit("decide")
            return nil
        }
        let served = CallCounter()
        let drag = try await startDrag(Self.textOffer("no", served: served), from: source)
        try await pointer.drag(from: Self.start, to: Self.end)
        #expect(try await drag.value == .refused(target: target.identifier))
        #expect(asked.count("decide") >= 1)
        #expect(served.count("text/plain;charset=utf-8") + served.count("UTF8_STRING") == 0)
        // Nothing was delivered: closing the window ends the stream empty.
        target.close()
        var iterator = drops.makeAsyncIterator()
        #expect(try await iterator.next() == nil)
    }

    @Test("A release over no drop target is refused without a target")
    func releasedOverNothing() async throws {
        let sourceBackend = try await connect()
        defer { sourceBackend.close() }
        let source = try await openSource(on: sourceBackend)
        let drag = try await startDrag(Self.textOffer("nowhere"), from: source)
        try await pointer.drag(from: Self.start, to: Self.nowhere)
        #expect(try await drag.value == .refused(target: nil))
    }

    @Test("A target that dies mid-transfer cancels the drag at once; the source's window stays usable")
    func targetDiesMidTransfer() async throws {
        let pair = try await openPair()
        defer { pair.sourceBackend.close() }
        let (source, target, targetBackend) = (pair.source, pair.target, pair.targetBackend)
        let drops = target.drops { _, _ in .copy }
        let offer = DesktopDragOffer(targets: ["application/octet-stream"], actions: [.copy]) { _ in
            TransferByteStream(length: nil, EndlessChunks(onStop: {}))
        }
        let drag = try await startDrag(offer, from: source)
        try await pointer.drag(from: Self.start, to: Self.end)
        var iterator = drops.makeAsyncIterator()
        let drop = try #require(try await iterator.next())
        var chunks = try await drop.receive("application/octet-stream").makeAsyncIterator()
        _ = try await chunks.next()
        targetBackend.close()
        let outcome = try await drag.value
        guard case .cancelled = outcome else {
            Issue.record("the source's outcome was \(outcome), not cancelled")
            return
        }
        // The window drags again.
        let again = try await startDrag(Self.textOffer("again"), from: source)
        try await pointer.drag(from: Self.start, to: Self.nowhere)
        #expect(try await again.value == .refused(target: nil))
    }

    @Test("A source killed mid-drag leaves the target's window and stream working for the next drag")
    func sourceDiesMidDrag() async throws {
        let targetBackend = try await connect()
        defer { targetBackend.close() }
        let target = try await openTarget(on: targetBackend)
        let asked = CallCounter()
        let drops = target.drops { _, _ in
            asked.hit("decide")
            return .copy
        }
        var iterator = drops.makeAsyncIterator()

        let doomed = try await connect()
        let first = try await openSource(on: doomed)
        let abandoned = try await startDrag(Self.textOffer("lost"), from: first)
        try await pointer.press(at: Self.start)
        try await pointer.moveAlong(from: Self.start, to: Self.end)
        let deadline = ContinuousClock.now + .seconds(30)
        while asked.count("decide") == 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(asked.count("decide") >= 1)
        doomed.close()
        try await pointer.release()
        _ = try? await abandoned.value

        let survivor = try await connect()
        defer { survivor.close() }
        let second = try await openSource(on: survivor)
        let drag = try await startDrag(Self.textOffer("kept"), from: second)
        try await pointer.drag(from: Self.start, to: Self.end)
        let drop = try #require(try await iterator.next())
        #expect(drop.source == second.identifier)
        let text = try await Self.read(try await drop.receive("UTF8_STRING"))
        #expect(String(decoding: text, as: UTF8.self) == "kept as UTF8_STRING")
        await drop.finish(performed: .copy)
        #expect(try await drag.value == .dropped(performed: .copy, target: target.identifier))
    }

    @Test("Escape cancels the drag; the target gets no drop")
    func escape() async throws {
        let pair = try await openPair()
        defer { pair.close() }
        let (source, target) = (pair.source, pair.target)
        let drops = target.drops { _, _ in .copy }
        let drag = try await startDrag(Self.textOffer("escaped"), from: source)
        try await pointer.press(at: Self.start)
        try await pointer.moveAlong(from: Self.start, to: Self.end)
        let key = try await runTool([SystemTool.path("xdotool"), "key", "Escape"], environment: server.environment)
        #expect(key.status == 0)
        #expect(try await drag.value == .cancelled(reason: "the user pressed Escape"))
        try await pointer.release()
        target.close()
        var iterator = drops.makeAsyncIterator()
        #expect(try await iterator.next() == nil)
    }

    @Test("The window manager's WM_DELETE_WINDOW closes the window: the running drag is cancelled, drops finish")
    func windowManagerClose() async throws {
        let pair = try await openPair()
        defer { pair.close() }
        let source = pair.source
        let drops = source.drops { _, _ in .copy }
        let drag = try await startDrag(Self.textOffer("closed"), from: source)
        try await pointer.press(at: Self.start)
        try await pointer.moveAlong(from: Self.start, to: Self.end)
        // What a window manager sends when the user closes the window, from another client.
        let wm = pair.targetBackend
        let atoms = try await wm.atoms(["WM_PROTOCOLS", "WM_DELETE_WINDOW"])
        try wm.connection.send(
            X11RequestEncoder.sendClientMessage(
                to: source.window, window: source.window, type: atoms[0], data: [atoms[1], 0, 0, 0, 0]))
        let deadline = ContinuousClock.now + .seconds(30)
        while !source.state.withLock({ $0.isClosed }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        let closed = source.state.withLock { $0.isClosed }
        if !closed {
            // Not closed: end the drag and the window so the test fails at once instead of waiting on them.
            drag.cancel()
            source.close()
        }
        #expect(closed)
        #expect(try await drag.value == .cancelled(reason: "the window was closed"))
        try await pointer.release()
        var iterator = drops.makeAsyncIterator()
        #expect(try await iterator.next() == nil)
    }

    @Test("A flood of client messages from another client never wedges the window: it works or its drops end")
    func clientMessageFlood() async throws {
        let pair = try await openPair()
        defer { pair.close() }
        let (source, target) = (pair.source, pair.target)
        var iterator = target.drops { _, _ in .copy }.makeAsyncIterator()
        let flooder = try await connect()
        defer { flooder.close() }
        let names = try await flooder.atoms(XdndAtoms.names)
        let xdnd = XdndAtoms(interned: names)
        let position = XdndMessage.position(
            source: 0x12_3456, rootX: 1, rootY: 1, time: 0, action: xdnd.atom(for: .copy)
        )
        .request(to: target.window, atoms: xdnd)
        for _ in 0..<20_000 { try flooder.connection.send(position) }
        _ = try await flooder.connection.request(X11RequestEncoder.getInputFocus())
        let drag = try await startDrag(Self.textOffer("after the flood"), from: source)
        try await pointer.drag(from: Self.start, to: Self.end)
        do {
            let drop = try #require(try await iterator.next())
            let text = try await Self.read(try await drop.receive("UTF8_STRING"))
            #expect(String(decoding: text, as: UTF8.self) == "after the flood as UTF8_STRING")
            await drop.finish(performed: .copy)
            #expect(try await drag.value == .dropped(performed: .copy, target: target.identifier))
        } catch let error as ClipboardError {
            // The window gave up: its stream ends with the flood's error, and the window is closed.
            #expect(error.code == .protocolViolation)
            #expect(target.state.withLock { $0.isClosed })
            _ = try? await drag.value
        }
    }

    @Test("A target behind an XdndProxy that names itself gets the messages, about the window under the pointer")
    func proxy() async throws {
        let sourceBackend = try await connect()
        defer { sourceBackend.close() }
        let source = try await openSource(on: sourceBackend)
        // The window under the pointer belongs to one client, the proxy to another, which records what reaches it.
        let front = try await connect()
        defer { front.close() }
        let proxyClient = try await connect()
        defer { proxyClient.close() }
        let received = X11Wait.mailbox(of: X11Event.self)
        proxyClient.connection.setEventHandler({ X11Wait.post($0, to: received) }, onEnd: { received.close($0) })
        let names = ["XdndAware", "XdndProxy", "WINDOW"] + XdndAtoms.names
        let atoms = try await proxyClient.atoms(names)
        let xdnd = XdndAtoms(interned: Array(atoms.dropFirst(3)))
        let frontWindow = front.connection.allocateResource()
        let proxyWindow = proxyClient.connection.allocateResource()
        try await front.connection.checked(
            X11RequestEncoder.createInputOutputWindow(
                frontWindow, parent: front.connection.info.rootWindow, x: Self.targetOrigin.0, y: Self.targetOrigin.1,
                width: 240, height: 120, background: 0, eventMask: 0))
        try await proxyClient.connection.checked(
            X11RequestEncoder.createInputOutputWindow(
                proxyWindow, parent: proxyClient.connection.info.rootWindow, x: 900, y: 700, width: 10, height: 10,
                background: 0, eventMask: 0))
        try await front.connection.checked(
            X11RequestEncoder.changeProperty(frontWindow, property: atoms[1], type: atoms[2], values: [proxyWindow]))
        try await proxyClient.connection.checked(
            X11RequestEncoder.changeProperty(proxyWindow, property: atoms[1], type: atoms[2], values: [proxyWindow]))
        try await proxyClient.connection.checked(
            X11RequestEncoder.changeProperty(proxyWindow, property: atoms[0], type: X11.Atom.atom, values: [5]))
        try await front.connection.checked(X11RequestEncoder.mapWindow(frontWindow))

        let drag = try await startDrag(Self.textOffer("proxied", actions: [.copy]), from: source)
        try await pointer.press(at: Self.start)
        try await pointer.moveAlong(from: Self.start, to: Self.end)
        // Every XDND message reaches the proxy's client, about the front window; the proxy answers each position.
        var messages: [XdndMessage] = []
        let deadline = ContinuousClock.now + .seconds(30)
        var release: Task<Void, any Error>?
        while ContinuousClock.now < deadline {
            let event = try await X11Wait.next(from: received, within: .seconds(30), waitingFor: "an XDND message")
            guard case .clientMessage(let window, 32, let type, let data) = event,
                let message = XdndMessage.decode(type: type, data: data, atoms: xdnd)
            else { continue }
            #expect(window == frontWindow)
            messages.append(message)
            switch message {
            case .position:
                let status = XdndMessage.status(
                    target: frontWindow, accepts: true, wantsPositions: true, rectangle: .empty,
                    action: xdnd.atom(for: .copy))
                try proxyClient.connection.send(status.request(to: source.window, atoms: xdnd))
                if release == nil {
                    let pointer = self.pointer
                    release = Task { try await pointer.release() }
                }
            case .drop:
                let finished = XdndMessage.finished(target: frontWindow, succeeded: true, action: xdnd.atom(for: .copy))
                try proxyClient.connection.send(finished.request(to: source.window, atoms: xdnd))
            default:
                break
            }
            if case .drop = message { break }
        }
        try await release?.value
        guard case .enter(let enterSource, let version, _, _) = messages.first else {
            Issue.record("the first message was \(String(describing: messages.first)), not an enter")
            return
        }
        #expect(enterSource == source.window)
        #expect(version == 5)
        #expect(messages.contains { if case .drop(source.window, _) = $0 { true } else { false } })
        #expect(try await drag.value == .dropped(performed: .copy, target: "0x" + String(frontWindow, radix: 16)))
    }
}
