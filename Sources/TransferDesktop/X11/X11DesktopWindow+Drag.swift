import TransferDisplay
import TransferKit
import TransferKitPlatform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension X11DesktopWindow {
    /// The keycode of Escape on X servers with the evdev or PC keyboard map (Xorg, Xvfb, Xwayland).
    static let escapeKeycode: UInt8 = 9

    /// Waits for the first button to go down on the window and the pointer to move past the threshold, then drags
    /// `offer` through XDND until the drop finishes, is refused, or is cancelled. A press that came before this call
    /// counts while its button is still down.
    ///
    /// ``XdndSourceMachine`` decides; this performs its actions. The pointer and the keyboard are grabbed for the
    /// drag (Escape cancels it; a keyboard another client holds only loses that), `XdndSelection` is owned through
    /// the clipboard's owner machinery (`TARGETS`, INCR) and given up when the drag ends. Cancelling the calling
    /// task, or closing the window, ends the drag as `.cancelled` (a target under the pointer gets a leave).
    ///
    /// - Throws: ``ClipboardError``: `timedOut` when the target accepted the drop and did not finish it within the
    ///   connection's time limit of the drop or of its last read of the data; `invalidOptions` when a drag from this window is already under way; why the
    ///   connection ended.
    package func drag(_ original: DesktopDragOffer) async throws -> DesktopDragOutcome {
        let backend = self.backend
        let names = [
            "XdndSelection", "XdndTypeList", "XdndActionList", "XdndActionDescription", "XdndAware", "XdndProxy",
        ]
        let named = try await backend.atoms(names)
        let events = X11Wait.mailbox(of: XdndSourceMachine.Event.self)
        let taken = state.withLock { state in
            guard state.drag == nil, !state.isClosed else { return false }
            state.drag = events
            // A press that came first, its button still down, begins the drag; posted under the lock so that no
            // later pointer event of the window's loop goes before it.
            if let press = state.pressWithoutDrag {
                state.pressWithoutDrag = nil
                X11Wait.post(.pointer(press), to: events)
            }
            return true
        }
        guard taken else {
            throw ClipboardError(
                code: state.withLock({ $0.isClosed }) ? .cancelled : .invalidOptions,
                message: "The window \(identifier) is closed or already dragging; one drag at a time.")
        }
        defer {
            state.withLock { state in
                if state.drag === events { state.drag = nil }
            }
            events.close(nil)
        }
        // Only the drag that holds the window writes its promise's name, and takes it away when it ends.
        let (offer, promiseProperty) = try await offeringDirectSave(original)
        defer {
            if let promiseProperty {
                _ = try? backend.connection.send(X11RequestEncoder.deleteProperty(window, property: promiseProperty))
            }
        }
        let typeAtoms = try await backend.atoms(offer.targets)
        let driver = XdndSourceDriver(
            window: self, offer: offer, events: events,
            atoms: .init(
                selection: named[0], typeList: named[1], actionList: named[2], actionDescription: named[3],
                aware: named[4], proxy: named[5]))
        let machine = MachineShell(
            XdndSourceMachine(window: window, atoms: atoms, types: typeAtoms, actions: offer.actions))
        return try await driver.run(machine)
    }
}

/// Performs one drag's ``XdndSourceMachine`` actions on an ``X11DesktopWindow``.
struct XdndSourceDriver {
    /// The atoms of the source's properties.
    struct Atoms {
        var selection: X11.ID
        var typeList: X11.ID
        var actionList: X11.ID
        var actionDescription: X11.ID
        var aware: X11.ID
        var proxy: X11.ID
    }

    let window: X11DesktopWindow
    let offer: DesktopDragOffer
    let events: Mailbox<XdndSourceMachine.Event, ClipboardError>
    let atoms: Atoms
    /// When the target last pulled a chunk of what the drag serves: the wait for its finish counts from its last
    /// read, not from the drop, so a large drop that a busy target reads slowly (INCR, chunk by chunk) is not taken
    /// for a target that never finishes. Only reads of conversions that began before the drop, or within the time
    /// limit after it, count: a target that keeps asking again, and never finishes, cannot hold the source forever.
    let lastRead: ReadClock

    var connection: X11Connection { window.backend.connection }

    init(
        window: X11DesktopWindow, offer: DesktopDragOffer, events: Mailbox<XdndSourceMachine.Event, ClipboardError>,
        atoms: Atoms
    ) {
        self.window = window
        self.offer = offer
        self.events = events
        self.atoms = atoms
        lastRead = ReadClock(window: window.backend.connection.timeout)
    }

    /// Runs the drag to its end.
    func run(_ machine: MachineShell<XdndSourceMachine>) async throws -> DesktopDragOutcome {
        var deadline = Deadline.never
        var ownership: X11Ownership?
        var grabbed = false
        defer {
            if grabbed {
                _ = try? connection.send(X11RequestEncoder.ungrabPointer(time: X11.currentTime))
                _ = try? connection.send(X11RequestEncoder.ungrabKeyboard(time: X11.currentTime))
            }
        }
        while true {
            var queue: [XdndSourceMachine.Event]
            switch await Xdnd.next(from: events, until: deadline) {
            case .event(let event):
                queue = [event]
            case .deadline:
                if let read = lastRead.last, read + connection.timeout > .now {
                    deadline = .after(connection.timeout - (ContinuousClock.now - read), on: connection.clock)
                    continue
                }
                deadline = .never
                queue = [.deadline]
            case .cancelled:
                queue = [.cancel(reason: "the drag's task was cancelled")]
            case .ended(nil):
                queue = [.cancel(reason: "the window was closed")]
            case .ended(let failure?):
                if let ownership { await window.backend.release(ownership) }
                throw failure
            }
            while !queue.isEmpty {
                for action in machine.handle(queue.removeFirst()) {
                    switch action {
                    case .grab:
                        let outcome = await grab()
                        grabbed = outcome.grabbed
                        ownership = outcome.ownership
                        queue.append(.grabbed(ownedSince: outcome.grabbed ? outcome.ownership?.time : nil))
                    case .findTarget(let x, let y):
                        queue.append(.found(await findTarget(rootX: x, rootY: y)))
                    case .send(let message, let destination, let about):
                        if case .drop = message { lastRead.dropped() }
                        _ = try? connection.send(
                            message.request(to: destination, about: about, atoms: window.atoms))
                    case .watch(let target):
                        window.backend.windowEvents.watch(target, for: window.window, on: connection)
                    case .armDeadline:
                        deadline = .after(connection.timeout, on: connection.clock)
                    case .finish(let end):
                        if let ownership { await window.backend.release(ownership) }
                        switch end {
                        case .outcome(let outcome):
                            return outcome
                        case .timedOut(let target):
                            throw ClipboardError(
                                code: .timedOut,
                                message: "The drop target \(target) accepted the drop but did not finish it within "
                                    + "\(connection.timeout) of the drop or its last read; whether it took the data is unknown."
                            )
                        }
                    }
                }
            }
        }
    }

    /// Grabs the pointer and the keyboard and takes `XdndSelection`, writing the offer's type and action lists.
    private func grab() async -> (grabbed: Bool, ownership: X11Ownership?) {
        let source = window.window
        let mask = UInt16(X11.EventMask.buttonPress | X11.EventMask.buttonRelease | X11.EventMask.pointerMotion)
        guard
            let reply = try? await connection.request(
                X11RequestEncoder.grabPointer(source, eventMask: mask, time: X11.currentTime)),
            X11Reply.grabStatus(reply) == 0
        else { return (false, nil) }
        // Without the keyboard (another client holds it) Escape does nothing; the drag goes on.
        _ = try? await connection.request(X11RequestEncoder.grabKeyboard(source, time: X11.currentTime))
        let typeAtoms = (try? await window.backend.atoms(offer.targets)) ?? []
        let actionAtoms = offer.actions.map(window.atoms.atom(for:))
        let descriptions = offer.actions.map { Array("\($0)".utf8) + [0] }.joined()
        _ = try? connection.send(
            X11RequestEncoder.changeProperty(source, property: atoms.typeList, type: X11.Atom.atom, values: typeAtoms))
        _ = try? connection.send(
            X11RequestEncoder.changeProperty(
                source, property: atoms.actionList, type: X11.Atom.atom, values: actionAtoms))
        _ = try? connection.send(
            X11RequestEncoder.changeProperty(
                source, property: atoms.actionDescription, type: X11.Atom.string, format: 8, data: Array(descriptions)))
        let serve = offer.serve
        let lastRead = lastRead
        let ownership = try? await window.backend.own(
            atoms.selection, named: "XdndSelection", targets: offer.targets,
            serve: { name in
                let opened = ContinuousClock.now
                lastRead.note(openedAt: opened)
                return TransferByteStream(
                    length: nil, ReadClockChunks(base: try await serve(name), lastRead: lastRead, opened: opened))
            })
        return (true, ownership)
    }

    /// The window under the root point that takes XDND drops: walking down from the root through the children
    /// that contain the point, the first with `XdndAware` 3 or later (through its `XdndProxy` when that proxy
    /// names itself), or `nil`.
    private func findTarget(rootX: Int16, rootY: Int16) async -> XdndSourceMachine.Target? {
        let root = connection.info.rootWindow
        var parent = root
        // Deep enough for a window manager's frames; a loop in a hostile tree ends here.
        for _ in 0..<16 {
            guard
                let reply = try? await connection.request(
                    X11RequestEncoder.translateCoordinates(from: root, to: parent, x: rootX, y: rootY))
            else { return nil }
            let child = X11Reply.translated(reply).child
            guard child != X11.none else { return nil }
            if let target = await awareTarget(child) { return target }
            parent = child
        }
        return nil
    }

    /// `window` as a target, when it (or its proxy) has `XdndAware` 3 or later.
    private func awareTarget(_ window: X11.ID) async -> XdndSourceMachine.Target? {
        var destination = window
        if let proxy = await property(atoms.proxy, of: window).first, proxy != X11.none,
            await property(atoms.proxy, of: proxy).first == proxy
        {
            destination = proxy
        }
        guard let version = await property(atoms.aware, of: destination, type: X11.Atom.atom).first,
            version >= UInt32(Xdnd.oldestVersion)
        else { return nil }
        return XdndSourceMachine.Target(
            window: window, destination: destination, version: UInt8(clamping: version))
    }

    /// The 32-bit items of `property` on `window` (of `type` when given), or none when it is missing, of
    /// another type, or the window is gone.
    private func property(_ property: X11.ID, of window: X11.ID, type: X11.ID? = nil) async -> [UInt32] {
        guard
            let reply = try? await connection.request(
                X11RequestEncoder.getProperty(window, property: property, delete: false, length: 1)),
            let value = try? X11Reply.property(reply), type == nil || value.type == type
        else { return [] }
        return value.items32
    }
}

/// A served stream's chunks, noting when the target pulled each (``XdndSourceDriver/lastRead``).
private struct ReadClockChunks: AsyncSequence, Sendable {
    typealias Element = Data
    let base: TransferByteStream
    let lastRead: ReadClock
    /// When the conversion began.
    let opened: ContinuousClock.Instant

    func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator(), lastRead: lastRead, opened: opened)
    }

    struct Iterator: AsyncIteratorProtocol {
        var base: TransferByteStream.AsyncIterator
        let lastRead: ReadClock
        let opened: ContinuousClock.Instant

        mutating func next() async throws -> Data? {
            let chunk = try await base.next()
            lastRead.note(openedAt: opened)
            return chunk
        }
    }
}

/// When a drag's target last read from it, counting only conversions that began before the drop or within
/// `window` after it.
final class ReadClock: Sendable {
    private struct Instants {
        var lastRead: ContinuousClock.Instant?
        var drop: ContinuousClock.Instant?
    }
    private let instants = SanitizedMutex(Instants())
    /// How long after the drop a conversion may begin and still count.
    let window: Duration

    /// A clock whose reads count when their conversion began at most `window` after the drop.
    init(window: Duration) {
        self.window = window
    }

    /// The last read that counts, or `nil` before the first.
    var last: ContinuousClock.Instant? { instants.withLock { $0.lastRead } }

    /// Notes the drop, now.
    func dropped() { instants.withLock { $0.drop = .now } }

    /// Notes a read now, of a conversion that began at `opened`.
    func note(openedAt opened: ContinuousClock.Instant) {
        instants.withLock { instants in
            if let drop = instants.drop, opened > drop + window { return }
            instants.lastRead = .now
        }
    }
}
