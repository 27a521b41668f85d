import TransferDisplay
import TransferKitPlatform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// TransferKit's own X11 window for drag and drop: a small top-level InputOutput window on the clipboard's
/// connection that shows a few lines in the core font `fixed` (no toolkit), announces `XdndAware` version 5, and
/// handles its events on a task of its own (the connection's reader thread only posts them to the window's mailbox).
package final class X11DesktopWindow: DesktopWindowHandle {
    /// The backend whose connection the window lives on.
    let backend: X11Backend
    /// The window.
    package let window: X11.ID
    /// The graphics context the text is drawn with.
    let gc: X11.ID
    /// The font opened for the text (`nil`: the server's default font, when `fixed` could not be opened).
    let font: X11.ID?
    /// The server's XDND atoms.
    let atoms: XdndAtoms
    /// `WM_PROTOCOLS` and `WM_DELETE_WINDOW`: the window manager's message that the user closed the window.
    let wmProtocols: X11.ID
    let wmDeleteWindow: X11.ID
    /// The window's events, posted by the reader thread (through the backend's ``X11WindowRouting``).
    let events = X11Wait.mailbox(of: X11Event.self)
    let state: SanitizedMutex<State>

    struct State {
        var lines: [String]
        var size: (width: UInt16, height: UInt16)
        var isClosed = false
        var loop: Task<Void, Never>?
        /// The target side, from the opening on.
        var target: XdndTargetSession?
        var targetLoop: Task<Void, Never>?
        /// The events of the drag under way, if any.
        var drag: Mailbox<XdndSourceMachine.Event, ClipboardError>?
        /// The first button's press on the window while no drag was waiting for it, until its release: a drag
        /// that starts while the button is still down begins with it (a user who presses before the app calls
        /// `drag`, a busy machine where the press arrives first).
        var pressWithoutDrag: X11PointerEvent?
    }

    /// The window's size now.
    var size: (width: UInt16, height: UInt16) { state.withLock { $0.size } }

    /// `0x…`: the window's id.
    package var identifier: String { "0x" + String(window, radix: 16) }

    /// The size of the `fixed` font's cell the layout assumes (6 × 13 pixels; its ascent is 10).
    static let cell = (width: 6, height: 13, ascent: 10)
    /// The blank border around the text.
    static let margin = 8

    private init(
        backend: X11Backend, window: X11.ID, gc: X11.ID, font: X11.ID?, atoms: XdndAtoms,
        wmDelete: (protocols: X11.ID, deleteWindow: X11.ID), lines: [String]
    ) {
        self.backend = backend
        self.window = window
        self.gc = gc
        self.font = font
        self.atoms = atoms
        wmProtocols = wmDelete.protocols
        wmDeleteWindow = wmDelete.deleteWindow
        state = SanitizedMutex(State(lines: lines, size: Self.size(for: lines)))
    }

    /// The window's size for `lines`: every line fits, at least 240 × 120 pixels (a target easy to hit), at most
    /// the 16-bit limit.
    static func size(for lines: [String]) -> (width: UInt16, height: UInt16) {
        let columns = lines.map { $0.unicodeScalars.count }.max() ?? 0
        let width = max(240, min(4000, columns * cell.width + 2 * margin))
        let height = max(120, min(4000, lines.count * cell.height + 2 * margin))
        return (UInt16(width), UInt16(height))
    }

    /// Creates, titles and maps a window at `x`, `y` on the root window showing `lines`.
    ///
    /// - Throws: ``ClipboardError``: `transferFailed` when the server refused to create the window, `timedOut`, or
    ///   why the connection ended.
    static func open(
        on backend: X11Backend, title: String, lines: [String], x: Int16, y: Int16
    ) async throws -> X11DesktopWindow {
        let connection = backend.connection
        let info = connection.info
        let atoms = try await backend.atoms(
            ["_NET_WM_NAME", "UTF8_STRING", "XdndAware", "WM_PROTOCOLS", "WM_DELETE_WINDOW"] + XdndAtoms.names)
        let (netName, utf8String, xdndAware) = (atoms[0], atoms[1], atoms[2])
        let wmDelete = (protocols: atoms[3], deleteWindow: atoms[4])
        let xdnd = XdndAtoms(interned: Array(atoms.dropFirst(5)))
        let window = connection.allocateResource()
        let size = size(for: lines)
        let mask =
            X11.EventMask.exposure | X11.EventMask.keyPress | X11.EventMask.buttonPress
            | X11.EventMask.buttonRelease | X11.EventMask.pointerMotion | X11.EventMask.structureNotify
        try await connection.checked(
            X11RequestEncoder.createInputOutputWindow(
                window, parent: info.rootWindow, x: x, y: y, width: size.width, height: size.height,
                background: info.whitePixel, eventMask: mask))
        var font: X11.ID? = connection.allocateResource()
        do {
            try await connection.checked(X11RequestEncoder.openFont(font ?? X11.none, name: "fixed"))
        } catch let error as ClipboardError where error.code == .transferFailed {
            // No `fixed` font: the GC keeps the server's default font, which draws the same lines.
            font = nil
        }
        let gc = connection.allocateResource()
        let handle = X11DesktopWindow(
            backend: backend, window: window, gc: gc, font: font, atoms: xdnd, wmDelete: wmDelete, lines: lines)
        do {
            try connection.send(
                X11RequestEncoder.createGC(
                    gc, drawable: window, foreground: info.blackPixel, background: info.whitePixel, font: font))
            let latin1 = Array(title.unicodeScalars.map { $0.value < 256 ? UInt8($0.value) : UInt8(ascii: "?") })
            try connection.send(
                X11RequestEncoder.changeProperty(
                    window, property: X11.Atom.wmName, type: X11.Atom.string, format: 8, data: latin1))
            try connection.send(
                X11RequestEncoder.changeProperty(
                    window, property: netName, type: utf8String, format: 8, data: Array(title.utf8)))
            try connection.send(
                X11RequestEncoder.changeProperty(
                    window, property: X11.Atom.wmClass, type: X11.Atom.string, format: 8,
                    data: Array("transferkit\0TransferKit\0".utf8)))
            try connection.send(
                X11RequestEncoder.changeProperty(
                    window, property: xdndAware, type: X11.Atom.atom, values: [UInt32(Xdnd.version)]))
            // The window manager asks before it closes the window, instead of killing the whole connection.
            try connection.send(
                X11RequestEncoder.changeProperty(
                    window, property: wmDelete.protocols, type: X11.Atom.atom, values: [wmDelete.deleteWindow]))
            backend.windowEvents.subscribe(handle)
            try connection.send(X11RequestEncoder.mapWindow(window))
            // The window exists and is mapped once the server answered a request sent after these.
            _ = try await connection.request(X11RequestEncoder.getInputFocus())
        } catch {
            handle.close()
            throw error
        }
        handle.startLoop()
        return handle
    }

    /// Starts the task that handles the window's events, and the target's, until it closes.
    private func startLoop() {
        let target = XdndTargetSession(window: self)
        // Either loop ending with an error (a flood of events over a mailbox's capacity, the connection's end)
        // ends the window with it, so that no drag or drops stream waits on a loop that is gone.
        let targetLoop = Task {
            if let error = await target.run() { self.close(with: error) }
        }
        let task = Task { [events] in
            do throws(ClipboardError) {
                while true {
                    self.handle(try await X11Wait.next(from: events, within: nil, waitingFor: "the window's events"))
                }
            } catch {
                self.close(with: error)
            }
        }
        let closed = state.withLock { state in
            if !state.isClosed {
                state.loop = task
                state.target = target
                state.targetLoop = targetLoop
            }
            return state.isClosed
        }
        if closed {
            task.cancel()
            target.events.close(nil)
        }
    }

    /// One event of the window, on its task: drawing here, XDND's messages to the side they are for.
    func handle(_ event: X11Event) {
        switch event {
        case .expose(_, let count) where count == 0:
            draw()
        case .clientMessage(_, 32, wmProtocols, let data):
            // The user closed the window through the window manager: as ``close()``, a running drag is cancelled
            // ("the window was closed") and the drops stream finishes.
            if X11Bytes(data).u32(0) == wmDeleteWindow { close() }
        case .clientMessage(_, 32, let type, let data):
            guard let message = XdndMessage.decode(type: type, data: data, atoms: atoms) else { return }
            switch message {
            case .enter, .position, .leave, .drop:
                if let target = state.withLock({ $0.target }) { X11Wait.post(.message(message), to: target.events) }
            case .status, .finished:
                if let drag = state.withLock({ $0.drag }) { X11Wait.post(.message(message), to: drag) }
            }
        case .pointer(let pointer):
            let drag = state.withLock { state in
                if pointer.button == 1 && pointer.kind == .release {
                    state.pressWithoutDrag = nil
                } else if pointer.button == 1 && pointer.kind == .press && state.drag == nil {
                    state.pressWithoutDrag = pointer
                }
                return state.drag
            }
            if let drag { X11Wait.post(.pointer(pointer), to: drag) }
        case .keyPress(_, Self.escapeKeycode, _):
            if let drag = state.withLock({ $0.drag }) { X11Wait.post(.escape, to: drag) }
        case .destroyNotify(let destroyed):
            let (target, drag) = state.withLock { ($0.target, $0.drag) }
            if let target { X11Wait.post(.destroyed(destroyed), to: target.events) }
            if let drag { X11Wait.post(.destroyed(destroyed), to: drag) }
        default:
            break
        }
    }

    /// Draws the lines (the server painted the background already, or ``show(lines:)`` cleared it).
    func draw() {
        let lines = state.withLock { $0.isClosed ? [] : $0.lines }
        for (index, line) in lines.enumerated() {
            let y = Self.margin + Self.cell.ascent + index * Self.cell.height
            guard y < Int(Int16.max) else { break }
            // Core text is 8-bit: Latin-1 as is, anything else as `?`.
            let bytes = line.unicodeScalars.map { $0.value < 256 ? UInt8($0.value) : UInt8(ascii: "?") }
            _ = try? backend.connection.send(
                X11RequestEncoder.imageText8(
                    drawable: window, gc: gc, x: Int16(Self.margin), y: Int16(y), text: bytes))
        }
    }

    /// Replaces the lines, resizing the window when they need more room.
    package func show(lines: [String]) async throws {
        let closed = state.withLock { state in
            state.lines = lines
            return state.isClosed
        }
        guard !closed else {
            throw ClipboardError(code: .cancelled, message: "The window \(identifier) is closed.")
        }
        let size = Self.size(for: lines)
        state.withLock { $0.size = size }
        try backend.connection.send(X11RequestEncoder.resizeWindow(window, width: size.width, height: size.height))
        try backend.connection.send(X11RequestEncoder.clearWindow(window))
        draw()
        _ = try await backend.connection.request(X11RequestEncoder.getInputFocus())
    }

    /// Moves the window to `x`, `y` on the root window (tests place windows where the pointer will go).
    package func move(x: Int16, y: Int16) async throws {
        try backend.connection.send(X11RequestEncoder.moveWindow(window, x: x, y: y))
        _ = try await backend.connection.request(X11RequestEncoder.getInputFocus())
    }

    /// Delivers each drop on the window, asking `decide` on every position; a later call takes the drops over (the
    /// earlier stream ends), and closing the window ends the stream (with the connection's error when it ended).
    package func drops(
        decide: @escaping @Sendable (_ targets: [String], _ actions: [DesktopDragAction]) -> DesktopDragAction?
    ) -> AsyncThrowingStream<any DesktopDropHandle, any Error> {
        AsyncThrowingStream { continuation in
            guard let target = state.withLock({ $0.isClosed ? nil : $0.target }) else {
                continuation.finish(
                    throwing: ClipboardError(code: .cancelled, message: "The window \(identifier) is closed."))
                return
            }
            target.attach(decide: decide, continuation: continuation)
        }
    }

    package func close() {
        close(with: nil)
    }

    /// Closes the window; its drag and drops stream end with `error` (`nil`: as the user closed it).
    func close(with error: ClipboardError?) {
        let (wasClosed, loop, target, drag) = state.withLock { state in
            defer {
                state.isClosed = true
                state.loop = nil
                state.target = nil
                state.targetLoop = nil
                state.drag = nil
            }
            return (state.isClosed, state.loop, state.target, state.drag)
        }
        guard !wasClosed else { return }
        loop?.cancel()
        events.close(error)
        target?.events.close(error)
        drag?.close(error)
        backend.windowEvents.unsubscribe(window)
        let connection = backend.connection
        _ = try? connection.send(X11RequestEncoder.freeGC(gc))
        if let font { _ = try? connection.send(X11RequestEncoder.closeFont(font)) }
        _ = try? connection.send(X11RequestEncoder.destroyWindow(window))
    }

    /// The connection ended: the window is gone with it.
    package func connectionEnded(_ error: ClipboardError) {
        events.close(error)
        let (target, drag) = state.withLock { ($0.target, $0.drag) }
        target?.events.close(error)
        drag?.close(error)
    }
}

extension X11DesktopWindow: X11WindowSubscriber {
    /// Posts `event` to the window's mailbox (on the reader thread: never blocks).
    package func receive(_ event: X11Event) {
        X11Wait.post(event, to: events)
    }
}

extension X11Backend: DragAndDropBackend {
    /// `X11 (XDND 5)`.
    package var dragAndDropProtocolName: String { "X11 (XDND \(Xdnd.version))" }

    package func openWindow(title: String, lines: [String]) async throws -> any DesktopWindowHandle {
        try await openDesktopWindow(title: title, lines: lines)
    }

    /// Opens TransferKit's own window titled `title` showing `lines`, at `x`, `y` on the root window (a window
    /// manager may place it elsewhere).
    ///
    /// - Throws: ``ClipboardError``: `transferFailed` when the server refused the window, `timedOut`, or why the
    ///   connection ended.
    package func openDesktopWindow(
        title: String, lines: [String], x: Int16 = 0, y: Int16 = 0
    ) async throws -> X11DesktopWindow {
        try await X11DesktopWindow.open(on: self, title: title, lines: lines, x: x, y: y)
    }
}
