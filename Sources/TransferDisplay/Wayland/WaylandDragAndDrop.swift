import TransferKit
import TransferKitPlatform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The waiters and closures behind drag and drop's ids in ``WaylandState``, kept in the backend's storage.
struct WaylandDragAndDropWaiters {
    typealias Decide = @Sendable (_ targets: [String], _ actions: [DesktopDragAction]) -> DesktopDragAction?

    /// `openWindow`'s waits for the first configure, by window.
    var shown: [UInt64: Mailbox<Void, ClipboardError>] = [:]
    /// Each window's waiting `drag`: how to serve its offer and where its outcome goes.
    var drags: [UInt64: (serve: WaylandBackend.Serve, outcome: Mailbox<DesktopDragOutcome, ClipboardError>)] = [:]
    /// Each drop target's `decide` and its stream of drops.
    var drops: [UInt64: Drops] = [:]
    /// The number of the last stream of drops made.
    var lastStream: UInt64 = 0

    /// One window's stream of drops.
    struct Drops {
        var stream: UInt64
        var decide: Decide
        var continuation: AsyncThrowingStream<any DesktopDropHandle, any Error>.Continuation
    }

    /// Ends every wait with `error` (the connection ended); returns what runs once the lock is released.
    mutating func fail(_ error: ClipboardError) -> [@Sendable () -> Void] {
        let shown = Array(self.shown.values)
        let drags = self.drags.values.map(\.outcome)
        let drops = self.drops.values.map(\.continuation)
        self = WaylandDragAndDropWaiters()
        return [
            {
                for waiter in shown { waiter.close(error) }
                for waiter in drags { waiter.close(error) }
                for continuation in drops { continuation.finish(throwing: error) }
            }
        ]
    }
}

extension WaylandBackend: DragAndDropBackend {
    /// `Wayland (wl_data_device)`.
    package var dragAndDropProtocolName: String { "Wayland (wl_data_device)" }

    /// Opens a toplevel titled `title` showing `lines` (a plain `wl_shm` picture, the lines in a built-in bitmap
    /// font: `WaylandWindowPicture`), and waits, at most the time limit, until the compositor configured it.
    ///
    /// - Throws: ``ClipboardError``: `protocolUnavailable` when the backend was not bound with ``Binding/dragAndDrop``,
    ///   `timedOut`, `transferFailed` when the picture's memory cannot be made, or why the connection ended.
    package func openWindow(title: String, lines: [String]) async throws -> any DesktopWindowHandle {
        let picture = WaylandWindowPicture(lines: lines)
        let file = try Self.makeBufferFile(picture.pixels, prefix: "transferkit-window", for: "a window")
        let shown = Mailbox<Void, ClipboardError>(capacity: 1)
        let (window, surface) = try performDragAndDrop { storage throws(ClipboardError) in
            do throws(ClipboardError) {
                let (window, surface, actions) = try storage.dragAndDrop.openWindow(
                    title: title, bufferFD: file, width: picture.width, height: picture.height,
                    core: &storage.machine)
                storage.dragAndDropWaiters.shown[window] = shown
                return ((window, surface), actions)
            } catch {
                Syscall.close(file)
                throw error
            }
        }
        let handle = WaylandDesktopWindow(backend: self, window: window, identifier: "wl_surface@\(surface)")
        do {
            try await shown.receive(until: .after(timeout, on: clock))
        } catch {
            handle.close()
            switch error {
            case .closed(let failure): throw failure
            case .finished: break
            case .cancelled: throw ClipboardError(code: .cancelled, message: "Opening the window was cancelled.")
            case .timedOut:
                throw ClipboardError(
                    code: .timedOut,
                    message: "The Wayland compositor did not show the window '\(title)' within \(timeout).")
            }
        }
        return handle
    }

    /// Runs `body` on the storage under the lock, as ``perform(_:)`` does, for a body that returns drag and drop's
    /// actions.
    @discardableResult
    func performDragAndDrop<Result: Sendable, Failure: Error>(
        _ body: (inout Storage) throws(Failure) -> (Result, [WaylandDragAndDropAction])
    ) throws(Failure) -> Result {
        try run { storage throws(Failure) in
            let (result, actions) = try body(&storage)
            return (result, resolveDragAndDrop(actions, in: &storage))
        }
    }

    /// Turns drag and drop's actions into what runs once the lock is released, in order.
    func resolveDragAndDrop(
        _ actions: [WaylandDragAndDropAction], in storage: inout Storage
    ) -> [@Sendable () -> Void] {
        actions.flatMap { resolve($0, in: &storage) }
    }

    /// Runs one of drag and drop's actions: returns what runs once the lock is released.
    private func resolve(_ action: WaylandDragAndDropAction, in storage: inout Storage) -> [@Sendable () -> Void] {
        switch action {
        case .display(let action):
            return resolve([action], in: &storage)
        case .endWaits:
            let failure = storage.machine.failure ?? ClipboardError(code: .cancelled, message: "The connection ended.")
            return storage.dragAndDropWaiters.fail(failure)
        case .windowShown(let window):
            guard let waiter = storage.dragAndDropWaiters.shown.removeValue(forKey: window) else { return [] }
            return [{ _ = waiter.post(()) }]
        case .windowClosed(let window):
            let shown = storage.dragAndDropWaiters.shown.removeValue(forKey: window)
            let drag = storage.dragAndDropWaiters.drags.removeValue(forKey: window)?.outcome
            let drops = storage.dragAndDropWaiters.drops.removeValue(forKey: window)?.continuation
            return [
                {
                    shown?.close(ClipboardError(code: .cancelled, message: "The window was closed."))
                    _ = drag?.post(.cancelled(reason: "the window was closed"))
                    drops?.finish()
                }
            ]
        case .decide(let window, let offer, let targets, let actions):
            guard let decide = storage.dragAndDropWaiters.drops[window]?.decide else { return [] }
            return [
                { [weak self] in
                    let choice = decide(targets, actions)
                    self?.performDragAndDrop {
                        ((), $0.dragAndDrop.decided(offer: offer, action: choice, core: $0.machine))
                    }
                }
            ]
        case .deliver(let window, let drop):
            guard let continuation = storage.dragAndDropWaiters.drops[window]?.continuation else {
                let actions = storage.dragAndDrop.finishDrop(
                    drop.offer, performed: nil, accepted: drop.action, core: &storage.machine)
                return resolveDragAndDrop(actions, in: &storage)
            }
            let handle = WaylandDropHandle(backend: self, drop: drop)
            return [{ continuation.yield(handle) }]
        case .serve(let window, let mimeType, let fd):
            guard let serve = storage.dragAndDropWaiters.drags[window]?.serve else { return [{ Syscall.close(fd) }] }
            let timeout = self.timeout
            return [{ Task { await Self.serveTransfer(mimeType: mimeType, fd: fd, timeout: timeout, serve: serve) } }]
        case .dragEnded(let window, let outcome):
            guard let waiter = storage.dragAndDropWaiters.drags.removeValue(forKey: window)?.outcome else { return [] }
            return [{ _ = waiter.post(outcome) }]
        case .dropPerformed(let window, let source):
            let timeout = self.timeout
            return [
                {
                    Task { [weak self] in
                        try? await WireTimer.sleep(for: timeout)
                        self?.expireDrag(window, source: source)
                    }
                }
            ]
        }
    }

    /// The target of the dropped drag `source` had the time limit to finish: if it has not, the drag fails with
    /// `timedOut` (the outcome is unknown).
    private func expireDrag(_ window: UInt64, source: UInt32) {
        let waiter = performDragAndDrop { storage in
            let (abandoned, actions) = storage.dragAndDrop.dragTimedOut(window, source: source, core: &storage.machine)
            return (abandoned ? storage.dragAndDropWaiters.drags.removeValue(forKey: window)?.outcome : nil, actions)
        }
        waiter?.close(
            ClipboardError(
                code: .timedOut,
                message: "The drop target took the drop but did not finish within \(timeout); whether it performed "
                    + "the action is unknown."))
    }

    /// A new pipe for a transfer, enlarged to ``transferPipeCapacity`` where the system allows.
    /// - Throws: ``ClipboardError`` with `transferFailed` when the system has no descriptors left.
    static func makeTransferPipe() throws(ClipboardError) -> (read: Int32, write: Int32) {
        do throws(SystemError) {
            let pipe = try Syscall.makePipe()
            Syscall.enlargePipe(pipe.read, toAtMost: transferPipeCapacity)
            return pipe
        } catch {
            throw ClipboardError(
                code: .transferFailed, message: "Cannot make a pipe for the transfer: \(error.reason).", cause: error)
        }
    }

    // MARK: - For the window and drop handles

    /// Replaces `window`'s picture with one of `lines`.
    func show(_ window: UInt64, lines: [String]) async throws {
        let picture = WaylandWindowPicture(lines: lines)
        let file = try Self.makeBufferFile(picture.pixels, prefix: "transferkit-window", for: "a window")
        try performDragAndDrop { storage throws(ClipboardError) in
            do throws(ClipboardError) {
                return (
                    (),
                    try storage.dragAndDrop.redraw(
                        window, bufferFD: file, width: picture.width, height: picture.height, core: &storage.machine)
                )
            } catch {
                Syscall.close(file)
                throw error
            }
        }
        try await roundTrip()
    }

    /// Drags `offer` from `window` once the user presses on it and moves past the threshold; see
    /// ``DesktopWindowHandle/drag(_:)``.
    func drag(from window: UInt64, _ offer: DesktopDragOffer) async throws -> DesktopDragOutcome {
        let outcome = Mailbox<DesktopDragOutcome, ClipboardError>(capacity: 1)
        try performDragAndDrop { storage throws(ClipboardError) in
            try storage.dragAndDrop.armDrag(
                window, targets: offer.targets, actions: offer.actions, core: storage.machine)
            storage.dragAndDropWaiters.drags[window] = (offer.serve, outcome)
            return ((), [])
        }
        do {
            return try await outcome.receive(until: .never)
        } catch {
            switch error {
            case .closed(let failure): throw failure
            case .timedOut, .finished, .cancelled:
                performDragAndDrop { storage in
                    storage.dragAndDropWaiters.drags[window] = nil
                    return (
                        (),
                        storage.dragAndDrop.cancelDrag(
                            window, outcome: .cancelled(reason: "cancelled"), core: &storage.machine)
                    )
                }
                throw ClipboardError(code: .cancelled, message: "The drag was cancelled.")
            }
        }
    }

    /// Makes `window` a drop target delivering to a new stream; see ``DesktopWindowHandle/drops(decide:)``.
    func drops(
        on window: UInt64,
        decide: @escaping @Sendable (_ targets: [String], _ actions: [DesktopDragAction]) -> DesktopDragAction?
    ) -> AsyncThrowingStream<any DesktopDropHandle, any Error> {
        let (stream, continuation) = AsyncThrowingStream<any DesktopDropHandle, any Error>.makeStream()
        do {
            // The previous stream is taken out under the lock and finished after it: finishing runs its
            // `onTermination`, which takes the lock again.
            let (stream, previous) = try performDragAndDrop { storage throws(ClipboardError) in
                try storage.dragAndDrop.setDropTarget(window, true, core: storage.machine)
                let previous = storage.dragAndDropWaiters.drops[window]?.continuation
                storage.dragAndDropWaiters.lastStream += 1
                let stream = storage.dragAndDropWaiters.lastStream
                storage.dragAndDropWaiters.drops[window] = .init(
                    stream: stream, decide: decide, continuation: continuation)
                return ((stream, previous), [])
            }
            previous?.finish()
            continuation.onTermination = { [weak self] _ in
                self?.performDragAndDrop { storage in
                    // Only this stream's end: a newer stream of the same window stays.
                    guard storage.dragAndDropWaiters.drops[window]?.stream == stream else { return ((), []) }
                    storage.dragAndDropWaiters.drops[window] = nil
                    try? storage.dragAndDrop.setDropTarget(window, false, core: storage.machine)
                    return ((), [])
                }
            }
        } catch {
            continuation.finish(throwing: error)
        }
        return stream
    }

    /// Closes `window`.
    func closeWindow(_ window: UInt64) {
        performDragAndDrop { ((), $0.dragAndDrop.closeWindow(window, core: &$0.machine)) }
    }

    /// Streams `target` of the dropped `offer` through a pipe.
    func receiveDrop(_ offer: UInt32, _ target: String) throws(ClipboardError) -> TransferByteStream {
        let pipe = try Self.makeTransferPipe()
        do throws(ClipboardError) {
            try performDragAndDrop { storage throws(ClipboardError) in
                ((), try storage.dragAndDrop.receiveDrop(offer, target, into: pipe.write, core: storage.machine))
            }
        } catch {
            Syscall.close(pipe.read)
            Syscall.close(pipe.write)
            throw error
        }
        return TransferByteStream(
            WaylandPipeChunks(
                descriptor: pipe.read, timeout: timeout, clock: clock, source: target, writer: "The drag's source"))
    }

    /// Finishes the dropped `offer`.
    func finishDrop(_ offer: UInt32, performed: DesktopDragAction?, accepted: DesktopDragAction) async {
        performDragAndDrop {
            ((), $0.dragAndDrop.finishDrop(offer, performed: performed, accepted: accepted, core: &$0.machine))
        }
        try? await roundTrip()
    }
}

/// A window of TransferKit's own on Wayland: an `xdg_toplevel` with a `wl_shm` picture.
final class WaylandDesktopWindow: DesktopWindowHandle {
    let backend: WaylandBackend
    let window: UInt64
    let identifier: String

    init(backend: WaylandBackend, window: UInt64, identifier: String) {
        self.backend = backend
        self.window = window
        self.identifier = identifier
    }

    deinit { backend.closeWindow(window) }

    func show(lines: [String]) async throws {
        try await backend.show(window, lines: lines)
    }

    func drag(_ offer: DesktopDragOffer) async throws -> DesktopDragOutcome {
        try await backend.drag(from: window, offer)
    }

    func drops(
        decide: @escaping @Sendable (_ targets: [String], _ actions: [DesktopDragAction]) -> DesktopDragAction?
    ) -> AsyncThrowingStream<any DesktopDropHandle, any Error> {
        backend.drops(on: window, decide: decide)
    }

    func close() {
        backend.closeWindow(window)
    }
}

/// A drop on a Wayland window of TransferKit's own: its `wl_data_offer`, alive until ``finish(performed:)``.
final class WaylandDropHandle: DesktopDropHandle {
    let backend: WaylandBackend
    let drop: WaylandDrop
    private let isFinished = SanitizedMutex(false)

    init(backend: WaylandBackend, drop: WaylandDrop) {
        self.backend = backend
        self.drop = drop
    }

    deinit {
        if !isFinished.withLock({ $0 }) {
            let (backend, drop) = (backend, drop)
            Task { await backend.finishDrop(drop.offer, performed: nil, accepted: drop.action) }
        }
    }

    var targets: [String] { drop.targets }
    var sourceActions: [DesktopDragAction] { drop.sourceActions }
    var action: DesktopDragAction { drop.action }
    var location: DesktopPoint { drop.location }
    var source: String? { nil }

    func receive(_ target: String) async throws -> TransferByteStream {
        try backend.receiveDrop(drop.offer, target)
    }

    func finish(performed: DesktopDragAction?) async {
        let first = isFinished.withLock { isFinished in
            defer { isFinished = true }
            return !isFinished
        }
        guard first else { return }
        await backend.finishDrop(drop.offer, performed: performed, accepted: drop.action)
    }
}
