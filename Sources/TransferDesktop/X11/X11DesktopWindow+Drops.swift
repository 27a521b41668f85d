import TransferDisplay
import TransferKit
import TransferKitPlatform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The shell of ``XdndTargetMachine`` on one ``X11DesktopWindow``: runs from the window's opening to its closing
/// (a window with `XdndAware` must answer every source, refusing while nobody asked for drops), performs the
/// machine's actions, and hands drops to the stream of ``X11DesktopWindow/drops(decide:)`` when there is one.
final class XdndTargetSession: Sendable {
    typealias Decide = @Sendable (_ targets: [String], _ actions: [DesktopDragAction]) -> DesktopDragAction?
    typealias Continuation = AsyncThrowingStream<any DesktopDropHandle, any Error>.Continuation

    /// The window's id, and the backend and atoms it lives with.
    let window: X11.ID
    let backend: X11Backend
    let atoms: XdndAtoms
    /// The window, for its current size (weak: the window holds this session).
    weak let handle: X11DesktopWindow?
    /// The machine's events: the source's messages (from the window's loop), destructions, and finishes.
    let events = X11Wait.mailbox(of: XdndTargetMachine.Event.self)
    /// Who takes the drops: the latest ``attach(decide:continuation:)``'s stream, numbered.
    private struct Consumer {
        var decide: Decide
        var continuation: Continuation
        var generation: UInt64
    }
    private let consumer = SanitizedMutex<Consumer?>(nil)
    private let generations = SanitizedMutex<UInt64>(0)
    /// Who waits for a finish posted to the loop until its `XdndFinished` is sent, by drop: a process that exits right
    /// after finishing its last drop (`transferkit drop`) must not close the connection before the source hears it.
    private let finishWaiters = SanitizedMutex<[UInt64: Latch<Void>]>([:])

    init(window: X11DesktopWindow) {
        self.window = window.window
        backend = window.backend
        atoms = window.atoms
        handle = window
    }

    /// Hands later drops to `continuation`, asking `decide`; the stream that had them before ends.
    func attach(decide: @escaping Decide, continuation: Continuation) {
        let generation = generations.withLock { generation in
            generation += 1
            return generation
        }
        let previous = consumer.withLock { consumer in
            let previous = consumer?.continuation
            consumer = Consumer(decide: decide, continuation: continuation, generation: generation)
            return previous
        }
        previous?.finish()
        continuation.onTermination = { [weak self] _ in
            self?.consumer.withLock { consumer in
                if consumer?.generation == generation { consumer = nil }
            }
        }
    }

    /// Performs the machine's actions until the window closes (the stream then ends, with the connection's error if
    /// that is why) or its events end with an error, which it returns.
    @discardableResult
    func run() async -> ClipboardError? {
        let machine = MachineShell(XdndTargetMachine(window: window, atoms: atoms))
        var deadline = Deadline.never
        var ending: ClipboardError?
        loop: while true {
            var queue: [XdndTargetMachine.Event]
            switch await Xdnd.next(from: events, until: deadline) {
            case .event(let event):
                queue = [event]
            case .deadline:
                deadline = .never
                queue = [.silence]
            case .cancelled:
                break loop
            case .ended(let failure):
                ending = failure
                break loop
            }
            while !queue.isEmpty {
                let event = queue.removeFirst()
                defer {
                    if case .finish(let drop, _) = event {
                        finishWaiters.withLock { $0.removeValue(forKey: drop) }?.open()
                    }
                }
                for action in machine.handle(event) {
                    switch action {
                    case .describeSource(let source, let types, let readTypeList):
                        queue.append(await describe(source, types: types, readTypeList: readTypeList))
                    case .decide(let targets, let actions):
                        let decide = consumer.withLock { $0?.decide }
                        queue.append(.decided(decide?(targets, actions)))
                    case .send(let message, let destination):
                        _ = try? backend.connection.send(message.request(to: destination, atoms: atoms))
                    case .deliver(let drop):
                        deliver(drop)
                    case .watch(let source):
                        backend.windowEvents.watch(source, for: window, on: backend.connection)
                    case .armSilenceDeadline:
                        deadline = .after(backend.connection.timeout, on: backend.connection.clock)
                    case .disarmSilenceDeadline:
                        deadline = .never
                    }
                }
            }
        }
        let continuation = consumer.withLock { consumer in
            let continuation = consumer?.continuation
            consumer = nil
            return continuation
        }
        continuation?.finish(throwing: ending)
        let waiters = finishWaiters.withLock { waiters in
            defer { waiters = [:] }
            return waiters
        }
        for waiter in waiters.values { waiter.open() }
        return ending
    }

    /// Hands `drop` to the stream, or, when nobody takes drops, finishes it as declined.
    private func deliver(_ drop: XdndTargetMachine.Drop) {
        let handle = XdndDropHandle(session: self, drop: drop)
        guard let continuation = consumer.withLock({ $0?.continuation }),
            case .enqueued = continuation.yield(handle)
        else {
            handle.finishNow(performed: nil)
            return
        }
    }

    /// What the source offers (its types, from `XdndTypeList` when it has more than three), its action list, and
    /// the window's rectangle on the root window. A source that cannot be read offers what its enter named.
    private func describe(
        _ source: X11.ID, types: [X11.ID], readTypeList: Bool
    ) async -> XdndTargetMachine.Event {
        var typeAtoms = types
        if readTypeList, let list = try? await property("XdndTypeList", of: source) {
            typeAtoms = list.items32.filter { $0 != X11.none }
        }
        // Only the first ClipboardLimits.maximumOfferedTypes distinct atoms are named: a source listing 100 000 types
        // would otherwise cost as many GetAtomName round trips before the drop could be answered.
        let limit = ClipboardLimits.maximumOfferedTypes
        var seen: Set<X11.ID> = []
        var limited: [X11.ID] = []
        for atom in typeAtoms where limited.count < limit && seen.insert(atom).inserted {
            limited.append(atom)
        }
        let names = (try? await backend.names(of: limited)) ?? [:]
        let targets = limited.compactMap { names[$0] }
        let actions = ((try? await property("XdndActionList", of: source))?.items32 ?? []).compactMap {
            atoms.action(for: $0)
        }
        var rectangle = XdndRectangle.empty
        if let reply = try? await backend.connection.request(
            X11RequestEncoder.translateCoordinates(
                from: window, to: backend.connection.info.rootWindow, x: 0, y: 0)),
            let size = handle?.size
        {
            let origin = X11Reply.translated(reply)
            rectangle = XdndRectangle(x: origin.x, y: origin.y, width: size.width, height: size.height)
        }
        return .described(source: source, targets: targets, actions: actions, window: rectangle)
    }

    /// The value of the property `name` of `window` (up to 1 MiB).
    private func property(_ name: String, of window: X11.ID) async throws -> X11Reply.Property {
        let atom = try await backend.atom(name)
        let reply = try await backend.connection.request(
            X11RequestEncoder.getProperty(window, property: atom, delete: false, length: 1 << 18))
        do {
            return try X11Reply.property(reply)
        } catch {
            throw ClipboardError(code: .protocolViolation, message: "Malformed GetProperty reply: \(error.reason).")
        }
    }

    /// Ends drop `id` as ``finish(_:performed:)`` does, returning once its `XdndFinished` is sent (or the window's loop
    /// has ended, or the task is cancelled).
    func finishSent(_ drop: XdndTargetMachine.Drop, performed: DesktopDragAction?) async {
        let sent = finishWaiters.withLock { waiters in
            if let latch = waiters[drop.id] { return latch }
            let latch = Latch<Void>()
            waiters[drop.id] = latch
            return latch
        }
        finish(drop, performed: performed)
        await sent.wait()
    }

    /// Ends drop `id`: through the machine while the window is open, else straight to the source.
    func finish(_ drop: XdndTargetMachine.Drop, performed: DesktopDragAction?) {
        guard events.post(.finish(drop: drop.id, performed: performed), until: .after(.zero)) != .posted else {
            return
        }
        finishWaiters.withLock { $0.removeValue(forKey: drop.id) }?.open()
        let message = XdndMessage.finished(
            target: window, succeeded: performed != nil, action: performed.map(atoms.atom(for:)) ?? X11.none)
        _ = try? backend.connection.send(message.request(to: drop.source, atoms: atoms))
    }
}

/// A drop on an ``X11DesktopWindow``: the source's offer, read through `XdndSelection` with the drop's timestamp.
final class XdndDropHandle: DesktopDropHandle {
    let session: XdndTargetSession
    let drop: XdndTargetMachine.Drop
    private let finished = SanitizedMutex(false)

    init(session: XdndTargetSession, drop: XdndTargetMachine.Drop) {
        self.session = session
        self.drop = drop
    }

    deinit { finishNow(performed: nil) }

    var targets: [String] { drop.targets }
    var sourceActions: [DesktopDragAction] { drop.sourceActions }
    var action: DesktopDragAction { drop.action }
    var location: DesktopPoint { drop.location }
    var source: String? { "0x" + String(drop.source, radix: 16) }

    func receive(_ target: String) async throws -> TransferByteStream {
        guard drop.targets.contains(target) else {
            throw ClipboardError(
                code: .typeUnavailable,
                message: "The drop from \(source ?? "?") does not offer \(target); it offers "
                    + "\(drop.targets.joined(separator: ", ")).", source: target)
        }
        let backend = session.backend
        let selection = try await backend.atom("XdndSelection")
        return try await backend.receive(target, from: selection, named: "XdndSelection", time: drop.time)
    }

    func finish(performed: DesktopDragAction?) async {
        guard takeFinish() else { return }
        await session.finishSent(drop, performed: performed)
    }

    /// Whether this call is the first to finish the drop.
    private func takeFinish() -> Bool {
        finished.withLock { finished in
            defer { finished = true }
            return !finished
        }
    }

    /// Finishes once; later calls do nothing.
    func finishNow(performed: DesktopDragAction?) {
        guard takeFinish() else { return }
        session.finish(drop, performed: performed)
    }
}
