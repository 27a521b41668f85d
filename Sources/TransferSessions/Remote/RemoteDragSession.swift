public import TransferKit
package import TransferKitPlatform
import UniformTypes

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A drag session published by another process, seen from a destination: the destination half of a cross-process
/// drag.
///
/// Connecting gives the items and their types at once; each item's ``DragItem/provider`` loads a representation
/// only when asked, over the socket, with progress and cancellation (cancelling the load stops the source's
/// loader). ``drop(_:decisions:commit:)`` mirrors ``DragSession/drop(_:on:commit:)``: the source resolves the
/// operation by Apple's rule with this process's origin and reserves a move's items, the destination's `commit`
/// stores them, and only then is the source told to remove them.
///
/// ```swift
/// let remote = try await RemoteDragSession.connect(toPath: socketPath)
/// let result = try await remote.drop(DropProposal(operation: .move, intent: .insertAtIndex(0))) { drop, _ in
///     let models = try await drop.loadObjects(ofClass: Model.self)
///     try list.edit { $0.insert(contentsOf: models, at: 0) }
/// }
/// ```
///
/// **If a process dies** — without a ``SessionDecisionRecord`` the protocol alone decides: before the commit
/// reaches the source the items stay in the source; a destination that stored the items and died before its commit
/// left could then hold copies, which is why a destination with durable storage passes a record (see there).
///
/// **Deadlines** — every wait for the source ends within `timeout`: the connect itself (a full listen queue), the
/// offer, each load's first answer and each next chunk (a passed pipe that never ends, too), the reservation and
/// the end of the drop. A load that runs out of time fails with `loaderFailed` whose `cause` is a `timedOut`
/// ``TransferSessionError``; a drop, with `timedOut` itself.
public final class RemoteDragSession: Sendable {
    /// The session's identity, as the source gave it.
    public let id: DragSession.ID
    /// The source's application and process.
    public let origin: TransferSessionOrigin
    /// This process's application and process, as the source was told.
    public let destination: TransferSessionOrigin
    /// Whether the source allows a move at all.
    public let allowsMoveOperation: Bool
    /// Whether the source allows a move into another application.
    public let allowsMoveToOtherApplications: Bool
    /// The items; their providers load from the source, and they have no local objects.
    public let items: [DragItem]

    private let link: SourceLink
    private let observer: (@Sendable (RemoteSessionEvent) async -> Void)?
    private let dropStarted = SanitizedMutex(false)

    private init(
        offer: (id: String, origin: TransferSessionOrigin, allowsMove: Bool, allowsOther: Bool),
        items: [SessionWire.Item], destination: TransferSessionOrigin, link: SourceLink,
        observer: (@Sendable (RemoteSessionEvent) async -> Void)?
    ) {
        self.id = DragSession.ID(rawValue: offer.id)
        self.origin = offer.origin
        self.destination = destination
        self.allowsMoveOperation = offer.allowsMove
        self.allowsMoveToOtherApplications = offer.allowsOther
        self.link = link
        self.observer = observer
        var dragItems: [DragItem] = []
        for (index, item) in items.enumerated() {
            let provider = TransferProvider()
            provider.suggestedName = item.name
            for type in item.types.compactMap(UniformType.init) {
                provider.registerStreamRepresentation(for: type) { [link] progress in
                    try await link.load(item: index, type: type)
                }
            }
            dragItems.append(DragItem(id: TransferItemID(item.id), provider: provider))
        }
        self.items = dragItems
    }

    deinit {
        link.close()
    }

    /// Connects to a session published at `path` and reads its offer.
    /// - Parameters:
    ///   - path: The socket of a ``DragSessionPublication``.
    ///   - origin: This process's application and process (the source applies the move rule to it).
    ///   - timeout: How long to wait for the source at each step (the connect, the offer, each load's answers, the
    ///     drop's).
    ///   - observer: Told of each step of a drop, for logs and tests.
    /// - Throws: ``TransferSessionError`` with `disconnected` when nothing listens at `path`, `protocolViolation`
    ///   when the peer is not a session source of a version this library speaks, `notPermitted` when the source
    ///   refuses this process, `timedOut` when it does not answer in time.
    public static func connect(
        toPath path: String, origin: TransferSessionOrigin = .current, timeout: Duration = .seconds(30),
        observer: (@Sendable (RemoteSessionEvent) async -> Void)? = nil
    ) async throws(TransferSessionError) -> RemoteDragSession {
        try await connect(toPath: path, origin: origin, timeout: timeout, clock: .continuous, observer: observer)
    }

    /// Connects as ``connect(toPath:origin:timeout:observer:)`` does, the time limits measured on `clock` (a
    /// test's manual clock; the connect itself waits in real time).
    package static func connect(
        toPath path: String, origin: TransferSessionOrigin = .current, timeout: Duration, clock: WireClock,
        observer: (@Sendable (RemoteSessionEvent) async -> Void)? = nil
    ) async throws(TransferSessionError) -> RemoteDragSession {
        let socket: UnixSocket
        do throws(SystemError) {
            socket = try await UnixSocket.connect(within: timeout) { deadline throws(SystemError) in
                try UnixSocket.connect(toPath: path, deadline: deadline)
            }
        } catch {
            if error.errorNumber == ErrorNumber.timedOut {
                throw TransferSessionError(
                    code: .timedOut, message: "The session at \(path) did not take the connection within \(timeout).",
                    cause: error, source: path)
            }
            throw TransferSessionError(
                code: .disconnected, message: "No drag session is published at \(path): \(error.reason).",
                cause: error, source: path)
        }
        return try await handshake(
            SourceLink(socket: socket, child: nil, timeout: timeout, clock: clock), source: path, origin: origin,
            observer: observer)
    }

    /// Says hello on a connected `link` and reads the source's offer: every form of connection ends here.
    /// - Parameter source: The source's name in errors (a socket's path, a command).
    static func handshake(
        _ link: SourceLink, source path: String, origin: TransferSessionOrigin,
        observer: (@Sendable (RemoteSessionEvent) async -> Void)?
    ) async throws(TransferSessionError) -> RemoteDragSession {
        let timeout = link.timeout
        let clock = link.clock
        link.start()
        do {
            try link.send(
                DestinationMessage.hello(
                    version: SessionWire.version, application: origin.applicationIdentifier,
                    process: origin.processIdentifier))
        } catch {
            // The reader may know better why the connection ended (the peer's garbage): its reason closes the
            // replies, and the wait throws it.
            _ = try await link.nextReply(until: .after(timeout, on: clock), waitingFor: "the session's offer")
            throw error
        }
        // Each wait has the whole time limit from its own start (the spec's rule): a process whose task pool is
        // busy must not lose the offer's wait to the time its connect spent queued.
        let reply = try await link.nextReply(until: .after(timeout, on: clock), waitingFor: "the session's offer")
        guard
            case .offer(let version, let session, let application, let process, let move, let other, let items) = reply
        else {
            link.close()
            if case .finished(_, let code, let message) = reply {
                throw TransferSessionError(
                    code: SessionWireCode.sessionEnd(code)?.sessionErrorCode ?? .protocolViolation,
                    message: "The source refused the connection: \(message ?? "no reason").", source: path)
            }
            throw TransferSessionError(
                code: .protocolViolation, message: "The peer did not answer with a session offer.", source: path)
        }
        guard SessionWire.supportedVersions.contains(version) else {
            link.close()
            throw TransferSessionError(
                code: .protocolViolation, message: "The source speaks version \(version), not \(SessionWire.version).",
                source: path)
        }
        let sourceOrigin = TransferSessionOrigin(applicationIdentifier: application, processIdentifier: process)
        return RemoteDragSession(
            offer: (session, sourceOrigin, move, other), items: items, destination: origin, link: link,
            observer: observer)
    }

    /// The operation a proposal of `proposed` gets, by the rule of ``DragSession/resolvedOperation(for:at:)``
    /// (which the source applies again when the drop comes).
    public func resolvedOperation(for proposed: DropOperation) -> DropOperation {
        proposed == .move && moveRefusal() != nil ? .cancel : proposed
    }

    /// Why a move proposed here would be cancelled by the rule of ``DragSession/moveRefusal(at:)``, or `nil` when
    /// it may go ahead.
    public func moveRefusal() -> DropRefusal? {
        // A publication offers a move only when its session has a source (see `DragSessionPublication`), so a
        // session without one arrives here as one that does not allow a move.
        DropRefusal.ofMove(
            allowsMoveOperation: allowsMoveOperation, hasSource: true,
            allowsMoveToOtherApplications: allowsMoveToOtherApplications, source: origin, destination: destination)
    }

    /// Drops the session's items here; the counterpart of ``DragSession/drop(_:on:commit:)`` across processes.
    ///
    /// The source resolves the proposal and reserves a move's items; `commit` loads and stores them as its last
    /// step. With a `decisions` record, the destination then records `committed` (a record that already says
    /// `aborted` makes the drop fail: undo the insertion then, as the error says). Then the source is told, and
    /// removes a move's items. Where the items are at each step is the package's `MoveDecision` table
    /// (Schemas/transfer-session.md section 4.1).
    /// - Parameters:
    ///   - proposal: What the destination proposes.
    ///   - decisions: The record shared with the source, for a move that survives a crash.
    ///   - commit: The destination's part, given the drop session and the resolved operation.
    /// - Returns: What happened.
    /// - Throws: ``TransferSessionError``: `sessionEnded` when this session already dropped, `itemsUnavailable`
    ///   when the source holds none of the items any more, `commitFailed` (or the commit's own
    ///   ``TransferSessionError``) when the commit throws, `cancelled` when the task is cancelled, `disconnected`
    ///   when the source goes away before it answered, `timedOut` when it does not answer within the time limit.
    public func drop<Value>(
        _ proposal: DropProposal, decisions: SessionDecisionRecord? = nil,
        commit: (DropSession, DropOperation) async throws -> Value
    ) async throws(TransferSessionError) -> DropResult<Value> {
        let first = dropStarted.withLock { started in
            defer { started = true }
            return !started
        }
        guard first else {
            throw TransferSessionError(
                code: .sessionEnded, message: "This remote session was already dropped.", source: id.rawValue)
        }
        link.didSendDrop()
        try link.send(DestinationMessage.drop(operation: proposal.operation))
        let reply = try await link.nextReply(
            until: .after(link.timeout, on: link.clock), waitingFor: "the answer to the drop")
        switch reply {
        case .reserved(let operation, let ids):
            guard operation.transfersItems else {
                throw protocolError("The source reserved items for the operation \(operation).")
            }
            let record = operation == .move ? decisions : nil
            await observe(.reservationReceived)
            let reserved = Set(ids)
            let dropped = items.filter { reserved.contains($0.id.rawValue) }
            let unavailable = items.map(\.id).filter { !reserved.contains($0.rawValue) }
            let drop = DropSession(
                localDragSession: nil, items: dropped, operation: operation, intent: proposal.intent,
                isSameProcess: false)
            let id = self.id
            let effects = MoveEffects(
                send: { [link] message throws(TransferSessionError) in
                    switch message {
                    case .commit:
                        try link.send(DestinationMessage.commit)
                    case .abort(let reason):
                        try link.send(DestinationMessage.abort(message: reason))
                        _ = try? await link.nextReply(
                            until: .after(link.timeout, on: link.clock), waitingFor: "the end of the drop")
                    case .reserved:
                        return  // The destination reserves nothing.
                    }
                },
                decide: { outcome throws(TransferSessionError) in
                    try record?.decide(outcome, for: id, items: dropped.map(\.id)).outcome ?? outcome
                },
                entered: { [self] phase in
                    // (`commitSent` is told once the commit left, in `end`.)
                    if phase == .stored { await observe(.committedLocally) }
                    if phase == .decided { await observe(.decided) }
                })
            let value: Value
            do {
                value = try await MoveDriver.runDestination(
                    usesRecord: record != nil, effects: effects, operation: operation,
                    commit: { () throws(TransferSessionError) in
                        do {
                            try Task.checkCancellation()
                            return try await commit(drop, operation)
                        } catch {
                            throw DragSession.commitError(error, sessionID: id)
                        }
                    },
                    end: { [self] in
                        await observe(.commitSent)
                        let finished = try? await link.nextReply(
                            until: .after(link.timeout, on: link.clock), waitingFor: "the end of the drop")
                        guard case .finished(let ended, _, _)? = finished else { return nil }
                        return ended
                    })
            } catch {
                var error = error
                error.source = error.source ?? id.rawValue
                throw error
            }
            link.close()
            return DropResult(
                operation: operation, value: value, transferredItems: dropped.map(\.id), unavailableItems: unavailable)
        case .finished(let operation, let code, let message):
            link.close()
            if let code = SessionWireCode.sessionEnd(code) {
                throw TransferSessionError(
                    code: code.sessionErrorCode, message: "The source ended the drop: \(message ?? "\(code)")",
                    source: id.rawValue)
            }
            if let message {
                throw TransferSessionError(
                    code: .sessionEnded, message: "The source ended the drop: \(message)", source: id.rawValue)
            }
            let refusal = proposal.operation == .move && operation == .cancel ? moveRefusal() : nil
            return DropResult(
                operation: operation, value: nil, transferredItems: [], unavailableItems: [], refusal: refusal)
        default:
            throw protocolError("The source did not answer the drop with a reservation.")
        }
    }

    /// Disconnects; loads in progress fail, and a drop not committed leaves the items with the source.
    public func close() {
        link.close()
    }

    /// Waits until the connection to the source has ended (the source went, the link broke, or ``close()``).
    package func disconnected() async {
        _ = await link.ended.wait()
    }

    private func protocolError(_ message: String) -> TransferSessionError {
        link.close()
        return TransferSessionError(code: .protocolViolation, message: message, source: id.rawValue)
    }

    private func observe(_ event: RemoteSessionEvent) async {
        await observer?(event)
    }
}

/// The destination's connection to the source: its reader routes the source's messages to the waiting drop (the
/// offer, the reservation, the end) or to the load they belong to.
final class SourceLink: Sendable {
    let connection: FramedConnection<LengthPrefixedFrames>
    /// The process at the other end of the stream, when the session runs over a command's standard streams.
    let child: ChildStream?
    let timeout: Duration
    /// The clock the time limits are measured on.
    let clock: WireClock
    private let replies = Mailbox<SourceMessage, TransferSessionError>(capacity: 16)
    /// Opens when the connection has ended.
    let ended = Latch<Void>()
    /// The connection's protocol: which message may come when, and which load each belongs to.
    private let machine = MachineShell(SessionDestinationMachine<LoadChannel>())

    /// - Parameter input: Where the source's bytes come from when not from `socket` (the child's piped standard
    ///   output); the link takes it.
    init(socket: UnixSocket, input: Int32? = nil, child: ChildStream?, timeout: Duration, clock: WireClock) {
        if let input {
            connection = FramedConnection(socket: socket, input: input, sendTimeout: timeout, clock: clock)
        } else {
            connection = FramedConnection(socket: socket, sendTimeout: timeout, clock: clock)
        }
        self.child = child
        self.timeout = timeout
        self.clock = clock
    }

    func start() {
        connection.start(
            decoder: SessionWire.frames,
            onFrame: { [self] (body, descriptors) throws(WireViolation) in
                let message: SourceMessage
                do throws(TransferSessionError) {
                    // A chunk in the form TransferKit sends is read in one pass; anything else by the decoder.
                    if let chunk = SessionWire.decodeChunk(body[...]) {
                        message = chunk
                    } else {
                        message = try SessionWire.decode(SourceMessage.self, from: body[...])
                    }
                } catch {
                    throw WireViolation(error.message, cause: error)
                }
                try receive(message, descriptors: &descriptors)
            },
            onEnd: { [self] end in closed(end) })
    }

    /// Ends the connection, and the command at its other end (after a grace period) when there is one.
    func close() {
        connection.close()
        child?.terminate()
    }

    /// Sends a message.
    /// - Throws: ``TransferSessionError`` with `timedOut` or `disconnected`.
    func send(_ message: DestinationMessage) throws(TransferSessionError) {
        do {
            try SessionWire.send(message, on: connection, to: "source")
        } catch {
            // The reader may know better why the connection ended.
            throw machine.current.closedReason ?? error
        }
    }

    /// Waits for the next message that is not about a load: the offer, the reservation, the end.
    /// - Throws: ``TransferSessionError``: `timedOut` at the deadline (the connection then ends), or why the
    ///   connection ended.
    func nextReply(
        until deadline: Deadline, waitingFor what: String
    ) async throws(TransferSessionError) -> SourceMessage {
        do {
            return try await replies.receive(until: deadline)
        } catch {
            switch error {
            case .closed(let reason):
                throw reason
            case .finished:
                throw TransferSessionError(code: .disconnected, message: "The source process closed the session.")
            case .cancelled:
                connection.close()
                throw TransferSessionError(code: .cancelled, message: "The wait for \(what) was cancelled.")
            case .timedOut:
                connection.close()
                throw TransferSessionError(
                    code: .timedOut, message: "The source did not send \(what) within \(timeout).")
            }
        }
    }

    /// Notes that this side sent its drop, so the reservation may come.
    func didSendDrop() {
        run(.sentDrop)
    }

    /// Feeds `event` to the machine and carries out what it says; a violation it finds is ignored here (only a
    /// message from the source can break the protocol, and those go through ``receive(_:descriptors:)``).
    private func run(_ event: SessionDestinationMachine<LoadChannel>.Event) {
        var descriptors: [Int32] = []
        try? machine.runSynchronously(event) { action throws(WireViolation) in
            try perform(action, descriptors: &descriptors)
        }
    }

    /// Carries out what the machine says of a message from the source.
    private func receive(_ message: SourceMessage, descriptors: inout [Int32]) throws(WireViolation) {
        try machine.runSynchronously(.received(message, hasDescriptor: !descriptors.isEmpty)) {
            action throws(WireViolation) in try perform(action, descriptors: &descriptors)
        }
    }

    /// Carries out one of the machine's actions; `descriptors` are those that came with the message at hand.
    /// - Returns: What follows from it: a load whose request could not be sent is forgotten.
    /// - Throws: ``WireViolation`` when the source broke the protocol.
    private func perform(
        _ action: SessionDestinationMachine<LoadChannel>.Action, descriptors: inout [Int32]
    ) throws(WireViolation) -> SessionDestinationMachine<LoadChannel>.Event? {
        switch action {
        case .reply(let reply):
            replies.post(reply)
        case .sessionEnded(let reply, let running):
            replies.post(reply)
            for load in running {
                load.fail(TransferError(code: .cancelled, message: "The source ended the session."))
            }
        case .begin(let channel, let length):
            channel.begin(length: length)
        case .chunk(let channel, let bytes):
            channel.push(bytes)
        case .file(let channel, let length):
            channel.file(descriptors.removeFirst(), length: length)
        case .end(let channel):
            channel.finish()
        case .fail(let channel, let code, let text):
            channel.fail(code.loadError(message: text))
        case .ignore(let closingDescriptor):
            if closingDescriptor, !descriptors.isEmpty { Syscall.close(descriptors.removeFirst()) }
        case .violation(let reason):
            throw WireViolation(reason)
        case .requestLoad(let channel, let request, let item, let type):
            channel.onCancel = { [self] in run(.cancelLoad(request)) }
            do {
                try send(DestinationMessage.load(request: request, item: item, type: type))
            } catch {
                channel.fail(
                    TransferError(code: .loaderFailed, message: "The load could not be asked for.", cause: error))
                return .loadNotSent(request)
            }
        case .refuseLoad(let channel):
            channel.fail(
                TransferError(
                    code: .loaderFailed, message: "The source process has gone; nothing can load.",
                    cause: machine.current.closedReason))
        case .sendCancel(let request):
            try? send(DestinationMessage.cancel(request: request))
        case .connectionEnded(let running):
            let reason =
                machine.current.closedReason
                ?? TransferSessionError(code: .disconnected, message: "The session was closed.")
            replies.close(reason)
            _ = ended.open()
            for load in running {
                load.fail(
                    TransferError(
                        code: .loaderFailed, message: "The source process went away during the load: \(reason.message)",
                        cause: reason))
            }
        }
        return nil
    }

    private func closed(_ end: FramedConnection<LengthPrefixedFrames>.End) {
        let reason: TransferSessionError =
            switch end {
            case .violation(let violation):
                TransferSessionError(
                    code: .protocolViolation, message: "The source broke the session protocol: \(violation.message)",
                    cause: violation.cause)
            case .truncated:
                TransferSessionError(code: .protocolViolation, message: "The source closed the session mid-frame.")
            case .silent(let limit):
                TransferSessionError(code: .timedOut, message: "The source said nothing for \(limit).")
            case .closed:
                TransferSessionError(code: .disconnected, message: "The session was closed.")
            case .peerClosed, .failed:
                TransferSessionError(code: .disconnected, message: "The source process closed the session (\(end)).")
            }
        run(.connectionEnded(reason))
    }

    /// Starts a load of item `item`'s `type` and returns its bytes as they come.
    func load(item: Int, type: UniformType) async throws -> TransferByteStream {
        let channel = LoadChannel(timeout: timeout, clock: clock)
        // The request is sent (or refused, or fails) at once; the channel then has the answer or waits for it.
        run(.startLoad(channel, item: item, type: type.identifier))
        let length = try await channel.waitUntilStarted()
        return TransferByteStream(length: length, channel.chunks)
    }
}
