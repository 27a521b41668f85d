import Foundation
import TransferKit
import TransferKitPlatform
public import UniformTypes

/// A drag session offered to other processes on a Unix domain socket: the source half of a cross-process drag.
///
/// A destination process connects with ``RemoteDragSession/connect(toPath:origin:timeout:observer:)`` and sees the items and
/// their types at once; bytes cross only when it loads a representation, in chunks, with cancellation both ways
/// (a file representation crosses as an open file descriptor). Representations registered with
/// `TransferVisibility.ownProcess` are never offered. The destination's drop runs the session's own two-phase move
/// (``DragSession/drop(_:on:commit:)``) with the destination's origin: the items are reserved in the
/// ``DragSource``, the destination commits, and only when its commit arrives are they removed, like Wayland's
/// `dnd_finished`. If the destination disconnects first, the source keeps them.
///
/// With a ``SessionDecisionRecord`` shared by both processes, the move stays exactly-once even when either process
/// dies: see the record for which side keeps the items.
///
/// ```swift
/// let session = try list.beginDrag(["3"])
/// let publication = try DragSessionPublication(publishing: session, atPath: socketPath)
/// let operation = await publication.ended()   // `move` once another process dropped and committed
/// publication.close()
/// ```
///
/// Several destinations may connect (one after another as a drag passes over them, or at once); the session drops
/// once. The publication stops listening and removes its socket when the session ends or on ``close()``.
public final class DragSessionPublication: Sendable {
    /// The session offered.
    public let session: DragSession
    /// The socket's path.
    public let path: String
    /// The decision record, for moves that survive a crash.
    public let decisions: SessionDecisionRecord?

    let timeout: Duration
    let observer: (@Sendable (RemoteSessionEvent) async -> Void)?
    private let listener: UnixSocket
    private let state = SanitizedMutex(State())

    private struct State {
        var endpoints: [ObjectIdentifier: SourceEndpoint] = [:]
        var isClosed = false
        /// Drops running through this publication, until their destination has been told how they ended.
        var dropsInFlight = 0
        var quietWaiters: [CheckedContinuation<Void, Never>] = []
    }

    /// Publishes `session` at `path`.
    /// - Parameters:
    ///   - session: The session; it should still be active.
    ///   - path: Where to listen; nothing may be there yet.
    ///   - decisions: The record both processes share, for moves that survive a crash; `nil` for none.
    ///   - timeout: How long to wait for a destination that does not read what the source sends.
    ///   - observer: Told of each step of a drop, for logs and tests (a step waits until it returns).
    /// - Throws: ``TransferSessionError`` with `disconnected` when the socket cannot be made at `path`.
    public init(
        publishing session: DragSession, atPath path: String, decisions: SessionDecisionRecord? = nil,
        timeout: Duration = .seconds(30), observer: (@Sendable (RemoteSessionEvent) async -> Void)? = nil
    ) throws(TransferSessionError) {
        self.session = session
        self.path = path
        self.decisions = decisions
        self.timeout = timeout
        self.observer = observer
        do {
            listener = try UnixSocket.listen(atPath: path)
        } catch {
            throw TransferSessionError(
                code: .disconnected, message: "The session cannot listen at \(path): \(error.reason).", cause: error,
                source: path)
        }
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "TransferSessions listener"
        thread.start()
        Task { [self] in
            _ = await session.ended()
            // Let the destination hear how the session ended before the socket goes.
            close(waitingForEndpoints: true)
        }
    }

    /// Waits until the session has ended and a destination that dropped it has been told the outcome.
    ///
    /// Wait for this rather than ``DragSession/ended()`` before a process that published a session exits:
    /// the session ends as soon as the source has removed a move's items, a moment before the destination hears it.
    /// - Returns: The operation that took place; ``DropOperation/cancel`` when none did.
    public func ended() async -> DropOperation {
        let operation = await session.ended()
        await withCheckedContinuation { continuation in
            let quiet = state.withLock { state in
                guard state.dropsInFlight > 0 else { return true }
                state.quietWaiters.append(continuation)
                return false
            }
            if quiet { continuation.resume() }
        }
        return operation
    }

    /// Counts a drop that starts through an endpoint.
    fileprivate func dropStarted() {
        state.withLock { $0.dropsInFlight += 1 }
    }

    /// Counts a drop whose destination has been told how it ended, and wakes ``ended()`` when none is left.
    fileprivate func dropReported() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.dropsInFlight -= 1
            guard state.dropsInFlight == 0 else { return [] }
            defer { state.quietWaiters = [] }
            return state.quietWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Stops listening, removes the socket and disconnects every destination; the session itself goes on (a drop
    /// in progress fails and the source keeps its items).
    public func close() {
        close(waitingForEndpoints: false)
    }

    private func close(waitingForEndpoints: Bool) {
        let endpoints = state.withLock { state -> [SourceEndpoint] in
            guard !state.isClosed else { return [] }
            state.isClosed = true
            return Array(state.endpoints.values)
        }
        listener.shutdown()
        Syscall.unlink(path)
        if !waitingForEndpoints {
            for endpoint in endpoints { endpoint.connection.close() }
        }
    }

    private func acceptLoop() {
        while true {
            guard let socket = try? listener.accept() else { return }
            let endpoint = SourceEndpoint(publication: self, socket: socket)
            let accepted = state.withLock { state in
                guard !state.isClosed else { return false }
                state.endpoints[ObjectIdentifier(endpoint)] = endpoint
                return true
            }
            guard accepted else {
                socket.close()
                return
            }
            endpoint.start { [self] in
                _ = state.withLock { $0.endpoints.removeValue(forKey: ObjectIdentifier(endpoint)) }
            }
        }
    }
}

/// A step of a cross-process drop, as ``DragSessionPublication`` and ``RemoteDragSession`` pass it.
public enum RemoteSessionEvent: String, Sendable, Hashable, CaseIterable {
    /// Source: a destination connected and got the offer.
    case offered
    /// Source: a drop's items are reserved and the destination told which.
    case reserved
    /// Source: the destination's commit arrived; the items are about to be removed.
    case commitReceived
    /// Source: the moved items are removed; the destination is about to be told.
    case removed
    /// Destination: the source answered the drop with the items to take.
    case reservationReceived
    /// Destination: its commit returned (the items are stored).
    case committedLocally
    /// Destination: the decision record says `committed` (only with a record).
    case decided
    /// Destination: the commit is sent to the source.
    case commitSent
}

/// The source's side of one connection.
private final class SourceEndpoint: Sendable {
    // Strong: an endpoint may outlive the app's last reference to the publication; the publication drops the
    // endpoint when its connection ends, which breaks the cycle.
    let publication: DragSessionPublication
    let connection: SessionConnection<DestinationMessage>
    private let state = SanitizedMutex(State())

    private enum Verdict {
        case commit
        case abort(String)
        case disconnected(TransferSessionError?)
    }

    private struct State {
        var destination: TransferSessionOrigin?
        var loads: [UInt32: Task<Void, Never>] = [:]
        var dropStarted = false
        var verdict: CheckedContinuation<Verdict, Never>?
        var pendingVerdict: Verdict?
        var isClosed = false
    }

    /// The most loads one destination may have running at once.
    static let maximumConcurrentLoads = 64

    init(publication: DragSessionPublication, socket: UnixSocket) {
        self.publication = publication
        self.connection = SessionConnection(socket: socket, timeout: publication.timeout)
    }

    func start(ended: @escaping @Sendable () -> Void) {
        connection.start(
            receive: { [self] message, descriptors in receive(message, descriptors: &descriptors) },
            closed: { [self] reason in
                let (loads, verdict) = state.withLock { state in
                    state.isClosed = true
                    defer {
                        state.loads = [:]
                        state.verdict = nil
                    }
                    if state.verdict == nil && state.pendingVerdict == nil {
                        state.pendingVerdict = .disconnected(reason)
                    }
                    return (Array(state.loads.values), state.verdict)
                }
                for load in loads { load.cancel() }
                verdict?.resume(returning: .disconnected(reason))
                connection.close()
                ended()
            })
    }

    private var session: DragSession { publication.session }

    private func receive(_ message: DestinationMessage, descriptors: inout [Int32]) {
        switch message {
        case .hello(let version, let application, let process):
            guard version == SessionWire.version else {
                refuse("This source speaks version \(SessionWire.version) of the session protocol, not \(version).")
                return
            }
            let origin = TransferSessionOrigin(applicationIdentifier: application, processIdentifier: process)
            state.withLock { $0.destination = origin }
            let items = session.items.map { item in
                SessionWire.Item(
                    id: item.id.rawValue,
                    types: item.provider.registeredTypes(visibleTo: .otherProcesses).map(\.identifier))
            }
            send(
                SourceMessage.offer(
                    version: SessionWire.version, session: session.id.rawValue,
                    application: session.origin.applicationIdentifier, process: session.origin.processIdentifier,
                    allowsMove: session.allowsMoveOperation,
                    allowsMoveToOtherApplications: session.allowsMoveToOtherApplications, items: items))
            observeFromReader(.offered)
        case .load(let request, let item, let type):
            startLoad(request: request, item: item, type: type)
        case .cancel(let request):
            state.withLock { $0.loads[request] }?.cancel()
        case .drop(let operation):
            startDrop(operation)
        case .commit:
            deliver(.commit)
        case .abort(let message):
            deliver(.abort(message))
        }
    }

    /// Tells the observer of a step from a task of the drop.
    private func observe(_ event: RemoteSessionEvent) async {
        await publication.observer?(event)
    }

    /// Tells the observer of a step from the reader thread, which waits (it is no thread of the task pool).
    private func observeFromReader(_ event: RemoteSessionEvent) {
        guard let observer = publication.observer else { return }
        let done = DispatchSemaphore(value: 0)
        Task {
            await observer(event)
            done.signal()
        }
        done.wait()
    }

    /// Ends the connection because the destination broke the protocol.
    private func refuse(_ message: String) {
        send(SourceMessage.finished(operation: DropOperation.cancel.rawValue, message: message))
        connection.close()
    }

    private func send(_ message: SourceMessage, descriptors: [Int32] = []) {
        // A destination that has gone or stopped reading ends the connection; its reader reports why.
        do {
            try connection.send(message, descriptors: descriptors)
        } catch {
            connection.close()
        }
    }

    // MARK: - Loads

    private func startLoad(request: UInt32, item: Int, type identifier: String) {
        guard session.items.indices.contains(item) else {
            send(.failed(request: request, code: "typeUnavailable", message: "There is no item \(item)."))
            return
        }
        let provider = session.items[item].provider
        let offered = provider.registeredTypes(visibleTo: .otherProcesses)
        guard let type = UniformType(identifier), offered.contains(type) else {
            send(
                .failed(
                    request: request, code: "typeUnavailable",
                    message: "Item \(item) does not offer \(identifier) to other processes."))
            return
        }
        let representation = provider.representations.first { $0.type == type }
        let task = Task { [self] in
            let progress = TransferProgress(totalUnitCount: 1)
            await withTaskCancellationHandler {
                do {
                    if representation?.kind == .file {
                        try await sendFile(request: request, provider: provider, type: type, progress: progress)
                    } else {
                        try await sendStream(request: request, provider: provider, type: type, progress: progress)
                    }
                } catch {
                    let code =
                        Task.isCancelled
                        ? "cancelled" : ((error as? TransferError)?.code.description ?? "loaderFailed")
                    send(.failed(request: request, code: code, message: "\(error)"))
                }
            } onCancel: {
                progress.cancel()
            }
            _ = state.withLock { $0.loads.removeValue(forKey: request) }
        }
        let accepted = state.withLock { state -> Bool in
            guard state.loads[request] == nil, state.loads.count < Self.maximumConcurrentLoads, !state.isClosed else {
                return false
            }
            state.loads[request] = task
            return true
        }
        if !accepted {
            task.cancel()
            refuse("Request \(request) is in use, or more than \(Self.maximumConcurrentLoads) loads are running.")
        }
    }

    private func sendStream(
        request: UInt32, provider: TransferProvider, type: UniformType, progress: TransferProgress
    ) async throws {
        let stream = try await provider.loadStream(for: type, progress: progress)
        try connection.send(SourceMessage.begin(request: request, length: stream.length))
        for try await chunk in stream {
            try Task.checkCancellation()
            var offset = chunk.startIndex
            while offset < chunk.endIndex {
                let end =
                    chunk.index(offset, offsetBy: SessionWire.chunkSize, limitedBy: chunk.endIndex) ?? chunk.endIndex
                try connection.send(SourceMessage.chunk(request: request, bytes: chunk[offset..<end]))
                offset = end
            }
        }
        try connection.send(SourceMessage.end(request: request))
    }

    private func sendFile(
        request: UInt32, provider: TransferProvider, type: UniformType, progress: TransferProgress
    ) async throws {
        try await provider.loadFileRepresentation(for: type, progress: progress) { url in
            let descriptor = try Syscall.openForReading(url.path)
            defer { Syscall.close(descriptor) }
            let length = UInt64(max(0, try Syscall.status(descriptor).size))
            try connection.send(SourceMessage.file(request: request, length: length), descriptors: [descriptor])
        }
    }

    // MARK: - The drop

    private func startDrop(_ name: String) {
        let destination = state.withLock { state -> TransferSessionOrigin? in
            guard !state.dropStarted else { return nil }
            state.dropStarted = true
            return state.destination
        }
        guard let destination, let operation = DropOperation(rawValue: name) else {
            refuse("A drop must follow the hello, come once, and name cancel, forbidden, copy or move (not \(name)).")
            return
        }
        publication.dropStarted()
        Task { [self] in
            defer { publication.dropReported() }
            do {
                let result = try await session.drop(DropProposal(operation: operation), on: destination) {
                    drop, resolved in
                    try await reserveAndAwaitCommit(drop, operation: resolved)
                }
                if result.operation == .move { await observe(.removed) }
                send(.finished(operation: result.operation.rawValue, message: nil))
            } catch {
                send(.finished(operation: DropOperation.cancel.rawValue, message: "\(error)"))
            }
        }
    }

    /// The source's part of a remote drop's commit: tell the destination what it may take, then wait for its
    /// verdict. Returning commits (the session then removes a move's items); throwing keeps them.
    private func reserveAndAwaitCommit(_ drop: DropSession, operation: DropOperation) async throws {
        let ids = drop.items.map(\.id)
        await observe(.reserved)
        try connection.send(SourceMessage.reserved(operation: operation.rawValue, items: ids.map(\.rawValue)))
        let verdict = await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Verdict? in
                if let pending = state.pendingVerdict {
                    state.pendingVerdict = nil
                    return pending
                }
                state.verdict = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
        switch verdict {
        case .commit:
            if let record = publication.decisions, operation == .move {
                // The destination decided before it sent the commit; a record that says otherwise wins.
                let decision = try record.decide(.committed, for: session.id, items: ids)
                guard decision.outcome == .committed else {
                    throw TransferSessionError(
                        code: .commitFailed, message: "The decision record says this move was aborted.")
                }
            }
            await observe(.commitReceived)
        case .abort(let message):
            throw TransferSessionError(code: .commitFailed, message: "The destination gave the drop up: \(message)")
        case .disconnected(let reason):
            // With a record, the destination may have decided `committed` just before it went: the record decides.
            if let record = publication.decisions, operation == .move {
                let decision = try record.resolve(session.id, items: ids)
                if decision.outcome == .committed {
                    await observe(.commitReceived)
                    return
                }
            }
            throw reason
                ?? TransferSessionError(
                    code: .disconnected, message: "The destination process went away before it committed the drop.")
        }
    }

    /// Hands the destination's verdict to the waiting drop, or keeps it for the drop to find.
    private func deliver(_ verdict: Verdict) {
        let waiting = state.withLock { state -> CheckedContinuation<Verdict, Never>? in
            guard state.dropStarted else { return nil }
            defer { state.verdict = nil }
            if state.verdict == nil { state.pendingVerdict = verdict }
            return state.verdict
        }
        waiting?.resume(returning: verdict)
        if !state.withLock({ $0.dropStarted }) {
            refuse("A commit or abort came before any drop.")
        }
    }
}
