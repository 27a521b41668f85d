import Foundation
package import TransferKit
import TransferKitPlatform

/// The clipboard over a Wayland compositor's data-control protocol (`ext-data-control-v1`, or
/// `zwlr_data_control_manager_v1` where only that exists), spoken directly over the compositor's Unix socket.
///
/// One thread per connection reads the socket and dispatches events; one more writes requests in order; each
/// transfer (a `send` to serve, a `receive` to stream) has a thread of its own for its pipe, so nothing here blocks
/// Swift's concurrency pool. `WAYLAND_SOCKET` (a descriptor handed down by a compositor) is not used: the backend
/// always connects to `WAYLAND_DISPLAY`.
package final class WaylandBackend: ClipboardBackend {
    /// The protocol in use, such as `Wayland (ext-data-control-v1)`.
    package var protocolName: String { protocolNameStorage.withLock { $0 } }

    let socket: UnixSocket
    let writer: BlockingWorker
    let state: SanitizedMutex<WaylandState>
    /// How long a round trip or a pipe may stay silent before `timedOut`.
    let timeout: Duration

    /// Connects to the compositor that `environment` names (`WAYLAND_DISPLAY`, absolute or relative to
    /// `XDG_RUNTIME_DIR`).
    ///
    /// - Parameters:
    ///   - environment: The process environment, or a test's.
    ///   - timeout: The longest wait for the compositor's answers and for a silent transfer.
    /// - Throws: ``ClipboardError``: `noDisplay` without `WAYLAND_DISPLAY` (or a relative one without
    ///   `XDG_RUNTIME_DIR`), `connectionFailed`, `protocolUnavailable` without data control, `timedOut`,
    ///   `protocolViolation`.
    package static func connect(environment: [String: String], timeout: Duration) async throws -> WaylandBackend {
        guard let display = environment["WAYLAND_DISPLAY"], !display.isEmpty else {
            throw ClipboardError(
                code: .noDisplay,
                message: "WAYLAND_DISPLAY is not set, so there is no Wayland compositor to talk to; run inside a "
                    + "Wayland session or set WAYLAND_DISPLAY to the compositor's socket.")
        }
        let path: String
        if display.hasPrefix("/") {
            path = display
        } else if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            path = runtime.hasSuffix("/") ? runtime + display : runtime + "/" + display
        } else {
            throw ClipboardError(
                code: .noDisplay,
                message: "WAYLAND_DISPLAY is \(display), a name relative to XDG_RUNTIME_DIR, which is not set; set "
                    + "XDG_RUNTIME_DIR or give WAYLAND_DISPLAY as an absolute path.")
        }
        return try await WaylandBackend(socketPath: path, timeout: timeout)
    }

    /// Connects to the compositor listening at `socketPath` and binds its seat and data-control manager.
    ///
    /// - Throws: ``ClipboardError`` as ``connect(environment:timeout:)`` does, except `noDisplay`.
    package init(socketPath: String, timeout: Duration) async throws {
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
        writer = BlockingWorker(name: "TransferClipboard Wayland writer")
        state = SanitizedMutex(WaylandState())
        startReading()
        do {
            let flavor = try await setUp(socketPath: socketPath)
            protocolNameStorage.withLock { $0 = flavor.protocolName }
        } catch {
            close()
            throw error
        }
    }

    private let protocolNameStorage = SanitizedMutex("Wayland")

    deinit {
        socket.shutdown()
        writer.stop()
    }

    // MARK: - ClipboardBackend

    /// Takes `selection`, offering `targets`; `serve` runs once per request, on a task of its own.
    package func own(
        _ selection: ClipboardSelection, targets: [String],
        serve: @escaping @Sendable (String) async throws -> TransferByteStream
    ) async throws -> any ClipboardOwnership {
        try checkPrimary(selection)
        let source = try state.withLock { state throws(ClipboardError) -> UInt32 in
            try state.checkOpen()
            let source = try state.objects.create(.dataControlSource)
            var messages = [
                WaylandMessage(objectID: state.manager, opcode: 0, arguments: [.newID(source)])  // create_data_source
            ]
            for target in targets {
                messages.append(WaylandMessage(objectID: source, opcode: 0, arguments: [.string(target)]))  // offer
            }
            messages.append(
                WaylandMessage(
                    objectID: state.device, opcode: selection == .primary ? 2 : 0, arguments: [.object(source)]))
            try queue(messages)
            state.sources[source] = WaylandState.Source(serve: serve)
            return source
        }
        let ownership = WaylandOwnership(backend: self, source: source, selection: selection)
        try await roundTrip()
        return ownership
    }

    /// The MIME types the current owner of `selection` offers.
    package func targets(of selection: ClipboardSelection) async throws -> [String] {
        try checkPrimary(selection)
        try await roundTrip()
        return state.withLock { state in
            state.current[selection].flatMap { state.offers[$0] } ?? []
        }
    }

    /// Streams `target` from the owner of `selection` through a pipe it writes to.
    package func receive(_ target: String, from selection: ClipboardSelection) async throws -> TransferByteStream {
        try checkPrimary(selection)
        try await roundTrip()
        let pipe: (read: Int32, write: Int32)
        do {
            pipe = try Syscall.makePipe()
        } catch {
            throw ClipboardError(
                code: .transferFailed, message: "Cannot make a pipe for the transfer: \(error.reason).", cause: error)
        }
        do {
            try state.withLock { state throws(ClipboardError) in
                try state.checkOpen()
                guard let offer = state.current[selection], state.offers[offer]?.contains(target) == true else {
                    throw ClipboardError(
                        code: .typeUnavailable,
                        message: "The \(selection.rawValue) does not offer \(target) now; list its types first.",
                        source: target)
                }
                // offer.receive(mime, fd): the descriptor is duplicated into the message when it is sent.
                try queue([WaylandMessage(objectID: offer, opcode: 0, arguments: [.string(target), .fd(pipe.write)])])
            }
        } catch {
            Syscall.close(pipe.read)
            Syscall.close(pipe.write)
            throw error
        }
        // Our copy of the write end closes once the writer thread has sent it, so the owner's close ends the data.
        writer.enqueue { Syscall.close(pipe.write) }
        return TransferByteStream(WaylandPipeChunks(descriptor: pipe.read, timeout: timeout, source: target))
    }

    /// Each change of `selection`: the new owner's MIME types, empty when cleared.
    package func changes(of selection: ClipboardSelection) -> AsyncThrowingStream<[String], any Error> {
        let (stream, continuation) = AsyncThrowingStream<[String], any Error>.makeStream()
        let failure: ClipboardError? = state.withLock { state in
            if let failure = state.failure { return failure }
            let id = state.nextWatcherID
            state.nextWatcherID += 1
            state.watchers[id] = (selection, continuation)
            continuation.onTermination = { [weak self] _ in
                self?.state.withLock { _ = $0.watchers.removeValue(forKey: id) }
            }
            return nil
        }
        if let failure { continuation.finish(throwing: failure) }
        return stream
    }

    /// Ends the connection: ownerships end, transfers and waits fail with `cancelled`.
    package func close() {
        state.withLock { state in
            if state.failure == nil {
                state.failure = ClipboardError(code: .cancelled, message: "The Wayland connection was closed.")
            }
        }
        socket.shutdown()
    }

    // MARK: - Connection

    /// Binds the seat and the manager and makes the data device.
    private func setUp(socketPath: String) async throws -> WaylandDataControlFlavor {
        try state.withLock { state throws(ClipboardError) in
            state.registry = try state.objects.create(.registry)
            try queue([WaylandMessage(objectID: 1, opcode: 1, arguments: [.newID(state.registry)])])
        }
        try await roundTrip()
        let flavor = try state.withLock { state throws(ClipboardError) -> WaylandDataControlFlavor in
            try state.checkOpen()
            let globals = state.globals
            let manager = WaylandDataControlFlavor.allCases.compactMap { flavor in
                globals.first { $0.interface == flavor.managerInterface }.map { (flavor, $0) }
            }.first
            guard let (flavor, managerGlobal) = manager else {
                throw ClipboardError(
                    code: .protocolUnavailable,
                    message: "The Wayland compositor at \(socketPath) offers neither ext_data_control_manager_v1 "
                        + "(ext-data-control-v1) nor zwlr_data_control_manager_v1 (wlr-data-control), so no client "
                        + "can read or write its clipboard without focus; use a compositor that has one (sway, "
                        + "Hyprland, KDE Plasma 6, labwc, niri, …) or X11 through DISPLAY (Xwayland).",
                    source: socketPath)
            }
            guard let seat = state.globals.first(where: { $0.interface == "wl_seat" }) else {
                throw ClipboardError(
                    code: .protocolUnavailable,
                    message: "The Wayland compositor at \(socketPath) has no seat (wl_seat), and a clipboard "
                        + "belongs to a seat.", source: socketPath)
            }
            let seatID = try state.objects.create(.seat)
            state.manager = try state.objects.create(.dataControlManager)
            state.managerVersion = min(managerGlobal.version, flavor.preferredVersion)
            state.device = try state.objects.create(.dataControlDevice)
            try queue([
                bind(registry: state.registry, seat, version: 1, id: seatID),
                bind(registry: state.registry, managerGlobal, version: state.managerVersion, id: state.manager),
                // get_data_device(id, seat)
                WaylandMessage(
                    objectID: state.manager, opcode: 1, arguments: [.newID(state.device), .object(seatID)]),
            ])
            return flavor
        }
        // The device announces the current selections at once; the round trip waits for them.
        try await roundTrip()
        return flavor
    }

    private func bind(
        registry: UInt32, _ global: WaylandState.Global, version: UInt32, id: UInt32
    ) -> WaylandMessage {
        WaylandMessage(
            objectID: registry, opcode: 0,
            arguments: [.uint(global.name), .string(global.interface), .uint(version), .newID(id)])
    }

    /// Encodes `messages` and queues them for the writer thread, in order (call it under the state lock, so ids
    /// reach the compositor in the order they were made).
    func queue(_ messages: [WaylandMessage]) throws(ClipboardError) {
        var bytes: [UInt8] = []
        var fds: [Int32] = []
        for message in messages {
            let encoded = try WaylandWire.encode(message)
            if !encoded.fds.isEmpty {
                // Descriptors travel on the first byte of a sendmsg; give each message carrying one its own call.
                if !bytes.isEmpty { send(bytes, fds: fds) }
                send(encoded.bytes, fds: encoded.fds)
                bytes = []
                fds = []
            } else {
                bytes += encoded.bytes
            }
        }
        if !bytes.isEmpty { send(bytes, fds: fds) }
    }

    private func send(_ bytes: [UInt8], fds: [Int32]) {
        let timeout = self.timeout
        writer.enqueue { [weak self, socket] in
            do throws(SystemError) {
                try socket.sendAll(bytes, descriptors: fds, timeout: timeout)
            } catch {
                // sendAll reports a peer that stopped reading as a failed poll (ETIMEDOUT).
                let code: ClipboardError.Code = error.call == "poll" ? .timedOut : .connectionFailed
                self?.fail(
                    ClipboardError(
                        code: code, message: "Cannot write to the Wayland compositor: \(error.reason).", cause: error))
            }
        }
    }

    /// Waits until the compositor has handled every request sent so far (`wl_display.sync`).
    func roundTrip() async throws {
        let callback = try state.withLock { state throws(ClipboardError) -> UInt32 in
            try state.checkOpen()
            return try state.objects.create(.callback)
        }
        let timeout = self.timeout
        let timer = Task { [weak self] in
            try await Task.sleep(for: timeout)
            self?.fail(
                ClipboardError(
                    code: .timedOut, message: "The Wayland compositor did not answer within \(timeout)."),
                callback: callback)
        }
        defer { timer.cancel() }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            // The waiter is in place before `sync` is sent, under the lock the reader takes for `done`: an answer
            // that came first would find nobody to resume.
            let failure: ClipboardError? = state.withLock { state in
                if let failure = state.failure { return failure }
                do throws(ClipboardError) {
                    try queue([WaylandMessage(objectID: 1, opcode: 0, arguments: [.newID(callback)])])  // sync
                } catch {
                    return error
                }
                state.callbacks[callback] = continuation
                return nil
            }
            if let failure { continuation.resume(throwing: failure) }
        }
    }

    /// Fails a round trip that took too long: the connection is no longer trusted.
    private func fail(_ error: ClipboardError, callback: UInt32) {
        let pending = state.withLock { $0.callbacks[callback] != nil }
        if pending { fail(error) }
    }

    /// Ends the connection with `error`: every wait fails, every ownership ends, every change stream finishes.
    func fail(_ error: ClipboardError) {
        let actions = state.withLock { state in
            if state.failure == nil { state.failure = error }
            return state.drain()
        }
        socket.shutdown()
        for action in actions { action() }
    }

    private func checkPrimary(_ selection: ClipboardSelection) throws(ClipboardError) {
        let version = state.withLock { $0.managerVersion }
        if selection == .primary && version < 2 && protocolNameStorage.withLock({ $0 }).contains("zwlr") {
            throw ClipboardError(
                code: .protocolUnavailable,
                message: "This compositor's zwlr_data_control_manager_v1 is version 1, which has no primary "
                    + "selection; use the clipboard.")
        }
    }

    private func startReading() {
        let thread = Thread { [weak self, socket] in
            var frames = WaylandFrameReader()
            var fds: [Int32] = []
            var buffer = [UInt8](repeating: 0, count: WaylandWire.maximumMessageSize)
            defer {
                for fd in fds { Syscall.close(fd) }
            }
            while true {
                let outcome = buffer.withUnsafeMutableBytes { bytes in
                    Result { () throws(SystemError) in try socket.receive(into: bytes, descriptors: &fds) }
                }
                guard let self else { return }
                let count: Int
                switch outcome {
                case .success(let received): count = received
                case .failure(let error):
                    self.fail(
                        ClipboardError(
                            code: .connectionFailed,
                            message: "Cannot read from the Wayland compositor: \(error.reason).", cause: error))
                    return
                }
                guard count > 0 else {
                    self.fail(
                        ClipboardError(
                            code: .connectionFailed,
                            message: "The Wayland compositor closed the connection; it may have exited."))
                    return
                }
                frames.append(buffer[..<count])
                do throws(ClipboardError) {
                    while let frame = try frames.next() {
                        try self.dispatch(frame, fds: &fds)
                    }
                    guard fds.count <= 4 * WaylandWire.maximumDescriptorsPerMessage + 28 else {
                        throw WaylandWire.violation("passed \(fds.count) file descriptors that no message claims")
                    }
                } catch {
                    self.fail(error)
                    return
                }
            }
        }
        thread.name = "TransferClipboard Wayland reader"
        thread.start()
    }

    /// Decodes one event and acts on it.
    private func dispatch(_ frame: WaylandFrame, fds: inout [Int32]) throws(ClipboardError) {
        let actions = try state.withLock { state throws(ClipboardError) -> [@Sendable () -> Void] in
            let (event, live) = try state.objects.decode(frame, fds: &fds)
            return try state.apply(event, live: live, backend: self)
        }
        for action in actions { action() }
    }

    /// Writes the stream `serve` gives for `mimeType` to `fd`, then closes it; failures end this transfer only.
    static func serveTransfer(
        mimeType: String, fd: Int32, timeout: Duration,
        serve: @escaping @Sendable (String) async throws -> TransferByteStream
    ) async {
        let worker = BlockingWorker(name: "TransferClipboard Wayland send")
        defer { worker.stop { Syscall.close(fd) } }
        do {
            for try await chunk in try await serve(mimeType) {
                try Task.checkCancellation()
                try await worker.run {
                    let outcome = chunk.withUnsafeBytes { bytes in
                        Result { () throws(SystemError) in try Syscall.write(fd, bytes, timeout: timeout) }
                    }
                    try outcome.get()
                }
            }
        } catch {
            // The reader went away (EPIPE), stopped reading (ETIMEDOUT) or the loader failed: this transfer ends,
            // the ownership stays. Closing the pipe tells the reader.
        }
    }
}

/// A selection this process owns on Wayland: a data-control source.
final class WaylandOwnership: ClipboardOwnership {
    let backend: WaylandBackend
    let source: UInt32
    let selection: ClipboardSelection

    init(backend: WaylandBackend, source: UInt32, selection: ClipboardSelection) {
        self.backend = backend
        self.source = source
        self.selection = selection
    }

    func ended() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waiting = backend.state.withLock { state in
                guard state.sources[source] != nil else { return false }
                state.sources[source]?.waiters.append(continuation)
                return true
            }
            if !waiting { continuation.resume() }
        }
    }

    func release() async {
        let waiters = backend.state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard let entry = state.sources.removeValue(forKey: source) else { return [] }
            var messages: [WaylandMessage] = []
            if state.failure == nil {
                // Still the selection (no `cancelled` yet): clear it, then destroy the source.
                messages.append(
                    WaylandMessage(
                        objectID: state.device, opcode: selection == .primary ? 2 : 0, arguments: [.object(0)]))
                messages.append(WaylandMessage(objectID: source, opcode: 1))
                try? backend.queue(messages)
            }
            state.objects.destroy(source)
            return entry.waiters
        }
        for waiter in waiters { waiter.resume() }
        try? await backend.roundTrip()
    }
}
