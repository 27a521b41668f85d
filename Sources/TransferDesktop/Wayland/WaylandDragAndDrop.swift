import TransferDisplay
import TransferKit
import TransferKitPlatform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Drag and drop's part of a ``WaylandBackend``: the subscriber of the objects its windows, pointer, drags and drops
/// use (``WaylandSubscription``). It holds drag and drop's machine and the waiters and closures behind the machine's
/// ids, lives in the backend's machine (`WaylandConnection`) and is changed only under its shell's lock.
struct WaylandDragAndDropSubscription: WaylandSubscription {

    /// The machine.
    var machine = WaylandDragAndDropState()
    /// The backend whose machine holds this subscription (weak: the backend owns its machine).
    weak var backend: WaylandBackend?
    /// The backend's time limit: for a drag's transfers and for a dropped drag's target to finish.
    let timeout: Duration
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
        /// The questions for the window's `decide`, answered in order on a thread of the stream's own: never on the
        /// connection's reader thread, which a slow `decide` would stall, nor on one of the task pool's (X11 asks on
        /// the window's task). Only the newest question waits: an answer to an older one would be stale anyway.
        var questions: AsyncStream<Question>.Continuation
        var continuation: AsyncThrowingStream<any DesktopDropHandle, any Error>.Continuation
    }

    /// What `decide` is asked about the drag `offer` over a window.
    struct Question {
        var offer: UInt32
        var targets: [String]
        var actions: [DesktopDragAction]
    }

    init(backend: WaylandBackend) {
        self.backend = backend
        timeout = backend.timeout
    }

    // MARK: - The subscription

    mutating func receive(_ event: WaylandEvent, core: inout WaylandState) -> [WaylandSubscriptionStep] {
        resolve(machine.receive(event, core: &core), core: &core)
    }

    mutating func connectionEnded(_ error: ClipboardError, core: inout WaylandState) -> [WaylandSubscriptionStep] {
        resolve(machine.connectionEnded(error, core: &core), core: &core)
    }

    /// Turns the machine's actions into steps, in order, taking the waiters they name out of the subscription.
    mutating func resolve(_ actions: [WaylandDragAndDropAction], core: inout WaylandState) -> [WaylandSubscriptionStep]
    {
        var steps: [WaylandSubscriptionStep] = []
        for action in actions {
            switch action {
            case .display(let action):
                steps.append(.display(action))
            case .windowShown(let window):
                guard let waiter = shown.removeValue(forKey: window) else { continue }
                steps.append(.effect { _ = waiter.post(()) })
            case .windowClosed(let window):
                let shown = shown.removeValue(forKey: window)
                let drag = drags.removeValue(forKey: window)?.outcome
                let drops = drops.removeValue(forKey: window)?.continuation
                steps.append(
                    .effect {
                        shown?.close(ClipboardError(code: .cancelled, message: "The window was closed."))
                        _ = drag?.post(.cancelled(reason: "the window was closed"))
                        drops?.finish()
                    })
            case .decide(let window, let offer, let targets, let actions):
                guard let questions = drops[window]?.questions else { continue }
                steps.append(.effect { questions.yield(Question(offer: offer, targets: targets, actions: actions)) })
            case .deliver(let window, let drop):
                guard let continuation = drops[window]?.continuation, let backend else {
                    let finished = machine.finishDrop(drop.offer, performed: nil, accepted: drop.action, core: &core)
                    steps += resolve(finished, core: &core)
                    continue
                }
                let handle = WaylandDropHandle(backend: backend, drop: drop)
                steps.append(.effect { continuation.yield(handle) })
            case .serve(let window, let mimeType, let fd):
                guard let serve = drags[window]?.serve else {
                    steps.append(.effect { Syscall.close(fd) })
                    continue
                }
                let timeout = timeout
                steps.append(
                    .effect {
                        Task {
                            await WaylandBackend.serveTransfer(
                                mimeType: mimeType, fd: fd, timeout: timeout, serve: serve)
                        }
                    })
            case .dragEnded(let window, let outcome):
                guard let waiter = drags.removeValue(forKey: window)?.outcome else { continue }
                steps.append(.effect { _ = waiter.post(outcome) })
            case .dropPerformed(let window, let source):
                let timeout = timeout
                steps.append(
                    .effect { [weak backend] in
                        Task {
                            try? await WireTimer.sleep(for: timeout)
                            backend?.expireDrag(window, source: source)
                        }
                    })
            case .endWaits:
                let error = core.failure ?? ClipboardError(code: .cancelled, message: "The connection ended.")
                let waiters = (Array(shown.values), drags.values.map(\.outcome), drops.values.map(\.continuation))
                (shown, drags, drops) = ([:], [:], [:])
                steps.append(
                    .effect {
                        for waiter in waiters.0 { waiter.close(error) }
                        for waiter in waiters.1 { waiter.close(error) }
                        for continuation in waiters.2 { continuation.finish(throwing: error) }
                    })
            }
        }
        return steps
    }
}

extension WaylandBackend {
    /// Connects to the compositor that `environment` names for drag and drop on windows of TransferKit's own:
    /// `wl_compositor`, `wl_shm`, `xdg_wm_base`, `wl_seat` and its pointer, `wl_data_device_manager` version 3,
    /// bound by drag and drop's subscriber. Such a backend has no clipboard.
    ///
    /// - Throws: ``ClipboardError`` as ``WaylandBackend/connect(environment:timeout:binding:)`` does, and
    ///   `protocolUnavailable` naming each global that is missing or too old.
    static func connectForDragAndDrop(environment: [String: String], timeout: Duration) async throws -> WaylandBackend {
        let compositor = try WaylandBackend.socketPath(environment: environment)
        let backend = try await WaylandBackend.connect(environment: environment, timeout: timeout, binding: .none)
        do {
            backend.subscribe(WaylandDragAndDropSubscription(backend: backend))
            try backend.withDragAndDrop { subscription, core throws(ClipboardError) in
                ((), try subscription.machine.bind(compositor: compositor, core: &core))
            }
            // The device announces the current selection at once; the round trip waits for it.
            try await backend.roundTrip()
        } catch {
            backend.close()
            throw error
        }
        return backend
    }

    /// Runs `body` on drag and drop's subscription and the core under the backend's lock, then the steps of the
    /// actions it returns.
    /// - Throws: What `body` throws; ``ClipboardError`` with `protocolUnavailable` when the backend was not connected
    ///   for drag and drop (``connectForDragAndDrop(environment:timeout:)``).
    @discardableResult
    func withDragAndDrop<Result: Sendable>(
        _ body: (inout WaylandDragAndDropSubscription, inout WaylandState) throws(ClipboardError) -> (
            Result, [WaylandDragAndDropAction]
        )
    ) throws(ClipboardError) -> Result {
        let result = try withSubscription(WaylandDragAndDropSubscription.self) {
            subscription, core throws(ClipboardError) in
            let (result, actions) = try body(&subscription, &core)
            return (result, subscription.resolve(actions, core: &core))
        }
        guard let result else {
            throw ClipboardError(
                code: .protocolUnavailable,
                message: "This Wayland connection was not bound for drag and drop; connect with "
                    + "connectForDragAndDrop.")
        }
        return result
    }

    /// ``withDragAndDrop(_:)`` for a body that cannot fail: nothing happens on a backend without drag and drop.
    func updateDragAndDrop(
        _ body: (inout WaylandDragAndDropSubscription, inout WaylandState) -> [WaylandDragAndDropAction]
    ) {
        withSubscription(WaylandDragAndDropSubscription.self) { subscription, core in
            let actions = body(&subscription, &core)
            return ((), subscription.resolve(actions, core: &core))
        }
    }
}

extension WaylandBackend: DragAndDropBackend {
    /// `Wayland (wl_data_device)`.
    package var dragAndDropProtocolName: String { "Wayland (wl_data_device)" }

    /// Opens a toplevel titled `title` showing `lines` (a plain `wl_shm` picture, the lines in a built-in bitmap
    /// font: `WaylandWindowPicture`), and waits, at most the time limit, until the compositor configured it.
    ///
    /// - Throws: ``ClipboardError``: `protocolUnavailable` when the backend was not connected for drag and drop,
    ///   `timedOut`, `transferFailed` when the picture's memory cannot be made, or why the connection ended.
    package func openWindow(title: String, lines: [String]) async throws -> any DesktopWindowHandle {
        let picture = WaylandWindowPicture(lines: lines)
        let file = try Self.makeBufferFile(picture.pixels, prefix: "transferkit-window", for: "a window")
        let shown = Mailbox<Void, ClipboardError>(capacity: 1)
        let window: UInt64
        let surface: UInt32
        do throws(ClipboardError) {
            (window, surface) = try withDragAndDrop { subscription, core throws(ClipboardError) in
                let (window, surface, actions) = try subscription.machine.openWindow(
                    title: title, bufferFD: file, width: picture.width, height: picture.height, core: &core)
                subscription.shown[window] = shown
                return ((window, surface), actions)
            }
        } catch {
            Syscall.close(file)
            throw error
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

    /// The target of the dropped drag `source` had the time limit to finish: if it has not, the drag fails with
    /// `timedOut` (the outcome is unknown).
    fileprivate func expireDrag(_ window: UInt64, source: UInt32) {
        var waiter: Mailbox<DesktopDragOutcome, ClipboardError>?
        updateDragAndDrop { subscription, core in
            let (abandoned, actions) = subscription.machine.dragTimedOut(window, source: source, core: &core)
            if abandoned { waiter = subscription.drags.removeValue(forKey: window)?.outcome }
            return actions
        }
        waiter?.close(
            ClipboardError(
                code: .timedOut,
                message: "The drop target took the drop but did not finish within \(timeout); whether it performed "
                    + "the action is unknown."))
    }

    // MARK: - For the window and drop handles

    /// Replaces `window`'s picture with one of `lines`.
    func show(_ window: UInt64, lines: [String]) async throws {
        let picture = WaylandWindowPicture(lines: lines)
        let file = try Self.makeBufferFile(picture.pixels, prefix: "transferkit-window", for: "a window")
        do throws(ClipboardError) {
            try withDragAndDrop { subscription, core throws(ClipboardError) in
                let actions = try subscription.machine.redraw(
                    window, bufferFD: file, width: picture.width, height: picture.height, core: &core)
                return ((), actions)
            }
        } catch {
            Syscall.close(file)
            throw error
        }
        try await roundTrip()
    }

    /// Drags `offer` from `window` once the user presses on it and moves past the threshold; see
    /// ``DesktopWindowHandle/drag(_:)``.
    func drag(from window: UInt64, _ offer: DesktopDragOffer) async throws -> DesktopDragOutcome {
        let outcome = Mailbox<DesktopDragOutcome, ClipboardError>(capacity: 1)
        try withDragAndDrop { subscription, core throws(ClipboardError) in
            try subscription.machine.armDrag(window, targets: offer.targets, actions: offer.actions, core: core)
            subscription.drags[window] = (offer.serve, outcome)
            return ((), [])
        }
        do {
            return try await outcome.receive(until: .never)
        } catch {
            switch error {
            case .closed(let failure): throw failure
            case .timedOut, .finished, .cancelled:
                updateDragAndDrop { subscription, core in
                    subscription.drags[window] = nil
                    let cancelled = DesktopDragOutcome.cancelled(reason: "cancelled")
                    return subscription.machine.cancelDrag(window, outcome: cancelled, core: &core)
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
        // `decide` answers on a thread of this stream's own, in the order asked (the newest question only, when it
        // falls behind); the thread ends with the stream.
        let (questions, asking) = AsyncStream<WaylandDragAndDropSubscription.Question>.makeStream(
            bufferingPolicy: .bufferingNewest(1))
        Task { [weak self] in
            let worker = DedicatedWorker()
            defer { worker.close() }
            for await question in questions {
                let choice = await worker.run { decide(question.targets, question.actions) }
                self?.updateDragAndDrop { subscription, core in
                    subscription.machine.decided(offer: question.offer, action: choice, core: core)
                }
            }
        }
        do {
            // The previous stream is taken out under the lock and finished after it: finishing runs its
            // `onTermination`, which takes the lock again.
            let (stream, previous) = try withDragAndDrop { subscription, core throws(ClipboardError) in
                try subscription.machine.setDropTarget(window, true, core: core)
                let previous = subscription.drops[window]?.continuation
                subscription.lastStream += 1
                let stream = subscription.lastStream
                subscription.drops[window] = .init(stream: stream, questions: asking, continuation: continuation)
                return ((stream, previous), [])
            }
            previous?.finish()
            continuation.onTermination = { [weak self] _ in
                asking.finish()
                self?.updateDragAndDrop { subscription, core in
                    // Only this stream's end: a newer stream of the same window stays.
                    guard subscription.drops[window]?.stream == stream else { return [] }
                    subscription.drops[window] = nil
                    try? subscription.machine.setDropTarget(window, false, core: core)
                    return []
                }
            }
        } catch {
            asking.finish()
            continuation.finish(throwing: error)
        }
        return stream
    }

    /// Closes `window`.
    func closeWindow(_ window: UInt64) {
        updateDragAndDrop { $0.machine.closeWindow(window, core: &$1) }
    }

    /// Streams `target` of the dropped `offer` through a pipe.
    func receiveDrop(_ offer: UInt32, _ target: String) throws(ClipboardError) -> TransferByteStream {
        let pipe = try Self.makeTransferPipe()
        do throws(ClipboardError) {
            try withDragAndDrop { subscription, core throws(ClipboardError) in
                ((), try subscription.machine.receiveDrop(offer, target, into: pipe.write, core: core))
            }
        } catch {
            Syscall.close(pipe.read)
            Syscall.close(pipe.write)
            throw error
        }
        return pipeStream(pipe.read, source: target, writer: "The drag's source")
    }

    /// Finishes the dropped `offer`.
    func finishDrop(_ offer: UInt32, performed: DesktopDragAction?, accepted: DesktopDragAction) async {
        updateDragAndDrop { $0.machine.finishDrop(offer, performed: performed, accepted: accepted, core: &$1) }
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
