import TransferKitPlatform

/// What a ``WaylandBackend``'s ``MachineShell`` holds: the connection's core (``WaylandState``), its subscriber, and
/// the waiters, streams and serving closures that the core's ids stand for.
///
/// The core decides by id; this machine matches its actions to what waits on them, so that an answer and its waiter
/// are found in the one critical section where the core made the answer, and carries the subscriber's turn out in
/// that section too (the ids the subscriber takes and the requests it makes must reach the compositor in the core's
/// order). Everything it returns is an ``Action`` that the backend carries out, ``Action/send(_:)`` still under the
/// lock (the shell's in-order handler) and the rest after it is released; it resumes nothing and sends nothing
/// itself.
///
/// Events that need no answer are ``Event``s; requests that answer at once (a new source's id, a round trip's
/// callback, a refusal) are its mutating methods, run with ``MachineShell/perform(_:)``.
struct WaylandConnection: ProtocolMachine {
    /// The connection's core.
    var core = WaylandState()
    /// The subscriber of the objects the core routes, once one subscribed.
    var subscription: (any WaylandSubscription)?
    /// The round trips' waiters, by callback.
    private var roundTrips: [UInt32: Mailbox<Void, ClipboardError>] = [:]
    /// The sources this client owns: how each serves, and the latch its ownership's end opens.
    private var ownerships: [UInt32: (serve: WaylandBackend.Serve, end: Latch<Void>)] = [:]
    /// The change streams, by watcher.
    private var watchers: [UInt64: WaylandBackend.ChangeContinuation] = [:]
    /// The waits for the focus surface's keyboard focus.
    private var focusWaiters: [Mailbox<Void, ClipboardError>] = []
    /// The operations that need the focus surface now; it goes when the last one ends.
    private var focusUsers = 0

    /// What happens to the connection that asks for no answer.
    enum Event: Sendable {
        /// The connection ended with this error (the reader stopped, a write failed, the compositor broke the
        /// protocol); the user's close is ``closed``.
        case ended(ClipboardError)
        /// The user closed the connection.
        case closed
        /// The stream of watcher `id` was dropped.
        case unwatched(UInt64)
        /// The waiter of round trip `callback` gave up (its task was cancelled).
        case abandonedRoundTrip(UInt32)
        /// One operation finished with the focus surface; the last one hides it.
        case focusReleased
        /// The owner gave up `source`, if `end` is still its ownership's (the id may be another source's by now).
        case released(source: UInt32, end: Latch<Void>)
    }

    /// What the backend carries out, in order.
    enum Action: Sendable {
        /// Queue these requests for the compositor (carried out under the lock, so ids go out in the core's order);
        /// the descriptors they carry are the queue's.
        case send([WaylandMessage])
        /// A request could not be queued: the connection ends with this error.
        case fail(ClipboardError)
        /// Write `mimeType`, as `serve` gives it, into `fd` (a transfer of its own, which closes `fd`).
        case serve(WaylandBackend.Serve, mimeType: String, fd: Int32)
        /// Close a descriptor nobody will use.
        case close(Int32)
        /// The wait ends: its round trip finished, or the focus came.
        case resume(Mailbox<Void, ClipboardError>)
        /// The wait fails with this error.
        case reject(Mailbox<Void, ClipboardError>, ClipboardError)
        /// An ownership ended: open its latch.
        case endOwnership(Latch<Void>)
        /// A change stream sees a new owner.
        case notify(WaylandBackend.ChangeContinuation, ClipboardBackendChange)
        /// A change stream ends, with the error or (when the user closed the connection) without.
        case finish(WaylandBackend.ChangeContinuation, ClipboardError?)
        /// The connection is over: stop the writer, shut the socket down, fail the focus waits.
        case disconnect(focusWaiters: [Mailbox<Void, ClipboardError>], ClipboardError)
        /// What the subscriber runs once the lock is released (resumes its waiter, starts its transfer).
        case subscriber(@Sendable () -> Void)
    }

    mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .ended(let error):
            return resolve(core.fail(error))
        case .closed:
            return resolve(core.close())
        case .unwatched(let id):
            core.unwatch(id)
            watchers[id] = nil
            return []
        case .abandonedRoundTrip(let callback):
            core.abandonRoundTrip(callback)
            roundTrips[callback] = nil
            return []
        case .focusReleased:
            focusUsers -= 1
            guard focusUsers == 0 else { return [] }
            focusWaiters = []
            return resolve(core.hideFocusSurface())
        case .released(let source, let end):
            guard ownerships[source]?.end === end else { return [] }
            return resolve(core.release(source))
        }
    }

    // MARK: - Requests

    /// Decodes and handles one frame the reader cut; the event takes the descriptors it carries from `descriptors`.
    mutating func receive(_ frame: WaylandFrame, descriptors: inout [Int32]) -> [Action] {
        resolve(core.receive(frame, descriptors: &descriptors))
    }

    /// Runs `request`, one of the core's that answers nothing, and resolves its actions.
    mutating func request(
        _ request: (inout WaylandState) throws(ClipboardError) -> [WaylandState.Action]
    ) throws(ClipboardError) -> [Action] {
        resolve(try request(&core))
    }

    /// Starts a round trip whose end `reply` waits for.
    /// - Returns: The round trip's callback (for ``Event/abandonedRoundTrip(_:)`` and ``roundTripTimedOut(_:after:)``).
    mutating func startRoundTrip(_ reply: Mailbox<Void, ClipboardError>) throws(ClipboardError) -> (UInt32, [Action]) {
        // The waiter is in place before `sync` is queued, in the section the reader takes for `done`.
        let (callback, actions) = try core.startRoundTrip()
        roundTrips[callback] = reply
        return (callback, resolve(actions))
    }

    /// Round trip `callback` passed its deadline: the connection ends, unless the answer came first.
    /// - Returns: Why the connection ended, if it has.
    mutating func roundTripTimedOut(_ callback: UInt32, after timeout: Duration) -> (ClipboardError?, [Action]) {
        let actions = resolve(core.roundTripTimedOut(callback, after: timeout))
        return (core.failure, actions)
    }

    /// Takes `selection` with a new source offering `targets`, served by `serve`; `end` opens when it is lost.
    mutating func own(
        _ selection: ClipboardSelection, targets: [String], serve: @escaping WaylandBackend.Serve, end: Latch<Void>
    ) throws(ClipboardError) -> (UInt32, [Action]) {
        let (source, actions) = try core.own(selection, targets: targets)
        ownerships[source] = (serve, end)
        return (source, resolve(actions))
    }

    /// Adds `continuation` as a watcher of `selection`'s changes.
    /// - Returns: The watcher's id, for ``Event/unwatched(_:)``.
    mutating func watch(
        _ selection: ClipboardSelection, continuation: WaylandBackend.ChangeContinuation
    ) throws(ClipboardError) -> (UInt64, [Action]) {
        let id = try core.watch(selection)
        watchers[id] = continuation
        return (id, [])
    }

    /// Shows the focus surface (unless shown) with the one pixel in `pixel`, for one more operation.
    /// - Returns: Whether it has keyboard focus already; if not, `waiter` is resumed when it comes.
    /// - Throws: ``ClipboardError``, before anything took `pixel` (the caller closes it).
    mutating func acquireFocus(
        pixel: Int32, waiter: Mailbox<Void, ClipboardError>
    ) throws(ClipboardError) -> (Bool, [Action]) {
        let actions = try core.showFocusSurface(bufferFD: pixel)
        focusUsers += 1
        if core.focusSerial != nil { return (true, resolve(actions)) }
        focusWaiters.append(waiter)
        return (false, resolve(actions))
    }

    /// Runs `body` on the subscription, when it is an `S`, and the core, then resolves its steps: the core's
    /// actions in order among the subscriber's own.
    /// - Returns: What `body` returned, or nil (and `body` does not run) without a subscription of type `S`.
    mutating func withSubscription<S: WaylandSubscription, Answer, Failure: Error>(
        _ type: S.Type, _ body: (inout S, inout WaylandState) throws(Failure) -> (Answer, [WaylandSubscriptionStep])
    ) throws(Failure) -> (Answer?, [Action]) {
        guard var subscribed = subscription as? S else { return (nil, []) }
        subscription = nil  // out while it runs, so that its state is not copied
        let answer: Answer
        let steps: [WaylandSubscriptionStep]
        do throws(Failure) {
            (answer, steps) = try body(&subscribed, &core)
        } catch {
            subscription = subscribed
            throw error
        }
        subscription = subscribed
        return (answer, resolve(steps))
    }

    // MARK: - Resolving

    /// The core's actions matched to what waits on them, which leave this machine as they are resolved.
    private mutating func resolve(_ actions: [WaylandState.Action]) -> [Action] {
        var resolved: [Action] = []
        for action in actions {
            switch action {
            case .send(let messages):
                resolved.append(.send(messages))
            case .serve(let source, let mimeType, let fd):
                guard let serve = ownerships[source]?.serve else {
                    resolved.append(.close(fd))
                    continue
                }
                resolved.append(.serve(serve, mimeType: mimeType, fd: fd))
            case .close(let fd):
                resolved.append(.close(fd))
            case .finishRoundTrip(let callback):
                if let reply = roundTrips.removeValue(forKey: callback) { resolved.append(.resume(reply)) }
            case .failRoundTrip(let callback, let error):
                if let reply = roundTrips.removeValue(forKey: callback) { resolved.append(.reject(reply, error)) }
            case .endOwnership(let source):
                if let end = ownerships.removeValue(forKey: source)?.end { resolved.append(.endOwnership(end)) }
            case .notify(let watcher, let types, let omitted):
                if let continuation = watchers[watcher] {
                    let change = ClipboardBackendChange(targets: types, owner: nil, omittedCount: omitted)
                    resolved.append(.notify(continuation, change))
                }
            case .finishWatcher(let watcher, let error):
                if let continuation = watchers.removeValue(forKey: watcher) {
                    resolved.append(.finish(continuation, error))
                }
            case .disconnect:
                let failure = core.failure ?? ClipboardError(code: .cancelled, message: "The connection ended.")
                resolved.append(.disconnect(focusWaiters: focusWaiters, failure))
                focusWaiters = []
            case .focusGained:
                resolved += focusWaiters.map { .resume($0) }
                focusWaiters = []
            case .route(let event):
                // The subscriber's turn, in this section: its steps keep their order among these.
                guard let steps = subscriberTurn({ $0.receive(event, core: &$1) }) else {
                    if case .send(_, _, let fd) = event { resolved.append(.close(fd)) }
                    continue
                }
                resolved += resolve(steps)
            case .endSubscription(let error):
                guard let steps = subscriberTurn({ $0.connectionEnded(error, core: &$1) }) else { continue }
                resolved += resolve(steps)
            }
        }
        return resolved
    }

    /// Runs `turn` on the subscriber, taken out while it runs so that its state is not copied.
    /// - Returns: The subscriber's steps, or nil without a subscriber.
    private mutating func subscriberTurn(
        _ turn: (inout any WaylandSubscription, inout WaylandState) -> [WaylandSubscriptionStep]
    ) -> [WaylandSubscriptionStep]? {
        guard var subscribed = subscription.take() else { return nil }
        let steps = turn(&subscribed, &core)
        subscription = subscribed
        return steps
    }

    /// A subscription's steps resolved: the core's actions as the core's own, the rest as they come.
    private mutating func resolve(_ steps: [WaylandSubscriptionStep]) -> [Action] {
        var resolved: [Action] = []
        for step in steps {
            switch step {
            case .display(let action): resolved += resolve([action])
            case .effect(let effect): resolved.append(.subscriber(effect))
            }
        }
        return resolved
    }
}
