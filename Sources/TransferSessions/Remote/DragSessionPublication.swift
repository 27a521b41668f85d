import TransferKit
package import TransferKitPlatform
public import UniformTypes

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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
///
/// **Who may connect** — only processes of the same user (the socket's `SO_PEERCRED`); the process id the move
/// rule sees is the kernel's, not the one the hello names. A destination that claims this session's application
/// identifier (which lets it move what only the same application may move) must run this process's executable or
/// one in the same directory; otherwise it is treated as another application. **Deadlines** — a destination that
/// says nothing for `timeout` (before its hello, between messages, after a reservation) is disconnected and its
/// reservation released; one that does not read for `timeout` likewise. Each ends that connection only.
public final class DragSessionPublication: Sendable {
    /// The session offered.
    public let session: DragSession
    /// The socket's path; `-` for a session served over a byte stream
    /// (``serve(_:input:output:decisions:timeout:observer:)``).
    public let path: String
    /// The decision record, for moves that survive a crash.
    public let decisions: SessionDecisionRecord?

    let timeout: Duration
    /// The clock its time limits are measured on (a test's manual clock, or the continuous one).
    let clock: WireClock
    let observer: (@Sendable (RemoteSessionEvent) async -> Void)?
    /// The listening socket; `nil` for a session served over one byte stream.
    private let listener: UnixSocket?
    /// Whether a file's bytes may cross as a passed descriptor: not over a byte stream, which carries none.
    let passesDescriptors: Bool
    /// How long a destination may say nothing before its connection ends; `nil` lets a stream's one destination
    /// hold a drop open for as long as it likes (`copy --to`: for as long as the far clipboard holds the items).
    let silenceLimit: Duration?
    private let state = SanitizedMutex(State())

    private struct State {
        var endpoints: [ObjectIdentifier: SourceEndpoint] = [:]
        var isClosed = false
        /// Drops running through this publication, until their destination has been told how they ended.
        var dropsInFlight = 0
        /// Opens when `dropsInFlight` comes to zero, for the waits of ``ended(within:)``; a new one for each such time.
        var quiet: Latch<Void>?
    }

    /// The most connections served at once; more wait in the listen queue (or fail to connect by their deadline).
    static let maximumConnections = 256

    /// Publishes `session` at `path`.
    /// - Parameters:
    ///   - session: The session; it should still be active.
    ///   - path: Where to listen; nothing may be there yet.
    ///   - decisions: The record both processes share, for moves that survive a crash; by default the session's
    ///     source's own (``DragSource/decisions``: a stored ``TransferList``'s), else none.
    ///   - timeout: The time limit of silence: how long a destination may say nothing or read nothing.
    ///   - observer: Told of each step of a drop, for logs and tests (a step waits until it returns). The step
    ///     ``RemoteSessionEvent/offered`` is told on the connection's reader, which waits at most `timeout`: an
    ///     observer still running then ends that connection with `timedOut`, as a destination silent for so long.
    /// - Throws: ``TransferSessionError`` with `disconnected` when the socket cannot be made at `path`.
    public convenience init(
        publishing session: DragSession, atPath path: String, decisions: SessionDecisionRecord? = nil,
        timeout: Duration = .seconds(30), observer: (@Sendable (RemoteSessionEvent) async -> Void)? = nil
    ) throws(TransferSessionError) {
        try self.init(
            publishing: session, atPath: path, decisions: decisions, timeout: timeout, clock: .continuous,
            observer: observer)
    }

    /// Publishes `session` at `path`, its time limits measured on `clock` (a test's manual clock).
    package init(
        publishing session: DragSession, atPath path: String, decisions: SessionDecisionRecord? = nil,
        timeout: Duration, clock: WireClock, observer: (@Sendable (RemoteSessionEvent) async -> Void)? = nil
    ) throws(TransferSessionError) {
        self.session = session
        self.path = path
        self.decisions = decisions ?? session.source?.decisions
        self.timeout = timeout
        self.clock = clock
        self.observer = observer
        self.passesDescriptors = true
        self.silenceLimit = timeout
        do {
            listener = try UnixSocket.listen(atPath: path, backlog: 64)
        } catch {
            throw TransferSessionError(
                code: .disconnected, message: "The session cannot listen at \(path): \(error.reason).", cause: error,
                source: path)
        }
        DedicatedThread.start { [self] in acceptLoop() }
        Task { [self] in
            _ = await session.ended()
            // Let the destination hear how the session ended before the socket goes.
            close(waitingForEndpoints: true)
        }
    }

    /// Serves `session` to the one destination at the other end of `connection`, over a byte stream (a socket that
    /// stands for one, ``UnixSocket/bridging(input:output:)``, or one that writes into the stream's pipe itself): no
    /// descriptor crosses, and the peer is whoever holds the stream's other end. `ended` is called once, when that
    /// destination's connection has ended.
    init(
        serving session: DragSession, on connection: FramedConnection<LengthPrefixedFrames>,
        decisions: SessionDecisionRecord?, timeout: Duration, silenceLimit: Duration?, clock: WireClock,
        observer: (@Sendable (RemoteSessionEvent) async -> Void)?, ended: @escaping @Sendable () -> Void
    ) {
        self.session = session
        self.path = "-"
        self.decisions = decisions ?? session.source?.decisions
        self.timeout = timeout
        self.clock = clock
        self.observer = observer
        self.listener = nil
        self.passesDescriptors = false
        self.silenceLimit = silenceLimit
        // The transport (ssh, a container's exec) authenticated the peer: it counts as this user, and as another
        // application whatever its hello claims, since no executable can be checked at the far end.
        let peer = SessionSourceMachine.Peer(processID: 0, userID: Syscall.userID, runsSameExecutable: false)
        let endpoint = SourceEndpoint(publication: self, connection: connection, peer: peer)
        state.withLock { $0.endpoints[ObjectIdentifier(endpoint)] = endpoint }
        endpoint.start { [self] in
            _ = state.withLock { $0.endpoints.removeValue(forKey: ObjectIdentifier(endpoint)) }
            ended()
        }
    }

    /// Waits until the session has ended and a destination that dropped it has been told the outcome.
    ///
    /// Wait for this rather than ``DragSession/ended()`` before a process that published a session exits:
    /// the session ends as soon as the source has removed a move's items, a moment before the destination hears it.
    /// - Returns: The operation that took place; ``DropOperation/cancel`` when none did.
    public func ended() async -> DropOperation {
        let operation = await session.ended()
        await waitUntilQuiet(until: .never)
        return operation
    }

    /// Waits as ``ended()`` does, at most `timeout`: for a destination that never drops, or never connects.
    /// - Returns: The operation that took place.
    /// - Throws: ``TransferSessionError`` with `timedOut` when the session had not ended in time (it goes on; cancel
    ///   it or wait again).
    public func ended(within timeout: Duration) async throws(TransferSessionError) -> DropOperation {
        let deadline = Deadline.after(timeout, on: clock)
        guard let operation = await session.ended(until: deadline), await waitUntilQuiet(until: deadline) else {
            throw TransferSessionError(
                code: .timedOut, message: "The session did not end within \(timeout).", source: session.id.rawValue)
        }
        return operation
    }

    /// Waits until no drop is waiting to tell its destination how it ended; false when the deadline passed first.
    @discardableResult
    private func waitUntilQuiet(until deadline: Deadline) async -> Bool {
        let quiet = state.withLock { state -> Latch<Void>? in
            guard state.dropsInFlight > 0 else { return nil }
            if state.quiet == nil { state.quiet = Latch() }
            return state.quiet
        }
        guard let quiet else { return true }
        return (try? await quiet.wait(until: deadline)) != nil
    }

    /// Counts a drop that starts through an endpoint.
    fileprivate func dropStarted() {
        state.withLock { $0.dropsInFlight += 1 }
    }

    /// Counts a drop whose destination has been told how it ended, and wakes ``ended()`` when none is left.
    fileprivate func dropReported() {
        let quiet = state.withLock { state -> Latch<Void>? in
            state.dropsInFlight -= 1
            guard state.dropsInFlight == 0 else { return nil }
            defer { state.quiet = nil }
            return state.quiet
        }
        quiet?.open()
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
        if let listener {
            listener.shutdown()
            Syscall.unlink(path)
        }
        if !waitingForEndpoints {
            for endpoint in endpoints { endpoint.connection.close() }
        }
    }

    /// Accepts until closed. An `accept` that fails for want of descriptors or memory (or a connection given up in
    /// the queue) is retried after a pause that doubles up to a second, so a burst of connections never stops the
    /// publication for good.
    private func acceptLoop() {
        guard let listener else { return }
        var pause = Duration.milliseconds(10)
        while !state.withLock({ $0.isClosed }) {
            let socket: UnixSocket?
            do {
                socket = try listener.accept(until: .after(.milliseconds(500)))
                pause = .milliseconds(10)
            } catch {
                if state.withLock({ $0.isClosed }) { return }
                WireTimer.block(for: pause)
                pause = min(pause * 2, .seconds(1))
                continue
            }
            guard let socket else { continue }
            // The session may have ended a moment ago, before the task that closes this listener has run: a
            // destination that connects now finds it gone, as it will once the socket is removed.
            if case .ended = session.phase {
                socket.close()
                continue
            }
            let endpoint = SourceEndpoint(publication: self, socket: socket)
            let accepted = state.withLock { state in
                guard !state.isClosed, state.endpoints.count < Self.maximumConnections else { return false }
                state.endpoints[ObjectIdentifier(endpoint)] = endpoint
                return true
            }
            guard accepted else {
                socket.close()
                continue
            }
            endpoint.start { [self] in
                _ = state.withLock { $0.endpoints.removeValue(forKey: ObjectIdentifier(endpoint)) }
            }
        }
    }

    /// The number of destinations connected now, for tests.
    package var connectionCount: Int {
        state.withLock { $0.endpoints.count }
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

/// The source's side of one connection: the I/O shell of a ``SessionSourceMachine``.
private final class SourceEndpoint: Sendable {
    // Strong: an endpoint may outlive the app's last reference to the publication; the publication drops the
    // endpoint when its connection ends, which breaks the cycle.
    let publication: DragSessionPublication
    let connection: FramedConnection<LengthPrefixedFrames>
    private let machine: SanitizedMutex<SessionSourceMachine>
    private let loads = SanitizedMutex([UInt32: Task<Void, Never>]())
    /// The destination's verdict on a reservation, or the end of the connection (`nil`).
    private let verdicts = Mailbox<SessionSourceMachine.DropVerdict?, Never>(capacity: 4)

    /// An endpoint for a connection accepted on the publication's socket: the kernel says who the peer is.
    convenience init(publication: DragSessionPublication, socket: UnixSocket) {
        let peer = socket.peerCredentials.map { credentials in
            SessionSourceMachine.Peer(
                processID: credentials.processID, userID: credentials.userID,
                runsSameExecutable: Self.runsSameExecutable(credentials.processID))
        }
        self.init(publication: publication, socket: socket, peer: peer)
    }

    /// An endpoint for a connection from `peer` (`nil` when nothing says who it is).
    convenience init(publication: DragSessionPublication, socket: UnixSocket, peer: SessionSourceMachine.Peer?) {
        self.init(
            publication: publication,
            connection: FramedConnection(socket: socket, sendTimeout: publication.timeout, clock: publication.clock),
            peer: peer)
    }

    /// An endpoint for `connection`, from `peer` (`nil` when nothing says who it is).
    init(
        publication: DragSessionPublication, connection: FramedConnection<LengthPrefixedFrames>,
        peer: SessionSourceMachine.Peer?
    ) {
        self.publication = publication
        self.connection = connection
        machine = SanitizedMutex(
            SessionSourceMachine(
                peer: peer, ownUserID: Syscall.userID,
                sourceApplication: publication.session.origin.applicationIdentifier,
                itemCount: publication.session.items.count))
    }

    /// Whether process `pid` runs an executable of this process's installation: the same file, or one in the same
    /// directory (an application made of several executables installed side by side); `nil` when /proc cannot tell.
    private static func runsSameExecutable(_ pid: Int32) -> Bool? {
        guard let own = Syscall.readLink("/proc/self/exe"), let peer = Syscall.readLink("/proc/\(pid)/exe") else {
            return nil
        }
        func directory(_ path: String) -> Substring { path[..<(path.lastIndex(of: "/") ?? path.startIndex)] }
        return own == peer || directory(own) == directory(peer)
    }

    func start(ended: @escaping @Sendable () -> Void) {
        connection.start(
            decoder: SessionWire.frames, silenceLimit: publication.silenceLimit,
            onSilence: { [self] in machine.withLock { $0.silenceEndsConnection() } },
            onFrame: { [self] (body, descriptors) throws(WireViolation) in
                // A destination sends no descriptors; any that came are closed with the connection.
                let message: DestinationMessage
                do throws(TransferSessionError) {
                    message = try SessionWire.decode(DestinationMessage.self, from: body[...])
                } catch {
                    refuse(.protocolViolation, error.message)
                    throw WireViolation(error.message, cause: error)
                }
                perform(machine.withLock { $0.receive(message) })
            },
            onEnd: { [self] _ in
                let running = machine.withLock { $0.connectionEnded() }
                let tasks = loads.withLock { tasks in running.compactMap { tasks[$0] } }
                for task in tasks { task.cancel() }
                verdicts.post(nil)
                verdicts.close(nil)
                ended()
            })
    }

    private var session: DragSession { publication.session }

    private func perform(_ action: SessionSourceMachine.Action) {
        switch action {
        case .none:
            break
        case .sendOffer:
            let items = session.items.map { item in
                SessionWire.Item(
                    id: item.id.rawValue,
                    types: item.provider.registeredTypes(visibleTo: .otherProcesses).map(\.identifier),
                    name: item.provider.suggestedName)
            }
            send(
                SourceMessage.offer(
                    version: machine.withLock { $0.version }, session: session.id.rawValue,
                    application: session.origin.applicationIdentifier, process: session.origin.processIdentifier,
                    // A session without a source cannot move (nobody would remove the originals): say so up front.
                    allowsMove: session.allowsMoveOperation && session.source != nil,
                    allowsMoveToOtherApplications: session.allowsMoveToOtherApplications, items: items))
            observeFromReader(.offered)
        case .refuse(let code, let message):
            refuse(code, message)
        case .startLoad(let request, let item, let type):
            startLoad(request: request, item: item, type: type)
        case .cancelLoad(let request):
            loads.withLock { $0[request] }?.cancel()
        case .startDrop(let operation, let destination):
            startDrop(operation, destination: destination)
        case .deliverVerdict(let verdict):
            verdicts.post(verdict)
        }
    }

    /// Tells the observer of a step from a task of the drop.
    private func observe(_ event: RemoteSessionEvent) async {
        await publication.observer?(event)
    }

    /// Tells the observer of a step from the reader thread (no thread of the task pool), which waits for it at most
    /// the publication's time limit: an observer that takes longer ends this connection, as a destination that
    /// stops reading for that long would, and the reader goes on to see the end.
    private func observeFromReader(_ event: RemoteSessionEvent) {
        guard let observer = publication.observer else { return }
        let done = Latch<Void>()
        let deadline = Deadline.after(publication.timeout, on: publication.clock)
        Task {
            await observer(event)
            done.open()
        }
        if done.block(until: deadline) == nil {
            refuse(.timedOut, "The source's observer of \(event) took longer than \(publication.timeout).")
        }
    }

    /// Ends the connection, telling the destination why.
    private func refuse(_ code: SessionWireCode, _ message: String) {
        send(.finished(operation: .cancel, code: code.rawValue, message: message))
        connection.close()
    }

    private func send(_ message: SourceMessage, descriptors: [Int32] = []) {
        // A destination that has gone or stopped reading ends the connection; its reader reports why.
        do {
            try sendOrThrow(message, descriptors: descriptors)
        } catch {
            connection.close()
        }
    }

    private func sendOrThrow(_ message: SourceMessage, descriptors: [Int32] = []) throws(TransferSessionError) {
        try SessionWire.send(message, descriptors: descriptors, on: connection, to: "destination")
    }

    // MARK: - Loads

    /// A load failure's code as this destination's version spells it.
    private func wireCode(_ code: SessionWireCode) -> String {
        code == .unavailableRepresentation && machine.withLock({ $0.version }) == 1
            ? SessionWireCode.versionOneUnavailable : code.rawValue
    }

    /// Sends a load's last frame, after freeing its request id (the destination may reuse it once it reads this).
    private func finishLoad(_ request: UInt32, with message: SourceMessage) {
        machine.withLock { $0.loadWillEnd(request) }
        loads.withLock { _ = $0.removeValue(forKey: request) }
        send(message)
    }

    private func startLoad(request: UInt32, item: Int, type identifier: String) {
        guard session.items.indices.contains(item) else {
            finishLoad(
                request,
                with: .failed(
                    request: request, code: wireCode(.unavailableRepresentation),
                    message: "There is no item \(item)."))
            return
        }
        let provider = session.items[item].provider
        let offered = provider.registeredTypes(visibleTo: .otherProcesses)
        guard let type = UniformType(identifier), offered.contains(type) else {
            finishLoad(
                request,
                with: .failed(
                    request: request, code: wireCode(.unavailableRepresentation),
                    message: "Item \(item) does not offer \(identifier) to other processes."))
            return
        }
        let representation = provider.representations.first { $0.type == type }
        // Entered before it can run, so that a cancel that comes at once finds it.
        loads.withLock { tasks in
            tasks[request] = Task { [self] in
                let progress = TransferProgress(totalUnitCount: 1)
                await withTaskCancellationHandler {
                    do {
                        if representation?.kind == .file, publication.passesDescriptors {
                            try await sendFile(request: request, provider: provider, type: type, progress: progress)
                        } else {
                            try await sendStream(request: request, provider: provider, type: type, progress: progress)
                        }
                    } catch {
                        let code: SessionWireCode =
                            Task.isCancelled || isCancellation(error)
                            ? .cancelled
                            : (error as? TransferError)?.code == .unavailableRepresentation
                                ? .unavailableRepresentation : .loaderFailed
                        finishLoad(request, with: .failed(request: request, code: wireCode(code), message: "\(error)"))
                    }
                } onCancel: {
                    progress.cancel()
                }
            }
        }
    }

    private func sendStream(
        request: UInt32, provider: TransferProvider, type: UniformType, progress: TransferProgress
    ) async throws {
        let stream = try await provider.loadStream(for: type, progress: progress)
        try sendOrThrow(SourceMessage.begin(request: request, length: stream.length))
        for try await chunk in stream where !chunk.isEmpty {
            // The chunk's frames, at most 1 MiB of them to a write: fewer writes and wake-ups than a frame each, and
            // a data representation (one chunk however large) is neither copied whole nor holds the send lock long.
            var offset = chunk.startIndex
            while offset < chunk.endIndex {
                try Task.checkCancellation()
                let end = chunk.index(offset, offsetBy: 1 << 20, limitedBy: chunk.endIndex) ?? chunk.endIndex
                try SessionWire.send(
                    frame: SessionWire.chunkFrames(request: request, bytes: chunk[offset..<end]), on: connection,
                    to: "destination")
                offset = end
            }
        }
        try Task.checkCancellation()
        finishLoad(request, with: .end(request: request))
    }

    private func sendFile(
        request: UInt32, provider: TransferProvider, type: UniformType, progress: TransferProgress
    ) async throws {
        try await provider.loadFileRepresentation(for: type, progress: progress) { url in
            let descriptor = try Syscall.openForReading(url.path)
            defer { Syscall.close(descriptor) }
            let length = UInt64(max(0, try Syscall.status(descriptor).size))
            machine.withLock { $0.loadWillEnd(request) }
            loads.withLock { _ = $0.removeValue(forKey: request) }
            try sendOrThrow(SourceMessage.file(request: request, length: length), descriptors: [descriptor])
        }
    }

    // MARK: - The drop

    private func startDrop(_ operation: DropOperation, destination: TransferSessionOrigin) {
        publication.dropStarted()
        Task { [self] in
            defer { publication.dropReported() }
            do throws(TransferSessionError) {
                let result = try await session.drop(DropProposal(operation: operation), on: destination) {
                    drop, resolved in
                    try await reserveAndAwaitCommit(drop, operation: resolved)
                }
                if result.operation == .move { await observe(.removed) }
                send(.finished(operation: result.operation, code: nil, message: nil))
            } catch {
                send(
                    .finished(
                        operation: .cancel, code: SessionWireCode(error.code).rawValue, message: error.message))
            }
            machine.withLock { $0.didAnswerDrop() }
        }
    }

    /// The source's part of a remote drop's commit, by ``MoveDriver/runSource(usesRecord:effects:verdict:)``: tell
    /// the destination what it may take, then wait for its verdict. Returning commits (the session then removes a
    /// move's items); throwing releases them.
    private func reserveAndAwaitCommit(_ drop: DropSession, operation: DropOperation) async throws {
        let ids = drop.items.map(\.id)
        let record = operation == .move ? publication.decisions : nil
        let sessionID = session.id
        let effects = MoveEffects(
            send: { [self] message throws(TransferSessionError) in
                guard case .reserved = message else { return }  // The source sends nothing else of a move.
                try sendOrThrow(SourceMessage.reserved(operation: operation, items: ids.map(\.rawValue)))
                machine.withLock { $0.didAnswerDrop() }
            },
            decide: { outcome throws(TransferSessionError) in
                try record?.decide(outcome, for: sessionID, items: ids).outcome ?? outcome
            },
            entered: { [self] phase in
                if phase == .reserved { await observe(.reserved) }
            })
        try await MoveDriver.runSource(usesRecord: record != nil, effects: effects) {
            // No deadline of its own: the connection's silence limit ends a destination that goes quiet, and that
            // end arrives here as `nil`.
            switch (try? await verdicts.receive()) ?? nil {
            case .commit?: .commit
            case .abort(let message)?: .abort(message)
            case nil: nil
            }
        }
        await observe(.commitReceived)
    }
}
