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
/// The machine is ``WaylandConnection`` (the core, ``WaylandState``, its subscriber and the waiters behind the
/// core's ids), held in a ``MachineShell``: the wire layer's ``FramedConnection`` reads the socket on a thread of its
/// own and hands each message to the machine under the shell's lock; the backend carries out the actions that come
/// out. Requests are queued in the order the machine made them, under that lock, for the connection's
/// ``OutboundQueue`` (sent at once when nothing waits before them, otherwise by its writer thread); each transfer (a `send` to serve, a `receive` to stream) uses a thread of
/// its own for its pipe, so nothing here blocks Swift's concurrency pool. Every wait for the compositor ends by the
/// time limit (``Mailbox/receive(until:)``).
/// `WAYLAND_SOCKET` (a descriptor handed down by a compositor) is not used: the backend always connects to
/// `WAYLAND_DISPLAY`.
package final class WaylandBackend: ClipboardBackend {
    /// The protocol in use, such as `Wayland (ext-data-control-v1)`.
    package var protocolName: String {
        shell.read { connection in
            connection.core.usesFocusSurface
                ? Self.focusSurfaceProtocolName : connection.core.flavor?.protocolName ?? "Wayland"
        }
    }

    /// Whether the focus surface exists now (it should only while an operation needs it).
    var isShowingFocusSurface: Bool { shell.read { $0.core.focusSurface != nil } }

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
    /// The connection's machine in its shell, which queues the machine's requests for `outbox` under its lock.
    let shell: MachineShell<WaylandConnection>
    /// The requests on their way to the compositor, and the one thread that writes them (the wire layer's writer).
    private let outbox: OutboundQueue

    /// The most bytes of requests queued for the compositor. Requests are queued under the shell's lock, which the
    /// reader needs too, so a full queue is not waited on: a compositor that leaves this much unread ends the
    /// connection (`timedOut`). Wayland's requests are small (data goes through pipes): this is tens of thousands.
    static let outboxCapacity = 4 << 20

    /// Serves one target of an offer: the stream of its bytes.
    package typealias Serve = @Sendable (String) async throws -> TransferByteStream

    /// Where a watcher's changes go.
    typealias ChangeContinuation = AsyncThrowingStream<ClipboardBackendChange, any Error>.Continuation

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
        outbox = OutboundQueue(capacity: Self.outboxCapacity, connection: connection)
        shell = MachineShell(WaylandConnection()) { [outbox, clock] action in
            guard case .send(let messages) = action else { return action }
            return Self.enqueue(messages, into: outbox, clock: clock).map { .fail($0) }
        }
        outbox.start { [weak self] error in self?.writeFailed(error) }
        connection.start(
            decoder: WaylandFrames(),
            onFrame: { [weak self] (frame, descriptors) throws(WireViolation) in
                guard let self else { throw WireViolation("The Wayland connection was dropped.") }
                perform { ((), $0.receive(frame, descriptors: &descriptors)) }
            },
            onEnd: { [weak self] end in self?.ended(end) })
        do {
            try request { core throws(ClipboardError) in try core.getRegistry() }
            try await roundTrip()
            switch binding {
            case .none:
                return
            case .dataControl:
                try request { core throws(ClipboardError) in try core.bindDataControl(compositor: socketPath) }
            case .focusSurface:
                try request { core throws(ClipboardError) in try core.bindDataDevice(compositor: socketPath) }
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
        shell.read { connection in
            Dictionary(connection.core.globals.map { ($0.interface, $0.version) }, uniquingKeysWith: max)
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
            let source = try perform { connection throws(ClipboardError) in
                try connection.own(selection, targets: targets, serve: serve, end: end)
            }
            let ownership = WaylandOwnership(backend: self, source: source, end: end)
            try await roundTrip()
            return ownership
        }
    }

    /// The MIME types the current owner of `selection` offers (the first ``ClipboardLimits/maximumOfferedTypes``).
    package func offer(of selection: ClipboardSelection) async throws -> ClipboardBackendOffer {
        try shell.read { connection throws(ClipboardError) in try connection.core.checkSelection(selection) }
        return try await withFocus {
            try await roundTrip()
            return shell.read {
                ClipboardBackendOffer(
                    targets: $0.core.offeredTypes(selection), omittedCount: $0.core.omittedTypeCount(selection))
            }
        }
    }

    /// Streams `target` from the owner of `selection` through a pipe it writes to.
    package func receive(_ target: String, from selection: ClipboardSelection) async throws -> TransferByteStream {
        try shell.read { connection throws(ClipboardError) in try connection.core.checkSelection(selection) }
        return try await withFocus { try await receiveNow(target, from: selection) }
    }

    /// ``receive(_:from:)`` once the selection can be seen.
    private func receiveNow(_ target: String, from selection: ClipboardSelection) async throws -> TransferByteStream {
        try await roundTrip()
        let pipe = try Self.makeTransferPipe()
        do {
            // offer.receive(mime, fd): the request owns the write end from here and closes it once sent, so the
            // owner's close ends the data.
            try request { core throws(ClipboardError) in try core.receive(target, from: selection, into: pipe.write) }
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
        if shell.read({ $0.core.usesFocusSurface }) {
            continuation.finish(
                throwing: ClipboardError(
                    code: .protocolUnavailable,
                    message: "The focus-surface fallback cannot watch the clipboard: wl_data_device shows the "
                        + "selection only to the client with keyboard focus."))
            return stream
        }
        do {
            let id = try perform { connection throws(ClipboardError) in
                try connection.watch(selection, continuation: continuation)
            }
            continuation.onTermination = { [weak self] _ in self?.handle(.unwatched(id)) }
        } catch {
            continuation.finish(throwing: error)
        }
        return stream
    }

    /// Ends the connection: ownerships end, transfers and waits fail with `cancelled`.
    package func close() {
        handle(.closed)
    }

    // MARK: - The shell

    /// Runs `request` on the machine under the shell's lock (where the requests it makes are queued, in order), then
    /// carries out the other actions it asks for.
    @discardableResult
    func perform<Answer: Sendable, Failure: Error>(
        _ request: (inout WaylandConnection) throws(Failure) -> (Answer, [WaylandConnection.Action])
    ) throws(Failure) -> Answer {
        let (answer, actions) = try shell.perform(request)
        carryOut(actions)
        return answer
    }

    /// ``perform(_:)`` for one of the core's requests that answers nothing.
    private func request(
        _ body: (inout WaylandState) throws(ClipboardError) -> [WaylandState.Action]
    ) throws(ClipboardError) {
        try perform { connection throws(ClipboardError) in ((), try connection.request(body)) }
    }

    /// Feeds `event` to the machine and carries out the actions.
    private func handle(_ event: WaylandConnection.Event) {
        carryOut(shell.handle(event))
    }

    /// Carries out what the machine asks, in order, once the shell's lock is released.
    private func carryOut(_ actions: [WaylandConnection.Action]) {
        for action in actions {
            switch action {
            case .send(let messages):
                // The shell's in-order handler queues every request under its lock, so none reaches here; one that
                // did would be out of the machine's order (a debug build stops), and is queued now.
                assertionFailure("A Wayland request left the shell's lock unqueued.")
                if let failure = Self.enqueue(messages, into: outbox, clock: clock) { handle(.ended(failure)) }
            case .fail(let error):
                handle(.ended(error))
            case .serve(let serve, let mimeType, let fd):
                let timeout = self.timeout
                Task { await Self.serveTransfer(mimeType: mimeType, fd: fd, timeout: timeout, serve: serve) }
            case .close(let fd):
                Syscall.close(fd)
            case .resume(let waiter):
                _ = waiter.post(())
            case .reject(let waiter, let error):
                waiter.close(error)
            case .endOwnership(let end):
                end.open()
            case .notify(let continuation, let change):
                continuation.yield(change)
            case .finish(let continuation, let error):
                if let error { continuation.finish(throwing: error) } else { continuation.finish() }
            case .disconnect(let focusWaiters, let failure):
                // No new request is taken; the writer thread ends once what is queued is sent or dropped.
                outbox.close(flushingUntil: .after(.zero))
                connection.close()
                for waiter in focusWaiters { waiter.close(failure) }
            case .subscriber(let effect):
                effect()
            }
        }
    }

    // MARK: - The subscriber

    /// Makes `subscription` the subscriber of the objects the core routes (replacing any before it); it binds what
    /// it needs with ``withSubscription(_:_:)``.
    package func subscribe(_ subscription: some WaylandSubscription) {
        perform { connection in
            connection.subscription = subscription
            return ((), [])
        }
    }

    /// Runs `body` on the subscription, when it is an `S`, and the core, under the lock, then carries out its steps:
    /// the core's actions at once, in order, the rest once the lock is released.
    /// - Returns: What `body` returned, or nil (and `body` does not run) without a subscription of type `S`.
    @discardableResult
    package func withSubscription<S: WaylandSubscription, Result: Sendable, Failure: Error>(
        _ type: S.Type,
        _ body: (inout S, inout WaylandState) throws(Failure) -> (Result, [WaylandSubscriptionStep])
    ) throws(Failure) -> Result? {
        try perform { connection throws(Failure) in try connection.withSubscription(type, body) }
    }

    /// Ends the connection with `error`: every wait fails, every ownership ends, every change stream finishes.
    private func fail(_ error: ClipboardError) {
        handle(.ended(error))
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

    /// Encodes `messages` and queues them behind those queued before, on the connection's outbound queue; the queue
    /// owns the descriptors they carry. Called under the shell's lock, so the order is the machine's.
    /// - Returns: The error that ends the connection, if a request cannot be encoded or the queue is full.
    private static func enqueue(
        _ messages: [WaylandMessage], into outbox: OutboundQueue, clock: WireClock
    ) -> ClipboardError? {
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
        let callback = try perform { connection throws(ClipboardError) in try connection.startRoundTrip(reply) }
        do {
            try await reply.receive(until: .after(timeout, on: clock))
        } catch {
            switch error {
            case .closed(let failure):
                throw failure
            case .finished:
                return
            case .cancelled:
                handle(.abandonedRoundTrip(callback))
                throw ClipboardError(code: .cancelled, message: "The wait for the Wayland compositor was cancelled.")
            case .timedOut:
                let failure = perform { $0.roundTripTimedOut(callback, after: timeout) }
                // No failure: the answer came with the deadline.
                if let failure { throw failure }
            }
        }
    }

    // MARK: - The focus surface

    /// Runs `body` while the focus surface has keyboard focus (at once without the fallback): the surface is made
    /// for the first operation that needs it and destroyed when the last one ends.
    private func withFocus<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        guard shell.read({ $0.core.usesFocusSurface }) else { return try await body() }
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
        let isFocused: Bool
        do throws(ClipboardError) {
            isFocused = try perform { connection throws(ClipboardError) in
                try connection.acquireFocus(pixel: pixel, waiter: waiter)
            }
        } catch {
            Syscall.close(pixel)
            throw error
        }
        guard !isFocused else { return }
        do {
            try await waiter.receive(until: .after(timeout, on: clock))
        } catch {
            let failure: ClipboardError
            switch error {
            case .finished:
                // Finished without an error: the focus is held as when posted, and `withFocus` releases it.
                return
            case .closed(let closed):
                failure = closed
            case .cancelled:
                failure = ClipboardError(code: .cancelled, message: "The wait for keyboard focus was cancelled.")
            case .timedOut:
                failure = ClipboardError(
                    code: .timedOut,
                    message: "The Wayland compositor did not give the focus surface (a 1×1 window titled "
                        + "'\(WaylandState.focusSurfaceTitle)') keyboard focus within \(timeout); it may give new "
                        + "windows focus only after user input, or its seat may have no keyboard.")
            }
            releaseFocus()
            throw failure
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
        handle(.focusReleased)
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
        handle(.released(source: source, end: end))
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
