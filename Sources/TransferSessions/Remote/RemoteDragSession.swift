import Foundation
public import TransferKit
import TransferKitPlatform
import UniformTypes

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
///     list.edit { $0.insert(contentsOf: models, at: 0) }
/// }
/// ```
///
/// **If a process dies** — without a ``SessionDecisionRecord`` the protocol alone decides: before the commit
/// reaches the source the items stay in the source; a destination that stored the items and died before its commit
/// left could then hold copies, which is why a destination with durable storage passes a record (see there).
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

    private let connection: SessionConnection<SourceMessage>
    private let state: SharedState
    private let observer: (@Sendable (RemoteSessionEvent) async -> Void)?

    fileprivate struct State {
        var nextRequest: UInt32 = 1
        var loads: [UInt32: LoadChannel] = [:]
        var reply: CheckedContinuation<SourceMessage?, Never>?
        var pendingReplies: [SourceMessage] = []
        var closedReason: TransferSessionError?
        var isClosed = false
        var dropStarted = false
    }

    private init(
        offer: (id: String, origin: TransferSessionOrigin, allowsMove: Bool, allowsOther: Bool),
        items: [SessionWire.Item], destination: TransferSessionOrigin, connection: SessionConnection<SourceMessage>,
        state: SharedState, observer: (@Sendable (RemoteSessionEvent) async -> Void)?
    ) {
        self.id = DragSession.ID(rawValue: offer.id)
        self.origin = offer.origin
        self.destination = destination
        self.allowsMoveOperation = offer.allowsMove
        self.allowsMoveToOtherApplications = offer.allowsOther
        self.connection = connection
        self.state = state
        self.observer = observer
        var dragItems: [DragItem] = []
        for (index, item) in items.enumerated() {
            let provider = TransferProvider()
            for type in item.types.compactMap(UniformType.init) {
                provider.registerStreamRepresentation(for: type) { [connection, state] progress in
                    try await Self.load(
                        item: index, type: type, connection: connection, state: state, progress: progress)
                }
            }
            dragItems.append(DragItem(id: TransferItemID(item.id), provider: provider))
        }
        self.items = dragItems
    }

    deinit {
        connection.close()
    }

    /// Connects to a session published at `path` and reads its offer.
    /// - Parameters:
    ///   - path: The socket of a ``DragSessionPublication``.
    ///   - origin: This process's application and process (the source applies the move rule to it).
    ///   - timeout: How long to wait for the source's answers.
    ///   - observer: Told of each step of a drop, for logs and tests.
    /// - Throws: ``TransferSessionError`` with `disconnected` when nothing listens at `path`, `protocolViolation`
    ///   when the peer is not a session source of this protocol version, `timedOut` when it does not answer.
    public static func connect(
        toPath path: String, origin: TransferSessionOrigin = .current, timeout: Duration = .seconds(30),
        observer: (@Sendable (RemoteSessionEvent) async -> Void)? = nil
    ) async throws(TransferSessionError) -> RemoteDragSession {
        let socket: UnixSocket
        do {
            socket = try UnixSocket.connect(toPath: path)
        } catch {
            throw TransferSessionError(
                code: .disconnected, message: "No drag session is published at \(path): \(error.reason).",
                cause: error, source: path)
        }
        let connection = SessionConnection<SourceMessage>(socket: socket, timeout: timeout)
        let state = SharedState()
        connection.start(
            receive: { message, descriptors in Self.receive(message, descriptors: &descriptors, state: state) },
            closed: { reason in Self.closed(reason, state: state, socket: socket) })
        do {
            try connection.send(
                DestinationMessage.hello(
                    version: SessionWire.version, application: origin.applicationIdentifier,
                    process: origin.processIdentifier))
        } catch {
            // The reader may already know better why the connection ended (the peer's garbage).
            _ = await Self.nextReply(state: state, connection: connection, timeout: timeout)
            throw state.withLock { $0.closedReason } ?? error
        }
        let reply = await Self.nextReply(state: state, connection: connection, timeout: timeout)
        guard
            case .offer(let version, let session, let application, let process, let move, let other, let items)? =
                reply
        else {
            connection.close()
            if case .finished(_, let message)? = reply {
                throw TransferSessionError(
                    code: .protocolViolation, message: "The source refused the connection: \(message ?? "no reason").",
                    source: path)
            }
            throw state.withLock { $0.closedReason }
                ?? TransferSessionError(
                    code: .protocolViolation, message: "The peer did not answer with a session offer.", source: path)
        }
        guard version == SessionWire.version else {
            connection.close()
            throw TransferSessionError(
                code: .protocolViolation, message: "The source speaks version \(version), not \(SessionWire.version).",
                source: path)
        }
        let sourceOrigin = TransferSessionOrigin(applicationIdentifier: application, processIdentifier: process)
        return RemoteDragSession(
            offer: (session, sourceOrigin, move, other), items: items, destination: origin, connection: connection,
            state: state, observer: observer)
    }

    /// The operation a proposal of `proposed` gets, by the rule of ``DragSession/resolvedOperation(for:at:)``
    /// (which the source applies again when the drop comes).
    public func resolvedOperation(for proposed: DropOperation) -> DropOperation {
        guard proposed == .move else { return proposed }
        let sameApplication = origin.isSameApplication(as: destination)
        return allowsMoveOperation && (sameApplication || allowsMoveToOtherApplications) ? .move : .cancel
    }

    /// Drops the session's items here; the counterpart of ``DragSession/drop(_:on:commit:)`` across processes.
    ///
    /// The source resolves the proposal and reserves a move's items; `commit` loads and stores them as its last
    /// step. With a `decisions` record, the destination then records `committed` (a record that already says
    /// `aborted` makes the drop fail: undo the insertion then, as the error says). Then the source is told, and
    /// removes a move's items.
    /// - Parameters:
    ///   - proposal: What the destination proposes.
    ///   - decisions: The record shared with the source, for a move that survives a crash.
    ///   - commit: The destination's part, given the drop session and the resolved operation.
    /// - Returns: What happened.
    /// - Throws: ``TransferSessionError``: `sessionEnded` when this session already dropped, `itemsUnavailable`
    ///   when the source holds none of the items any more, `commitFailed` (or the commit's own
    ///   ``TransferSessionError``) when the commit throws, `cancelled` when the task is cancelled, `disconnected`
    ///   when the source goes away before it answered.
    public func drop<Value>(
        _ proposal: DropProposal, decisions: SessionDecisionRecord? = nil,
        commit: (DropSession, DropOperation) async throws -> Value
    ) async throws(TransferSessionError) -> DropResult<Value> {
        let first = state.withLock { state in
            defer { state.dropStarted = true }
            return !state.dropStarted
        }
        guard first else {
            throw TransferSessionError(
                code: .sessionEnded, message: "This remote session was already dropped.", source: id.rawValue)
        }
        try connection.send(DestinationMessage.drop(operation: proposal.operation.rawValue))
        let reply = await Self.nextReply(state: state, connection: connection, timeout: nil)
        switch reply {
        case .reserved(let name, let ids)?:
            guard let operation = DropOperation(rawValue: name), operation.transfersItems else {
                throw protocolError("The source reserved items for the operation \(name).")
            }
            await observe(.reservationReceived)
            let reserved = Set(ids)
            let dropped = items.filter { reserved.contains($0.id.rawValue) }
            let unavailable = items.map(\.id).filter { !reserved.contains($0.rawValue) }
            let drop = DropSession(
                localDragSession: nil, items: dropped, operation: operation, intent: proposal.intent,
                isSameProcess: false)
            let value: Value
            do {
                try Task.checkCancellation()
                value = try await commit(drop, operation)
            } catch {
                try? connection.send(DestinationMessage.abort(message: "\(error)"))
                _ = await Self.nextReply(state: state, connection: connection, timeout: connection.timeout)
                throw DragSession.commitError(error, sessionID: id)
            }
            await observe(.committedLocally)
            if let decisions, operation == .move {
                let decision = try decisions.decide(.committed, for: id, items: dropped.map(\.id))
                guard decision.outcome == .committed else {
                    throw TransferSessionError(
                        code: .commitFailed,
                        message: "The source aborted this move before it was recorded (it lost its destination); "
                            + "remove the items the commit inserted.", source: id.rawValue)
                }
                await observe(.decided)
            }
            try connection.send(DestinationMessage.commit)
            await observe(.commitSent)
            let finished = await Self.nextReply(state: state, connection: connection, timeout: nil)
            if case .finished(let name, _)? = finished, name != operation.rawValue, decisions == nil {
                throw TransferSessionError(
                    code: .commitFailed, message: "The source ended the drop with \(name) after the commit.",
                    source: id.rawValue)
            }
            connection.close()
            return DropResult(
                operation: operation, value: value, transferredItems: dropped.map(\.id), unavailableItems: unavailable)
        case .finished(let name, let message)?:
            connection.close()
            let operation = DropOperation(rawValue: name) ?? .cancel
            if let message {
                let code: TransferSessionError.Code =
                    message.contains("itemsUnavailable") ? .itemsUnavailable : .sessionEnded
                throw TransferSessionError(
                    code: code, message: "The source ended the drop: \(message)", source: id.rawValue)
            }
            return DropResult(operation: operation, value: nil, transferredItems: [], unavailableItems: [])
        default:
            throw state.withLock { $0.closedReason }
                ?? protocolError("The source did not answer the drop with a reservation.")
        }
    }

    /// Disconnects; loads in progress fail, and a drop not committed leaves the items with the source.
    public func close() {
        connection.close()
    }

    private func protocolError(_ message: String) -> TransferSessionError {
        connection.close()
        return TransferSessionError(code: .protocolViolation, message: message, source: id.rawValue)
    }

    private func observe(_ event: RemoteSessionEvent) async {
        await observer?(event)
    }

    // MARK: - Messages

    /// Waits for the next reply that is not about a load: the offer, the reservation, the end.
    private static func nextReply(
        state: SharedState, connection: SessionConnection<SourceMessage>, timeout: Duration?
    ) async -> SourceMessage? {
        // A Dispatch timer rather than a sleeping task: it fires on time even when every thread of the task pool
        // is busy.
        let timer = timeout.map { timeout in
            let expiry = DispatchWorkItem {
                state.withLock { state in
                    if state.closedReason == nil {
                        state.closedReason = TransferSessionError(
                            code: .timedOut, message: "The source did not answer within \(timeout).")
                    }
                }
                connection.close()
            }
            let (seconds, attoseconds) = timeout.components
            let nanoseconds = Int(clamping: seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000)
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds), execute: expiry)
            return expiry
        }
        defer { timer?.cancel() }
        return await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> SourceMessage?? in
                if !state.pendingReplies.isEmpty { return state.pendingReplies.removeFirst() }
                if state.isClosed { return .some(nil) }
                state.reply = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    private static func receive(_ message: SourceMessage, descriptors: inout [Int32], state: SharedState) {
        switch message {
        case .offer, .reserved, .finished:
            let waiting = state.withLock { state -> CheckedContinuation<SourceMessage?, Never>? in
                guard let reply = state.reply else {
                    state.pendingReplies.append(message)
                    return nil
                }
                state.reply = nil
                return reply
            }
            waiting?.resume(returning: message)
            if case .finished = message {
                for load in state.withLock({ Array($0.loads.values) }) {
                    load.fail(TransferError(code: .cancelled, message: "The source ended the session."))
                }
            }
        case .begin(let request, let length):
            state.withLock { $0.loads[request] }?.begin(length: length)
        case .chunk(let request, let bytes):
            state.withLock { $0.loads[request] }?.push(bytes)
        case .file(let request, let length):
            guard !descriptors.isEmpty else { return }
            let descriptor = descriptors.removeFirst()
            if let load = state.withLock({ $0.loads.removeValue(forKey: request) }) {
                load.file(descriptor, length: length)
            } else {
                Syscall.close(descriptor)
            }
        case .end(let request):
            state.withLock { $0.loads.removeValue(forKey: request) }?.finish()
        case .failed(let request, let code, let message):
            let error =
                code == "cancelled"
                ? TransferError(code: .cancelled, message: message)
                : TransferError(code: .loaderFailed, message: "The source could not load it (\(code)): \(message)")
            state.withLock { $0.loads.removeValue(forKey: request) }?.fail(error)
        }
    }

    private static func closed(_ reason: TransferSessionError?, state: SharedState, socket: UnixSocket) {
        let (waiting, loads) = state.withLock { state in
            state.isClosed = true
            state.closedReason =
                state.closedReason ?? reason
                ?? TransferSessionError(code: .disconnected, message: "The source process closed the session.")
            defer {
                state.reply = nil
                state.loads = [:]
            }
            return (state.reply, Array(state.loads.values))
        }
        waiting?.resume(returning: nil)
        for load in loads {
            load.fail(TransferError(code: .loaderFailed, message: "The source process went away during the load."))
        }
        // Not closed here: a send on another thread may still hold the descriptor, which the socket closes when
        // its last reference goes.
        socket.shutdown()
    }

    /// Starts a load of item `item`'s `type` and returns its bytes as they come.
    private static func load(
        item: Int, type: UniformType, connection: SessionConnection<SourceMessage>, state: SharedState,
        progress: TransferProgress
    ) async throws -> TransferByteStream {
        let channel = LoadChannel(timeout: connection.timeout)
        let request = try state.withLock { state throws(TransferError) -> UInt32 in
            guard !state.isClosed else {
                throw TransferError(code: .loaderFailed, message: "The source process has gone; nothing can load.")
            }
            let request = state.nextRequest
            state.nextRequest &+= 1
            state.loads[request] = channel
            return request
        }
        channel.onCancel = {
            if state.withLock({ $0.loads.removeValue(forKey: request) }) != nil {
                try? connection.send(DestinationMessage.cancel(request: request))
            }
        }
        try connection.send(DestinationMessage.load(request: request, item: item, type: type.identifier))
        let length = try await channel.started()
        return TransferByteStream(length: length, channel.chunks)
    }
}

/// The state a remote session shares with its connection's reader thread.
private final class SharedState: Sendable {
    private let mutex = SanitizedMutex(RemoteDragSession.State())

    func withLock<Result, Failure: Error>(
        _ body: (inout sending RemoteDragSession.State) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        try mutex.withLock(body)
    }
}
