package import TransferKit
package import TransferKitPlatform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The clipboard over a Wayland compositor's data-control protocol (`ext-data-control-v1`, or
/// `zwlr_data_control_manager_v1` where only that exists), spoken directly over the compositor's Unix socket.
///
/// The shell of ``WaylandState``: the wire layer's ``FramedConnection`` reads the socket on a thread of its own and
/// hands each message to the state machine under the lock; the backend runs the actions that come out. Requests go
/// out in the order the machine made them, written by a ``DedicatedThread`` started while some are pending; each
/// transfer (a `send` to serve, a `receive` to stream) uses threads of its own for its pipe, so nothing here blocks
/// Swift's concurrency pool. Every wait for the compositor ends by the time limit (``Mailbox/receive(until:)``).
/// `WAYLAND_SOCKET` (a descriptor handed down by a compositor) is not used: the backend always connects to
/// `WAYLAND_DISPLAY`.
package final class WaylandBackend: ClipboardBackend {
    /// The protocol in use, such as `Wayland (ext-data-control-v1)`.
    package var protocolName: String {
        storage.withLock { storage in
            storage.machine.usesFocusSurface
                ? Self.focusSurfaceProtocolName : storage.machine.flavor?.protocolName ?? "Wayland"
        }
    }

    /// Whether the focus surface exists now (it should only while an operation needs it).
    var isShowingFocusSurface: Bool { storage.withLock { $0.machine.focusSurface != nil } }

    /// The protocol name of the focus-surface fallback.
    package static let focusSurfaceProtocolName = "Wayland (wl_data_device, focus surface)"

    /// What a backend binds once connected.
    package enum Binding: Sendable {
        /// The data-control protocol: the clipboard without focus.
        case dataControl
        /// `wl_data_device` through a short-lived focus surface (the opt-in fallback).
        case focusSurface
        /// Nothing: the registry's globals only (``announcedGlobals``), for a diagnosis, or for a subscriber to bind
        /// what it needs (``subscribe(_:)``: TransferDesktop's drag and drop); without one, such a backend can only
        /// be closed.
        case none
    }

    /// The most received descriptors held for messages that have not claimed them (libwayland passes at most 28
    /// per `sendmsg`).
    package static let maximumPendingDescriptors = 64

    let connection: FramedConnection<WaylandFrames>
    /// How long a round trip or a pipe may stay silent before `timedOut`.
    package let timeout: Duration
    /// The clock the time limits are measured on (a test's manual clock, or the continuous one).
    package let clock: WireClock
    let storage = SanitizedMutex(Storage())
    /// The requests on their way to the compositor, and the one thread that writes them (the wire layer's writer).
    private let outbox: OutboundQueue

    /// The connection's core, its subscriber (with the subscriber's own waiters), and the waiters and closures the
    /// core's ids stand for.
    struct Storage {
        var machine = WaylandState()
        /// The subscriber of the objects the core routes, once one subscribed (``subscribe(_:)``).
        var subscription: (any WaylandSubscription)?
        var roundTrips: [UInt32: Mailbox<Void, ClipboardError>] = [:]
        var ownerships: [UInt32: (serve: Serve, end: Latch<Void>)] = [:]
        var watchers: [UInt64: AsyncThrowingStream<ClipboardBackendChange, any Error>.Continuation] = [:]
        /// The waits for the focus surface's keyboard focus.
        var focusWaiters: [Mailbox<Void, ClipboardError>] = []
        /// The operations that need the focus surface now; it goes when the last one ends.
        var focusUsers = 0
    }

    /// The most bytes of requests queued for the compositor. Requests are queued under the storage lock, which the
    /// reader needs too, so a full queue is not waited on: a compositor that leaves this much unread ends the
    /// connection (`timedOut`). Wayland's requests are small (data goes through pipes): this is tens of thousands.
    static let outboxCapacity = 4 << 20

    /// Serves one target of an offer: the stream of its bytes.
    package typealias Serve = @Sendable (String) async throws -> TransferByteStream

    /// Connects to the compositor that `environment` names (`WAYLAND_DISPLAY`, absolute or relative to
    /// `XDG_RUNTIME_DIR`).
    ///
    /// - Parameters:
    ///   - environment: The process environment, or a test's.
    ///   - timeout: The longest wait for the compositor's answers and for a silent transfer.
    /// - Throws: ``ClipboardError``: `noDisplay` without `WAYLAND_DISPLAY` (or a relative one without
    ///   `XDG_RUNTIME_DIR`), `connectionFailed`, `protocolUnavailable` without data control, `timedOut`,
    ///   `protocolViolation`.
    package static func connect(
        environment: [String: String], timeout: Duration, binding: Binding = .dataControl
    ) async throws -> WaylandBackend {
        try await WaylandBackend(socketPath: socketPath(environment: environment), timeout: timeout, binding: binding)
    }

    /// Connects to the compositor listening at `socketPath` and binds its seat and data-control manager.
    ///
    /// - Parameter binding: What to bind: data control, the focus-surface fallback's globals, or nothing.
    /// - Throws: ``ClipboardError`` as ``connect(environment:timeout:binding:)`` does, except `noDisplay`.
    /// - Parameter clock: What the time limits are measured on (a test's manual clock).
    package init(
        socketPath: String, timeout: Duration, binding: Binding = .dataControl, clock: WireClock = .continuous
    ) async throws {
        let socket: UnixSocket
        do {
            socket = try UnixSocket.connect(toPath: socketPath)
        } catch {
            throw ClipboardError(
                code: .connectionFailed,
                message: "Cannot connect to the Wayland compositor at \(socketPath): \(error.reason). Check that it "
                    + "runs and that WAYLAND_DISPLAY names its socket.",
                cause: error, source: socketPath)
        }
        self.timeout = timeout
        self.clock = clock
        connection = FramedConnection(
            socket: socket, sendTimeout: timeout, maximumPendingDescriptors: Self.maximumPendingDescriptors,
            clock: clock)
        outbox = OutboundQueue(capacity: Self.outboxCapacity) { [connection] bytes, descriptors throws(SystemError) in
            try connection.send(bytes, descriptors: descriptors)
        }
        outbox.start { [weak self] error in self?.writeFailed(error) }
        connection.start(
            decoder: WaylandFrames(),
            onFrame: { [weak self] (frame, descriptors) throws(WireViolation) in
                guard let self else { throw WireViolation("The Wayland connection was dropped.") }
                perform { ((), $0.machine.receive(frame, descriptors: &descriptors)) }
            },
            onEnd: { [weak self] end in self?.ended(end) })
        do {
            try perform { storage throws(ClipboardError) in ((), try storage.machine.getRegistry()) }
            try await roundTrip()
            switch binding {
            case .none:
                return
            case .dataControl:
                try perform { storage throws(ClipboardError) in
                    ((), try storage.machine.bindDataControl(compositor: socketPath))
                }
            case .focusSurface:
                try perform { storage throws(ClipboardError) in
                    ((), try storage.machine.bindDataDevice(compositor: socketPath))
                }
            }
            // The device announces the current selections at once; the round trip waits for them.
            try await roundTrip()
        } catch {
            close()
            throw error
        }
    }

    deinit {
        connection.close()
    }

    /// The compositor's globals, by interface, each with the highest version announced.
    package var announcedGlobals: [String: UInt32] {
        storage.withLock { storage in
            Dictionary(storage.machine.globals.map { ($0.interface, $0.version) }, uniquingKeysWith: max)
        }
    }

    /// The path `environment` names for the compositor's socket: `WAYLAND_DISPLAY`, absolute or relative to
    /// `XDG_RUNTIME_DIR`.
    /// - Throws: ``ClipboardError`` with `noDisplay` without `WAYLAND_DISPLAY`, or for a relative one without
    ///   `XDG_RUNTIME_DIR`.
    package static func socketPath(environment: [String: String]) throws(ClipboardError) -> String {
        guard let display = environment["WAYLAND_DISPLAY"], !display.isEmpty else {
            throw ClipboardError(
                code: .noDisplay,
                message: "WAYLAND_DISPLAY is not set, so there is no Wayland compositor to talk to; run inside a "
                    + "Wayland session or set WAYLAND_DISPLAY to the compositor's socket.")
        }
        if display.hasPrefix("/") { return display }
        guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else {
            throw ClipboardError(
                code: .noDisplay,
                message: "WAYLAND_DISPLAY is \(display), a name relative to XDG_RUNTIME_DIR, which is not set; set "
                    + "XDG_RUNTIME_DIR or give WAYLAND_DISPLAY as an absolute path.")
        }
        return runtime.hasSuffix("/") ? runtime + display : runtime + "/" + display
    }

    // MARK: - ClipboardBackend

    /// Takes `selection`, offering `targets`; `serve` runs once per request, on a task of its own.
    package func own(
        _ selection: ClipboardSelection, targets: [String],
        serve: @escaping @Sendable (String) async throws -> TransferByteStream
    ) async throws -> any ClipboardOwnership {
        try await withFocus {
            let end = Latch<Void>()
            let source = try perform { storage throws(ClipboardError) in
                let (source, actions) = try storage.machine.own(selection, targets: targets)
                storage.ownerships[source] = (serve, end)
                return (source, actions)
            }
            let ownership = WaylandOwnership(backend: self, source: source, end: end)
            try await roundTrip()
            return ownership
        }
    }

    /// The MIME types the current owner of `selection` offers (the first ``ClipboardLimits/maximumOfferedTypes``).
    package func offer(of selection: ClipboardSelection) async throws -> ClipboardBackendOffer {
        try storage.withLock { storage throws(ClipboardError) in try storage.machine.checkSelection(selection) }
        return try await withFocus {
            try await roundTrip()
            return storage.withLock {
                ClipboardBackendOffer(
                    targets: $0.machine.offeredTypes(selection), omittedCount: $0.machine.omittedTypeCount(selection))
            }
        }
    }

    /// Streams `target` from the owner of `selection` through a pipe it writes to.
    package func receive(_ target: String, from selection: ClipboardSelection) async throws -> TransferByteStream {
        try storage.withLock { storage throws(ClipboardError) in try storage.machine.checkSelection(selection) }
        return try await withFocus { try await receiveNow(target, from: selection) }
    }

    /// ``receive(_:from:)`` once the selection can be seen.
    private func receiveNow(_ target: String, from selection: ClipboardSelection) async throws -> TransferByteStream {
        try await roundTrip()
        let pipe = try Self.makeTransferPipe()
        do {
            // offer.receive(mime, fd): the request owns the write end from here and closes it once sent, so the
            // owner's close ends the data.
            try perform { storage throws(ClipboardError) in
                ((), try storage.machine.receive(target, from: selection, into: pipe.write))
            }
        } catch {
            Syscall.close(pipe.read)
            Syscall.close(pipe.write)
            throw error
        }
        return pipeStream(pipe.read, source: target)
    }

    /// The bytes `writer` writes of `source` (a MIME type) into the pipe whose read end is `descriptor`, which the
    /// stream owns from here; each wait for the next bytes ends by the time limit.
    package func pipeStream(
        _ descriptor: Int32, source: String, writer: String = "The owner of the clipboard"
    ) -> TransferByteStream {
        TransferByteStream(
            WaylandPipeChunks(descriptor: descriptor, timeout: timeout, clock: clock, source: source, writer: writer))
    }

    /// Each change of `selection`: the new owner's MIME types, empty when cleared.
    package func changes(of selection: ClipboardSelection) -> AsyncThrowingStream<[String], any Error> {
        mapStream(ownedChanges(of: selection)) { $0.targets }
    }

    /// Each change of `selection`: the new owner's MIME types (empty when cleared) and how many it offered beyond
    /// the cap; data control names no owner.
    package func ownedChanges(
        of selection: ClipboardSelection
    ) -> AsyncThrowingStream<ClipboardBackendChange, any Error> {
        let (stream, continuation) = AsyncThrowingStream<ClipboardBackendChange, any Error>.makeStream()
        if storage.withLock({ $0.machine.usesFocusSurface }) {
            continuation.finish(
                throwing: ClipboardError(
                    code: .protocolUnavailable,
                    message: "The focus-surface fallback cannot watch the clipboard: wl_data_device shows the "
                        + "selection only to the client with keyboard focus."))
            return stream
        }
        do {
            try perform { storage throws(ClipboardError) in
                let id = try storage.machine.watch(selection)
                storage.watchers[id] = continuation
                continuation.onTermination = { [weak self] _ in
                    self?.perform { storage in
                        storage.machine.unwatch(id)
                        storage.watchers[id] = nil
                        return ((), [])
                    }
                }
                return ((), [])
            }
        } catch {
            continuation.finish(throwing: error)
        }
        return stream
    }

    /// Ends the connection: ownerships end, transfers and waits fail with `cancelled`.
    package func close() {
        perform { ((), $0.machine.close()) }
    }

    // MARK: - The shell

    /// Runs `body` on the storage under the lock, queues the requests its actions send (under the lock, so that
    /// ids reach the compositor in the order the machine made them), and performs the other actions once the lock
    /// is released.
    @discardableResult
    func perform<Result: Sendable, Failure: Error>(
        _ body: (inout Storage) throws(Failure) -> (Result, [WaylandState.Action])
    ) throws(Failure) -> Result {
        try run { storage throws(Failure) in
            let (result, actions) = try body(&storage)
            return (result, resolve(actions, in: &storage))
        }
    }

    /// Runs `body` on the storage under the lock, then the effects it returns once the lock is released.
    func run<Result: Sendable, Failure: Error>(
        _ body: (inout Storage) throws(Failure) -> (Result, [@Sendable () -> Void])
    ) throws(Failure) -> Result {
        let (result, effects) = try storage.withLock { storage throws(Failure) in try body(&storage) }
        for effect in effects { effect() }
        return result
    }

    /// Turns actions into what runs once the lock is released, taking the waiters they name out of `storage`.
    func resolve(_ actions: [WaylandState.Action], in storage: inout Storage) -> [@Sendable () -> Void] {
        var effects: [@Sendable () -> Void] = []
        for action in actions {
            switch action {
            case .send(let messages):
                if let failure = enqueue(messages) { effects.append { [weak self] in self?.fail(failure) } }
            case .serve(let source, let mimeType, let fd):
                guard let serve = storage.ownerships[source]?.serve else {
                    effects.append { Syscall.close(fd) }
                    continue
                }
                let timeout = self.timeout
                effects.append {
                    Task { await Self.serveTransfer(mimeType: mimeType, fd: fd, timeout: timeout, serve: serve) }
                }
            case .close(let fd):
                effects.append { Syscall.close(fd) }
            case .finishRoundTrip(let callback):
                if let reply = storage.roundTrips.removeValue(forKey: callback) { effects.append { reply.post(()) } }
            case .failRoundTrip(let callback, let error):
                if let reply = storage.roundTrips.removeValue(forKey: callback) {
                    effects.append { reply.close(error) }
                }
            case .endOwnership(let source):
                if let end = storage.ownerships.removeValue(forKey: source)?.end { effects.append { end.open() } }
            case .notify(let watcher, let types, let omitted):
                if let continuation = storage.watchers[watcher] {
                    let change = ClipboardBackendChange(targets: types, owner: nil, omittedCount: omitted)
                    effects.append { continuation.yield(change) }
                }
            case .finishWatcher(let watcher, let error):
                guard let continuation = storage.watchers.removeValue(forKey: watcher) else { continue }
                effects.append {
                    if let error { continuation.finish(throwing: error) } else { continuation.finish() }
                }
            case .disconnect:
                let failure =
                    storage.machine.failure ?? ClipboardError(code: .cancelled, message: "The connection ended.")
                let waiters = storage.focusWaiters
                storage.focusWaiters = []
                effects.append { [connection, outbox] in
                    // No new request is taken; the writer thread ends once what is queued is sent or dropped.
                    outbox.close(flushingUntil: .after(.zero))
                    connection.close()
                    for waiter in waiters { waiter.close(failure) }
                }
            case .focusGained:
                let waiters = storage.focusWaiters
                storage.focusWaiters = []
                effects.append { for waiter in waiters { _ = waiter.post(()) } }
            case .route(let event):
                // The subscriber's turn, under the same lock: its steps run in their order among these.
                guard var subscription = storage.subscription else {
                    if case .send(_, _, let fd) = event { effects.append { Syscall.close(fd) } }
                    continue
                }
                storage.subscription = nil  // out while it runs, so that its state is not copied
                let steps = subscription.receive(event, core: &storage.machine)
                storage.subscription = subscription
                effects += resolve(steps, in: &storage)
            case .endSubscription(let error):
                guard var subscription = storage.subscription else { continue }
                storage.subscription = nil
                let steps = subscription.connectionEnded(error, core: &storage.machine)
                storage.subscription = subscription
                effects += resolve(steps, in: &storage)
            }
        }
        return effects
    }

    /// Turns a subscription's steps into what runs once the lock is released, carrying out the core's actions among
    /// them in order.
    private func resolve(_ steps: [WaylandSubscriptionStep], in storage: inout Storage) -> [@Sendable () -> Void] {
        var effects: [@Sendable () -> Void] = []
        for step in steps {
            switch step {
            case .display(let action): effects += resolve([action], in: &storage)
            case .effect(let effect): effects.append(effect)
            }
        }
        return effects
    }

    // MARK: - The subscriber

    /// Makes `subscription` the subscriber of the objects the core routes (replacing any before it); it binds what
    /// it needs with ``withSubscription(_:_:)``.
    package func subscribe(_ subscription: some WaylandSubscription) {
        storage.withLock { $0.subscription = subscription }
    }

    /// Runs `body` on the subscription, when it is an `S`, and the core, under the lock, then carries out its steps:
    /// the core's actions at once, in order, the rest once the lock is released.
    /// - Returns: What `body` returned, or nil (and `body` does not run) without a subscription of type `S`.
    @discardableResult
    package func withSubscription<S: WaylandSubscription, Result: Sendable, Failure: Error>(
        _ type: S.Type,
        _ body: (inout S, inout WaylandState) throws(Failure) -> (Result, [WaylandSubscriptionStep])
    ) throws(Failure) -> Result? {
        try run { storage throws(Failure) in
            guard var subscription = storage.subscription as? S else { return (nil, []) }
            storage.subscription = nil
            let result: Result
            let steps: [WaylandSubscriptionStep]
            do throws(Failure) {
                (result, steps) = try body(&subscription, &storage.machine)
            } catch {
                storage.subscription = subscription
                throw error
            }
            storage.subscription = subscription
            return (result, resolve(steps, in: &storage))
        }
    }

    /// Ends the connection with `error`: every wait fails, every ownership ends, every change stream finishes.
    private func fail(_ error: ClipboardError) {
        perform { ((), $0.machine.fail(error)) }
    }

    /// The reader stopped: the connection is over, for the reason the machine may already know.
    private func ended(_ end: FramedConnection<WaylandFrames>.End) {
        fail(Self.failure(end))
    }

    /// The error every wait gets when the reader stopped for `end`.
    private static func failure(_ end: FramedConnection<WaylandFrames>.End) -> ClipboardError {
        switch end {
        case .violation(let violation):
            ClipboardError(code: .protocolViolation, message: violation.message, cause: violation.cause)
        case .truncated(let count):
            ClipboardError(
                code: .connectionFailed,
                message: "The Wayland compositor closed the connection in the middle of a message (\(count) "
                    + "bytes); it may have exited.")
        case .failed(let systemError):
            ClipboardError(
                code: .connectionFailed, message: "Cannot read from the Wayland compositor: \(systemError.reason).",
                cause: systemError)
        case .closed:
            ClipboardError(code: .cancelled, message: "The Wayland connection was closed.")
        case .peerClosed, .silent:
            ClipboardError(
                code: .connectionFailed,
                message: "The Wayland compositor closed the connection; it may have exited.")
        }
    }

    // MARK: - Writing

    /// Encodes `messages` and queues them behind those queued before, for the connection's writer thread; the queue
    /// owns the descriptors they carry. Called under the storage lock, so the order is the machine's.
    /// - Returns: The error that ends the connection, if a request cannot be encoded.
    private func enqueue(_ messages: [WaylandMessage]) -> ClipboardError? {
        var items: [(bytes: [UInt8], descriptors: [Int32])] = []
        var bytes: [UInt8] = []
        var failure: ClipboardError?
        var unsent: [Int32] = []
        for message in messages {
            let encoded: (bytes: [UInt8], fds: [Int32])
            do {
                encoded = try WaylandWire.encode(message)
            } catch {
                failure = failure ?? error
                for case .fd(let fd) in message.arguments { unsent.append(fd) }
                continue
            }
            if encoded.fds.isEmpty {
                bytes += encoded.bytes
                continue
            }
            // Descriptors travel on the first byte of a sendmsg: each message carrying one has a call of its own.
            if !bytes.isEmpty { items.append((bytes, [])) }
            items.append((encoded.bytes, encoded.fds))
            bytes = []
        }
        if !bytes.isEmpty { items.append((bytes, [])) }
        for item in items {
            // The queue closes the descriptors of a request it does not take.
            switch outbox.enqueue(item.bytes, descriptors: item.descriptors, until: .after(.zero, on: clock)) {
            case .queued, .closed, .failed:
                // Closed or failed: the connection has ended, and its waits have been told why.
                continue
            case .full:
                failure =
                    failure
                    ?? ClipboardError(
                        code: .timedOut,
                        message: "The Wayland compositor left \(Self.outboxCapacity >> 20) MiB of this client's "
                            + "requests unread; it may hang.")
            }
        }
        for fd in unsent { Syscall.close(fd) }
        return failure
    }

    /// The writer thread's send failed: the connection ends, for the reader's reason if it stopped first (and so
    /// broke the write), else for the write's.
    private func writeFailed(_ error: SystemError) {
        if let end = connection.endReason {
            fail(Self.failure(end))
            return
        }
        let timedOut = error.errorNumber == ErrorNumber.timedOut
        fail(
            ClipboardError(
                code: timedOut ? .timedOut : .connectionFailed,
                message: timedOut
                    ? "The Wayland compositor read none of this client's requests for \(timeout)."
                    : "Cannot write to the Wayland compositor: \(error.reason).",
                cause: error))
    }

    // MARK: - Waits

    /// Waits until the compositor has handled every request sent so far (`wl_display.sync`), at most the time
    /// limit; a compositor that does not answer in time ends the connection.
    /// - Throws: ``ClipboardError``: `timedOut`, `cancelled`, or why the connection ended.
    package func roundTrip() async throws(ClipboardError) {
        let reply = Mailbox<Void, ClipboardError>(capacity: 1)
        // The waiter is in place before `sync` is queued, under the lock the reader takes for `done`.
        let callback = try perform { storage throws(ClipboardError) in
            let (callback, actions) = try storage.machine.startRoundTrip()
            storage.roundTrips[callback] = reply
            return (callback, actions)
        }
        do {
            try await reply.receive(until: .after(timeout, on: clock))
        } catch {
            switch error {
            case .closed(let failure):
                throw failure
            case .finished:
                return
            case .cancelled:
                perform { storage in
                    storage.machine.abandonRoundTrip(callback)
                    storage.roundTrips[callback] = nil
                    return ((), [])
                }
                throw ClipboardError(code: .cancelled, message: "The wait for the Wayland compositor was cancelled.")
            case .timedOut:
                let failure = perform { storage in
                    let actions = storage.machine.roundTripTimedOut(callback, after: timeout)
                    return (storage.machine.failure, actions)
                }
                // No failure: the answer came with the deadline.
                if let failure { throw failure }
            }
        }
    }

    // MARK: - The focus surface

    /// Runs `body` while the focus surface has keyboard focus (at once without the fallback): the surface is made
    /// for the first operation that needs it and destroyed when the last one ends.
    private func withFocus<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        guard storage.withLock({ $0.machine.usesFocusSurface }) else { return try await body() }
        try await acquireFocus()
        do {
            let result = try await body()
            releaseFocus()
            return result
        } catch {
            releaseFocus()
            throw error
        }
    }

    /// Shows the focus surface (unless shown) and waits, at most the time limit, until it has keyboard focus.
    private func acquireFocus() async throws {
        let pixel = try Self.makeBufferFile(
            [UInt8](repeating: 0, count: 4), prefix: "transferkit-focus", for: "the focus surface")
        let waiter = Mailbox<Void, ClipboardError>(capacity: 1)
        let isFocused = try perform { storage throws(ClipboardError) in
            let actions: [WaylandState.Action]
            do throws(ClipboardError) {
                actions = try storage.machine.showFocusSurface(bufferFD: pixel)
            } catch {
                Syscall.close(pixel)
                throw error
            }
            storage.focusUsers += 1
            if storage.machine.focusSerial != nil { return (true, actions) }
            storage.focusWaiters.append(waiter)
            return (false, actions)
        }
        guard !isFocused else { return }
        do {
            try await waiter.receive(until: .after(timeout, on: clock))
        } catch {
            releaseFocus()
            switch error {
            case .closed(let failure): throw failure
            case .finished: return
            case .cancelled:
                throw ClipboardError(code: .cancelled, message: "The wait for keyboard focus was cancelled.")
            case .timedOut:
                throw ClipboardError(
                    code: .timedOut,
                    message: "The Wayland compositor did not give the focus surface (a 1×1 window titled "
                        + "'\(WaylandState.focusSurfaceTitle)') keyboard focus within \(timeout); it may give new "
                        + "windows focus only after user input, or its seat may have no keyboard.")
            }
        }
    }

    /// A new unlinked file holding `pixels`, for a `wl_shm` buffer of `purpose` (named in the error).
    /// - Throws: ``ClipboardError`` with `transferFailed` when the file cannot be made or written.
    package static func makeBufferFile(
        _ pixels: [UInt8], prefix: String, for purpose: String
    ) throws(ClipboardError) -> Int32 {
        do throws(SystemError) {
            let file = try TemporaryFile.makeUnlinked(prefix: prefix)
            let written = pixels.withUnsafeBytes { bytes in
                Result { () throws(SystemError) in try Syscall.write(file, bytes) }
            }
            do throws(SystemError) {
                try written.get()
            } catch {
                Syscall.close(file)
                throw error
            }
            return file
        } catch {
            throw ClipboardError(
                code: .transferFailed, message: "Cannot make the buffer of \(purpose): \(error.reason).", cause: error)
        }
    }

    /// Ends one operation's use of the focus surface; the last destroys it.
    private func releaseFocus() {
        perform { storage in
            storage.focusUsers -= 1
            guard storage.focusUsers == 0 else { return ((), []) }
            storage.focusWaiters = []
            return ((), storage.machine.hideFocusSurface())
        }
    }

    /// A new pipe for a transfer, enlarged to ``transferPipeCapacity`` where the system allows.
    /// - Throws: ``ClipboardError`` with `transferFailed` when the system has no descriptors left.
    package static func makeTransferPipe() throws(ClipboardError) -> (read: Int32, write: Int32) {
        do throws(SystemError) {
            let pipe = try Syscall.makePipe()
            Syscall.enlargePipe(pipe.read, toAtMost: transferPipeCapacity)
            return pipe
        } catch {
            throw ClipboardError(
                code: .transferFailed, message: "Cannot make a pipe for the transfer: \(error.reason).", cause: error)
        }
    }

    /// The size the transfer pipes are enlarged to, on both sides (`F_SETPIPE_SZ`; no more than the system allows):
    /// one chunk of ``WaylandPipeChunks``.
    static let transferPipeCapacity = WaylandPipeChunks.Reader.chunkSize

    /// Writes the stream `serve` gives for `mimeType` to `fd`, then closes it; failures end this transfer only.
    ///
    /// The chunks are written by one thread of the transfer's own (`DescriptorWriting.write`'s worker), each waiting at
    /// most `timeout` for the reader to make room.
    package static func serveTransfer(mimeType: String, fd: Int32, timeout: Duration, serve: Serve) async {
        defer { Syscall.close(fd) }
        // The reader's pipe (wl-paste's, a toolkit's) is usually 64 KiB: 256 MiB took 4 096 turns of writer and
        // reader, each a wake-up that a busy machine delays; 1 MiB needs 16 times fewer.
        Syscall.enlargePipe(fd, toAtMost: transferPipeCapacity)
        do {
            try await DescriptorWriting.write(try await serve(mimeType), to: fd, timeout: timeout)
        } catch {
            // The reader went away (EPIPE), stopped reading (ETIMEDOUT) or the loader failed: this transfer ends,
            // the ownership stays. Closing the pipe tells the reader.
        }
    }

    /// Gives up `source` if `end` is still its ownership (the id may be another source's by now).
    fileprivate func release(_ source: UInt32, end: Latch<Void>) async {
        perform { storage in
            guard storage.ownerships[source]?.end === end else { return ((), []) }
            return ((), storage.machine.release(source))
        }
        try? await roundTrip()
    }
}

/// A selection this process owns on Wayland: a data-control source.
final class WaylandOwnership: ClipboardOwnership {
    let backend: WaylandBackend
    let source: UInt32
    /// Opens when the ownership ends; ``ended()`` waits for it (or the task's cancellation).
    let end: Latch<Void>

    init(backend: WaylandBackend, source: UInt32, end: Latch<Void>) {
        self.backend = backend
        self.source = source
        self.end = end
    }

    func ended() async {
        await end.wait()
    }

    func release() async {
        await backend.release(source, end: end)
    }
}
