package import TransferKitPlatform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One connection to an X server on the wire layer: two threads of its own, the ``FramedConnection``'s reader,
/// which cuts the server's bytes with ``X11Frames`` into the setup reply, then replies, errors and events, and an
/// ``OutboundQueue``'s writer, which sends the requests.
///
/// Requests are numbered and queued in one step, so they reach the server in the order of their sequence numbers;
/// a sender returns once its request is queued (it waits only while ``outboundCapacity`` bytes are queued, at most
/// ``timeout``, which ends the connection with `timedOut`). A write that fails (the server is gone: `EPIPE`; it
/// read nothing for ``timeout``) ends the connection with the same ``ClipboardError`` a waiting request gets.
///
/// Replies and errors resume the task that waits for them; events go to ``setEventHandler(_:onEnd:)``'s closure,
/// called on the reader thread (it must not block). When the connection ends, every waiting task fails with the
/// reason.
///
/// ``close()`` writes what is queued first — a `SelectionNotify` or `SetSelectionOwner` sent just before still
/// reaches the server — waiting at most ``closeFlushLimit``, so a server that reads nothing cannot hold it; then it
/// shuts the socket down. An end for any other reason (the server closed, broke the protocol, a write failed) drops
/// what is queued.
package final class X11Connection: Sendable {
    /// The facts of the setup reply.
    package let info: X11ServerInfo
    /// The time limit of each write and each awaited reply.
    package let timeout: Duration
    /// The clock the time limits are measured on (a test's manual clock, or the continuous one).
    package let clock: WireClock
    /// The most bytes of requests queued for the writer thread before a sender waits: 4 MiB, sixteen of the
    /// backend's largest property chunks (256 KiB), and at least one request of the server's largest size.
    package let outboundCapacity: Int
    /// How long ``close()`` waits for the queued requests to be written: the shorter of ``timeout`` and 2 seconds.
    package var closeFlushLimit: Duration { min(timeout, .seconds(2)) }
    private let wire: FramedConnection<X11Frames>
    private let outbox: OutboundQueue
    private let state: SanitizedMutex<State>
    /// Numbers and queues one request (or run) at a time, so that the queue's order is the sequence numbers'.
    private let writer = SanitizedMutex(())

    /// Who waits for the reply to one request.
    private enum Pending {
        /// A task, resumed with the reply; its timer fails it when the reply is late.
        case task(CheckedContinuation<X11Bytes, any Error>, timer: WireTimer.Handle?)
        /// Slot `index` of a run of pipelined requests (``requests(_:window:)``), which keeps its own time limit.
        case batch(X11ReplyBatch, index: Int)
    }

    private struct State {
        var sequence: UInt64 = 0
        var pending: [UInt16: Pending] = [:]
        var failure: ClipboardError?
        var eventHandler: (@Sendable (X11Event) -> Void)?
        var endHandler: (@Sendable (ClipboardError) -> Void)?
        var nextResource: UInt32 = 1
        var freeResources: [UInt32] = []
        var errors: [UInt16: UInt8] = [:]
        var xfixesFirstEvent: UInt8?
    }

    private init(wire: FramedConnection<X11Frames>, info: X11ServerInfo, timeout: Duration, clock: WireClock) {
        self.wire = wire
        self.info = info
        self.timeout = timeout
        self.clock = clock
        self.state = SanitizedMutex(State())
        outboundCapacity = max(4 << 20, info.maximumRequestBytes)
        outbox = OutboundQueue(capacity: outboundCapacity, connection: wire)
        outbox.start { [weak self] error in self?.writeFailed(error) }
    }

    /// Connects to the server at `socketPath`, authorizing with `cookie` (MIT-MAGIC-COOKIE-1) when given.
    ///
    /// The connect and the wait for the setup reply each have `timeout` from their own start (a process whose task
    /// pool is busy must not lose the reply's wait to the time its connect spent queued).
    /// - Throws: ``ClipboardError``: `connectionFailed` (no server, or it refused: its reason is in the message),
    ///   `timedOut`, `protocolViolation` (a malformed setup reply).
    package static func connect(
        socketPath: String, abstractName: String? = nil, cookie: [UInt8]?, timeout: Duration,
        messageLimit: Int = X11.defaultMessageLimit, clock: WireClock = .continuous
    ) async throws -> X11Connection {
        let socket: UnixSocket
        do throws(SystemError) {
            // The socket file, then the abstract name, each waiting for room in the server's queue until `deadline`.
            socket = try await UnixSocket.connect(within: timeout) { deadline throws(SystemError) in
                do throws(SystemError) {
                    return try UnixSocket.connect(toPath: socketPath, deadline: deadline)
                } catch let fileError {
                    // No socket file (a private /tmp) or a stale one: the server may still listen on its abstract
                    // name. The file's error is the one to report when that fails too, unless it timed out.
                    guard let abstractName, fileError.errorNumber != ErrorNumber.timedOut else { throw fileError }
                    do throws(SystemError) {
                        return try UnixSocket.connect(toAbstractName: abstractName, deadline: deadline)
                    } catch {
                        throw error.errorNumber == ErrorNumber.timedOut ? error : fileError
                    }
                }
            }
        } catch {
            throw ClipboardError(
                code: error.errorNumber == ErrorNumber.timedOut ? .timedOut : .connectionFailed,
                message: "Cannot connect to the X server at \(socketPath): \(error.reason). Check DISPLAY, and that "
                    + "the server runs.", cause: error, source: socketPath)
        }
        let wire = FramedConnection<X11Frames>(socket: socket, sendTimeout: timeout, clock: clock)
        let route = X11FrameRoute()
        wire.start(
            decoder: X11Frames(limit: messageLimit),
            onFrame: { frame, descriptors in route.receive(frame, &descriptors) },
            onEnd: { route.end($0) })
        let setup = X11RequestEncoder.setup(
            authorizationName: cookie == nil ? [] : Array("MIT-MAGIC-COOKIE-1".utf8), authorizationData: cookie ?? [])
        do {
            try wire.send(setup)
        } catch {
            wire.close()
            throw ClipboardError(
                code: error.errorNumber == ErrorNumber.timedOut ? .timedOut : .connectionFailed,
                message: "Cannot send the connection setup to the X server at \(socketPath): \(error.reason).",
                cause: error, source: socketPath)
        }
        let reply: X11SetupReply
        do {
            reply = try await X11Wait.next(
                from: route.setup, until: .after(timeout, on: clock), timeout: timeout, waitingFor: "the setup reply")
        } catch {
            wire.close()
            var error = error
            error.source = socketPath
            if error.code == .timedOut {
                error.message = "The X server at \(socketPath) did not answer the connection setup within \(timeout)."
            }
            throw error
        }
        switch reply {
        case .failed(let reason), .authenticate(let reason):
            wire.close()
            throw ClipboardError(
                code: .connectionFailed,
                message:
                    "The X server at \(socketPath) refused the connection: \(reason.isEmpty ? "no reason" : reason)"
                    + ". Check XAUTHORITY (its MIT-MAGIC-COOKIE-1 for this display).", source: socketPath)
        case .success(let info):
            let connection = X11Connection(wire: wire, info: info, timeout: timeout, clock: clock)
            route.attach(connection)
            return connection
        }
    }

    /// Sets the closure that gets every event (on the reader thread), and the one told once when the connection
    /// ends.
    package func setEventHandler(
        _ handler: @escaping @Sendable (X11Event) -> Void, onEnd: @escaping @Sendable (ClipboardError) -> Void
    ) {
        state.withLock { state in
            state.eventHandler = handler
            state.endHandler = onEnd
        }
    }

    /// Tells the reader which event code XFIXES starts at.
    package func setXFixesFirstEvent(_ code: UInt8) {
        state.withLock { $0.xfixesFirstEvent = code }
    }

    /// A new resource identifier (for a window).
    package func allocateResource() -> X11.ID {
        state.withLock { state in
            if let free = state.freeResources.popLast() { return free }
            let shift = UInt32(info.resourceIDMask.trailingZeroBitCount)
            defer { state.nextResource += 1 }
            return info.resourceIDBase | ((state.nextResource << shift) & info.resourceIDMask)
        }
    }

    /// Returns a destroyed window's identifier for reuse.
    package func freeResource(_ id: X11.ID) {
        state.withLock { $0.freeResources.append(id) }
    }

    /// Sends a request that has no reply; returns its sequence number.
    @discardableResult
    package func send(_ request: [UInt8]) throws(ClipboardError) -> UInt16 {
        try write(request, expectingReply: nil)
    }

    /// Sends a request and waits for its reply.
    ///
    /// - Throws: ``ClipboardError``: `transferFailed` for an X error, `timedOut`, `cancelled`, or why the connection
    ///   ended.
    package func request(_ request: [UInt8]) async throws -> X11Bytes {
        let box = SanitizedMutex<UInt16?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<X11Bytes, any Error>) in
                // A failed write has resumed the continuation already (see `write(_:expectingReply:watchErrors:)`).
                if let sequence = try? write(request, expectingReply: continuation) {
                    box.withLock { $0 = sequence }
                }
            }
        } onCancel: {
            if let sequence = box.withLock({ $0 }) {
                resolve(sequence, .failure(ClipboardError(code: .cancelled, message: "The X11 request was cancelled.")))
            }
        }
    }

    /// Sends `requests` pipelined and returns their replies in order: many are written before any reply is read, at
    /// most `window` of them unanswered at once.
    ///
    /// One round trip at a time costs a wake-up of each side per request (100 000 `GetAtomName`s took minutes).
    /// The server answers in sequence order and the reader thread reads all the while, so neither side's socket
    /// buffer fills while the other waits; the window bounds what is held in memory and keeps the 16-bit sequence
    /// numbers on the wire unambiguous.
    ///
    /// - Parameters:
    ///   - requests: Requests that each have a reply (such as `GetAtomName` or `InternAtom`).
    ///   - window: The most requests sent and not yet answered.
    /// - Returns: The replies, one for each request, in the order of `requests`.
    /// - Throws: ``ClipboardError``: `transferFailed` when the server answers one of them with an error,
    ///   `timedOut` when it answers none of those outstanding within ``timeout``, `cancelled`, or why the
    ///   connection ended.
    package func requests(_ requests: [[UInt8]], window: Int = 4096) async throws -> [X11Bytes] {
        guard let first = requests.first else { return [] }
        // Far below the 65 536 sequence numbers, which other requests share meanwhile.
        let window = min(max(1, window), 1 << 14)
        let batch = X11ReplyBatch(count: requests.count)
        let late = "The X server did not answer request \(first.first ?? 0) in \(timeout)."
        do {
            var sent = 0
            while sent < requests.count {
                let end = min(requests.count, batch.receivedCount + window)
                if end > sent {
                    try write(run: requests[sent..<end], into: batch, from: sent)
                    sent = end
                }
                if sent < requests.count {
                    try await batch.wait(
                        untilReceived: sent - window / 2, until: .after(timeout, on: clock), lateMessage: late)
                }
            }
            try await batch.wait(untilReceived: requests.count, until: .after(timeout, on: clock), lateMessage: late)
        } catch {
            let failure =
                error as? ClipboardError ?? ClipboardError(code: .transferFailed, message: "\(error)", cause: error)
            batch.fail(failure)
            state.withLock { state in
                state.pending = state.pending.filter { _, pending in
                    guard case .batch(let owner, _) = pending else { return true }
                    return owner !== batch
                }
            }
            throw failure
        }
        return try batch.replies()
    }

    /// Sends a request without a reply and waits until the server has handled it.
    ///
    /// - Throws: ``ClipboardError`` with `transferFailed` when the server answered it with an error (such as
    ///   `BadWindow` for a requestor that is gone).
    package func checked(_ request: [UInt8]) async throws {
        let sequence = try write(request, expectingReply: nil, watchErrors: true)
        _ = try await self.request(X11RequestEncoder.getInputFocus())
        let code = state.withLock { $0.errors.removeValue(forKey: sequence) }
        if let code, code != 0 {
            throw ClipboardError(
                code: .transferFailed, message: "The X server refused request \(request[0]) with error code \(code).")
        }
    }

    /// Sends one request, registering `continuation` (when given) for its reply first.
    ///
    /// A failure resumes `continuation` exactly once before it throws: a registered continuation is resumed by
    /// whoever removes it from the pending requests, which may be the reader thread ending the connection at the
    /// same moment, so the caller must not resume it again.
    private func write(
        _ request: [UInt8], expectingReply continuation: CheckedContinuation<X11Bytes, any Error>?,
        watchErrors: Bool = false
    ) throws(ClipboardError) -> UInt16 {
        do throws(ClipboardError) {
            try checkSize(request)
        } catch {
            continuation?.resume(throwing: error)
            throw error
        }
        let outcome: Result<UInt16, ClipboardError> = writer.withLock { _ in
            let registered: Result<UInt16, ClipboardError> = state.withLock { state in
                if let failure = state.failure { return .failure(failure) }
                state.sequence += 1
                let sequence = UInt16(truncatingIfNeeded: state.sequence)
                if let continuation {
                    state.pending[sequence] = .task(continuation, timer: nil)
                }
                if watchErrors { state.errors[sequence] = 0 }
                return .success(sequence)
            }
            let sequence: UInt16
            switch registered {
            case .success(let registeredSequence):
                sequence = registeredSequence
            case .failure(let failure):
                // Not registered: nobody else can resume it.
                continuation?.resume(throwing: failure)
                return registered
            }
            if let failure = enqueue(request) {
                // The connection has ended (or is closing), and whoever ended it resumed every registered request;
                // this removes and resumes ours only if it is still there, so it is resumed once either way.
                resolve(sequence, .failure(failure))
                return .failure(failure)
            }
            return .success(sequence)
        }
        let sequence = try outcome.get()
        if continuation != nil {
            let failure = ClipboardError(
                code: .timedOut, message: "The X server did not answer request \(request[0]) in \(timeout).")
            let timer = WireTimer.shared.schedule(at: .after(timeout, on: clock)) { [weak self] in
                self?.resolve(sequence, .failure(failure))
            }
            let stillPending = state.withLock { state in
                guard case .task(let continuation, nil) = state.pending[sequence] else { return false }
                state.pending[sequence] = .task(continuation, timer: timer)
                return true
            }
            if !stillPending { WireTimer.shared.cancel(timer) }
        }
        return sequence
    }

    /// Writes `requests` at once, each registered as a slot of `batch` (from `firstIndex`) before any is sent.
    private func write(
        run requests: ArraySlice<[UInt8]>, into batch: X11ReplyBatch, from firstIndex: Int
    ) throws(ClipboardError) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(requests.reduce(0) { $0 + $1.count })
        for request in requests {
            try checkSize(request)
            bytes.append(contentsOf: request)
        }
        let failure: ClipboardError? = writer.withLock { _ in
            let failure: ClipboardError? = state.withLock { state in
                if let failure = state.failure { return failure }
                for offset in 0..<requests.count {
                    state.sequence += 1
                    state.pending[UInt16(truncatingIfNeeded: state.sequence)] = .batch(
                        batch, index: firstIndex + offset)
                }
                return nil
            }
            return failure ?? enqueue(bytes)
        }
        if let failure { throw failure }
    }

    /// Refuses a request longer than the server accepts.
    private func checkSize(_ request: [UInt8]) throws(ClipboardError) {
        guard request.count <= info.maximumRequestBytes else {
            throw ClipboardError(
                code: .transferFailed,
                message:
                    "A request of \(request.count) bytes is over the server's limit of \(info.maximumRequestBytes).")
        }
    }

    /// Sends `bytes` at once or queues them for the writer thread (with the writer lock held); returns why not,
    /// having ended the connection when the server stopped reading or a write failed.
    private func enqueue(_ bytes: [UInt8]) -> ClipboardError? {
        switch outbox.enqueue(bytes, until: .after(timeout, on: clock)) {
        case .queued:
            return nil
        case .full:
            let failure = ClipboardError(
                code: .timedOut, message: "The X server did not read a request within \(timeout).")
            end(failure)
            return failure
        case .failed(let error):
            return writeFailed(error)
        case .closed:
            // ``close()`` is writing what was queued before it: later requests are refused, and it ends the
            // connection itself.
            return state.withLock { $0.failure }
                ?? ClipboardError(code: .cancelled, message: "The X11 connection was closed.")
        }
    }

    /// Ends the connection after a failed write (called on the writer thread, or by a sender the queue refused
    /// because of it); returns why it ended.
    @discardableResult
    private func writeFailed(_ error: SystemError) -> ClipboardError {
        // The reader may have ended the connection (and so broken this write) for a reason of its own, such as a
        // reply over the size limit: that reason is the one every waiting request must get.
        let failure: ClipboardError
        if let end = wire.endReason {
            failure = X11FrameRoute.failure(end, inSetup: false)
        } else {
            let timedOut = error.errorNumber == ErrorNumber.timedOut
            failure = ClipboardError(
                code: timedOut ? .timedOut : .connectionFailed,
                message: timedOut
                    ? "The X server did not read a request within \(timeout)."
                    : "Cannot write to the X server: \(error.reason).", cause: error)
        }
        end(failure)
        return state.withLock { $0.failure } ?? failure
    }

    private func resolve(_ sequence: UInt16, _ outcome: Result<X11Bytes, ClipboardError>) {
        switch state.withLock({ $0.pending.removeValue(forKey: sequence) }) {
        case .task(let continuation, let timer):
            if let timer { WireTimer.shared.cancel(timer) }
            continuation.resume(with: outcome)
        case .batch(let batch, let index):
            batch.receive(index, outcome)
        case nil:
            break
        }
    }

    /// Hands one message frame, decoded, to whoever waits for it (called on the reader thread).
    fileprivate func deliver(_ frame: X11Bytes) {
        let first = state.withLock { $0.xfixesFirstEvent }
        switch X11Message(decoding: frame, xfixesFirstEvent: first) {
        case .reply(let sequence, let bytes):
            resolve(sequence, .success(bytes))
        case .error(let sequence, let code, let major):
            let watched = state.withLock { state in
                guard state.errors[sequence] != nil else { return false }
                state.errors[sequence] = code
                return true
            }
            if !watched {
                resolve(
                    sequence,
                    .failure(
                        ClipboardError(
                            code: .transferFailed,
                            message: "The X server answered request \(major) with error code \(code).")))
            }
        case .event(let event):
            let handler = state.withLock { $0.eventHandler }
            handler?(event)
        }
    }

    /// Ends the connection with `error`: every waiting request fails with it, and so does every later one.
    fileprivate func end(_ error: ClipboardError) {
        let (pending, handler): ([Pending], (@Sendable (ClipboardError) -> Void)?) = state.withLock { state in
            guard state.failure == nil else { return ([], nil) }
            state.failure = error
            defer {
                state.pending = [:]
                state.endHandler = nil
                state.eventHandler = nil
            }
            return (Array(state.pending.values), state.endHandler)
        }
        // What is still queued is dropped: the writer's next send fails on the shut-down socket, and it stops.
        _ = outbox.close(flushingUntil: .after(.zero, on: clock))
        wire.close()
        for entry in pending {
            switch entry {
            case .task(let continuation, let timer):
                if let timer { WireTimer.shared.cancel(timer) }
                continuation.resume(throwing: error)
            case .batch(let batch, _):
                batch.fail(error)
            }
        }
        handler?(error)
    }

    /// Whether the connection has ended.
    package var isClosed: Bool { state.withLock { $0.failure != nil } }

    /// Closes the connection once the requests queued so far are written (at most ``closeFlushLimit``; it blocks
    /// the calling thread that long only when the server reads nothing); waiting requests fail with `cancelled`,
    /// and requests sent meanwhile are refused with it.
    package func close() {
        // `false` when the server read nothing in time: then the end's shutdown of the socket breaks the stuck write.
        _ = outbox.close(flushingUntil: .after(closeFlushLimit, on: clock))
        end(ClipboardError(code: .cancelled, message: "The X11 connection was closed."))
    }
}

/// The replies to one run of pipelined requests: filled in by the reader thread, awaited by the task that sent
/// them, which waits for a number of them at a time, each wait with a time limit.
private final class X11ReplyBatch: Sendable {
    private struct Waiter {
        var id: UInt64
        var target: Int
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var replies: [X11Bytes?]
        var received = 0
        var failure: ClipboardError?
        var waiter: Waiter?
        var nextWaiterID: UInt64 = 0
    }

    private let state: SanitizedMutex<State>

    /// A run of `count` requests, none answered yet.
    init(count: Int) {
        state = SanitizedMutex(State(replies: Array(repeating: nil, count: count)))
    }

    /// How many replies have come.
    var receivedCount: Int { state.withLock { $0.received } }

    /// The reply (or error) for slot `index`; an error fails the whole run.
    func receive(_ index: Int, _ outcome: Result<X11Bytes, ClipboardError>) {
        let (waiter, result): (Waiter?, Result<Void, any Error>) = state.withLock { state in
            guard state.failure == nil, state.replies.indices.contains(index), state.replies[index] == nil else {
                return (nil, .success(()))
            }
            switch outcome {
            case .success(let reply):
                state.replies[index] = reply
                state.received += 1
                guard let waiter = state.waiter, state.received >= waiter.target else { return (nil, .success(())) }
                state.waiter = nil
                return (waiter, .success(()))
            case .failure(let error):
                state.failure = error
                defer { state.waiter = nil }
                return (state.waiter, .failure(error))
            }
        }
        waiter?.continuation.resume(with: result)
    }

    /// Ends the run: the waiting task and every later wait throw `error`.
    func fail(_ error: ClipboardError) {
        let waiter: Waiter? = state.withLock { state in
            if state.failure == nil { state.failure = error }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.continuation.resume(throwing: error)
    }

    /// Waits until `target` replies have come, at most until `deadline`.
    ///
    /// - Throws: ``ClipboardError``: `timedOut` (with `lateMessage`), `cancelled`, or the run's failure.
    func wait(untilReceived target: Int, until deadline: Deadline, lateMessage: String) async throws {
        let id = state.withLock { state in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        let timer = WireTimer.shared.schedule(at: deadline) { [weak self] in
            self?.expire(id, ClipboardError(code: .timedOut, message: lateMessage))
        }
        defer { WireTimer.shared.cancel(timer) }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, ClipboardError>? = state.withLock { state in
                    if let failure = state.failure { return .failure(failure) }
                    if state.received >= target { return .success(()) }
                    state.waiter = Waiter(id: id, target: target, continuation: continuation)
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            fail(ClipboardError(code: .cancelled, message: "The X11 requests were cancelled."))
        }
    }

    /// Fails the run with `error` if the wait `id` still waits.
    private func expire(_ id: UInt64, _ error: ClipboardError) {
        let waiter: Waiter? = state.withLock { state in
            guard let waiter = state.waiter, waiter.id == id else { return nil }
            state.waiter = nil
            state.failure = error
            return waiter
        }
        waiter?.continuation.resume(throwing: error)
    }

    /// Every reply, in order, once all have come.
    func replies() throws(ClipboardError) -> [X11Bytes] {
        try state.withLock { state throws(ClipboardError) in
            if let failure = state.failure { throw failure }
            let replies = state.replies.compactMap { $0 }
            guard replies.count == state.replies.count else {
                throw ClipboardError(
                    code: .protocolViolation,
                    message: "The X server answered \(replies.count) of \(state.replies.count) requests.")
            }
            return replies
        }
    }
}

/// Where the reader thread hands frames: the connecting call until the setup reply came, then the connection.
private final class X11FrameRoute: Sendable {
    private enum Target {
        /// The connecting call waits for the setup reply in ``setup`` (`received`: it came).
        case setup(received: Bool)
        /// The connection is open.
        case connection(X11Connection)
        /// The wire ended before the connection was attached.
        case ended(ClipboardError)
    }

    /// The setup reply, for the connecting call.
    let setup = Mailbox<X11SetupReply, ClipboardError>(capacity: 1)
    private let target = SanitizedMutex(Target.setup(received: false))

    /// One frame from the reader thread. An X server passes no descriptors: any that came are closed.
    func receive(_ frame: X11Frame, _ descriptors: inout [Int32]) {
        for descriptor in descriptors { Syscall.close(descriptor) }
        descriptors.removeAll()
        switch frame {
        case .setup(let reply):
            target.withLock { $0 = .setup(received: true) }
            setup.post(reply, until: .after(.zero))
        case .message(let bytes):
            // Before the connection is attached no request has been sent, so nothing waits for a message.
            if case .connection(let connection) = target.withLock({ $0 }) { connection.deliver(bytes) }
        }
    }

    /// The wire ended: the connection, or the connecting call, learns why.
    func end(_ end: FramedConnection<X11Frames>.End) {
        let previous: Target = target.withLock { target in
            let previous = target
            if case .setup(let received) = target { target = .ended(Self.failure(end, inSetup: !received)) }
            return previous
        }
        switch previous {
        case .connection(let connection):
            connection.end(Self.failure(end, inSetup: false))
        case .setup(let received):
            setup.close(Self.failure(end, inSetup: !received))
        case .ended:
            break
        }
    }

    /// Hands the reader's frames to `connection` from now on (or ends it at once if the wire has ended).
    func attach(_ connection: X11Connection) {
        let failure: ClipboardError? = target.withLock { target in
            if case .ended(let failure) = target { return failure }
            target = .connection(connection)
            return nil
        }
        if let failure { connection.end(failure) }
    }

    /// Why the connection ended, as the error every waiting request gets.
    static func failure(_ end: FramedConnection<X11Frames>.End, inSetup: Bool) -> ClipboardError {
        switch end {
        case .peerClosed:
            ClipboardError(
                code: .connectionFailed,
                message: inSetup
                    ? "The X server closed the connection before its setup reply."
                    : "The X server closed the connection.")
        case .truncated(let count):
            ClipboardError(
                code: .protocolViolation,
                message: inSetup
                    ? "The X server closed the connection in the middle of its setup reply (\(count) bytes)."
                    : "The X server closed the connection in the middle of a message (\(count) bytes).")
        case .violation(let violation):
            ClipboardError(code: .protocolViolation, message: violation.message, cause: violation.cause)
        case .failed(let error):
            ClipboardError(
                code: .connectionFailed, message: "Cannot read from the X server: \(error.reason).", cause: error)
        case .silent(let limit):
            ClipboardError(code: .timedOut, message: "The X server said nothing for \(limit).")
        case .closed:
            ClipboardError(code: .cancelled, message: "The X11 connection was closed.")
        }
    }
}
