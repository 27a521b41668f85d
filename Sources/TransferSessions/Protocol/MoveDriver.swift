import TransferKit
package import TransferKitPlatform

/// A message one side of a move sends the other, as ``MoveDriver`` asks for it.
package enum MoveMessage: Sendable, Hashable {
    /// Source: the items are reserved for the destination.
    case reserved
    /// Destination: the items are stored (and, with a record, decided); the source removes them.
    case commit
    /// Destination: it gives the drop up; the source keeps the items.
    case abort(String)
}

/// What the source hears from the destination after its reservation.
package enum MoveVerdict: Sendable, Hashable {
    /// The destination committed.
    case commit
    /// The destination gave the drop up, saying why.
    case abort(String)
}

/// What one side of a move does outside the ``MoveDecision`` table: its messages to the other side, the decision
/// record, and what it reports when its move enters a phase. The sessions give it the socket and the
/// ``SessionDecisionRecord``; the tests give it a fake link and a fake record.
package struct MoveEffects: Sendable {
    /// Sends `message` to the other side; throws when the link is gone (a `.abort`'s sender also waits for the
    /// drop's end there).
    package var send: @Sendable (MoveMessage) async throws(TransferSessionError) -> Void
    /// Records the outcome unless the session is decided, and returns the session's decision (this one, or the
    /// one that was there first).
    package var decide:
        @Sendable (SessionDecisionRecord.Outcome) async throws(TransferSessionError) -> SessionDecisionRecord.Outcome
    /// Told when the move enters a phase, before the phase's actions run.
    package var entered: @Sendable (MoveDecision.Phase) async -> Void

    /// Effects made of the three closures.
    package init(
        send: @escaping @Sendable (MoveMessage) async throws(TransferSessionError) -> Void,
        decide:
            @escaping @Sendable (SessionDecisionRecord.Outcome) async throws(TransferSessionError) ->
            SessionDecisionRecord.Outcome,
        entered: @escaping @Sendable (MoveDecision.Phase) async -> Void = { _ in }
    ) {
        self.send = send
        self.decide = decide
        self.entered = entered
    }
}

/// The shell of a ``MoveDecision`` for one side: it feeds the table the events this side sees, carries out every
/// action that is this side's (skipping, by name, those that are the other side's), and feeds back what they
/// answer: the record's decision as `recordCommitted`/`recordAborted`, a commit that could not be sent as
/// `commitLost`, a reservation that could not be sent as `disconnect`. Where the items end is what the table says
/// (``settlement``); nothing here decides it.
///
/// ``runSource(usesRecord:effects:verdict:)`` and ``runDestination(usesRecord:effects:commit:end:)`` are each
/// side's whole part of a move, over any link; ``DragSessionPublication`` and ``RemoteDragSession`` run them over
/// their socket and `MoveDriverTests` over a fake one.
package struct MoveDriver: Sendable {
    /// Where a side's part of the move left the items, by the table's last settling action.
    package enum Settlement: Sendable, Hashable {
        /// Source: removed; destination: kept (`removeFromSource`, `keepPending`).
        case moved
        /// Source: released; destination: dropped (`releaseInSource`, `discardPending`).
        case kept
    }

    /// The table.
    package let move: MachineShell<MoveDecision>
    /// This side.
    package let side: MoveDecision.Side
    /// The last settling action of this side, or `nil` before one.
    package private(set) var settlement: Settlement?
    /// Whether the table called an event a protocol violation.
    package private(set) var violated = false
    /// Why the last send failed, if one did.
    package private(set) var sendFailure: TransferSessionError?
    private let effects: MoveEffects
    private var abortReason = ""

    /// A driver for `side`, its move at `phase`.
    package init(side: MoveDecision.Side, phase: MoveDecision.Phase, usesRecord: Bool, effects: MoveEffects) {
        self.side = side
        self.move = MachineShell(MoveDecision(phase: phase, usesRecord: usesRecord))
        self.effects = effects
    }

    /// Feeds `event`, carries out this side's actions, and feeds their answers until none follows.
    /// - Parameter abortReason: What a `sendAbort` this event causes tells the source.
    /// - Throws: What the record throws (``TransferSessionError`` with `commitFailed`); the move stays where it was.
    package mutating func feed(
        _ event: MoveDecision.Event, abortReason: String? = nil
    ) async throws(TransferSessionError) {
        if let abortReason { self.abortReason = abortReason }
        var events = [event]
        while !events.isEmpty {
            let before = move.current.phase
            let actions = move.handle(events.removeFirst())
            let after = move.current.phase
            if after != before { await effects.entered(after) }
            for action in actions {
                if let answer = try await perform(action) { events.append(answer) }
            }
        }
    }

    /// Carries out `action` if it is this side's; returns the event it answers with.
    private mutating func perform(
        _ action: MoveDecision.Action
    ) async throws(TransferSessionError)
        -> MoveDecision.Event?
    {
        guard action.side == nil || action.side == side else {
            return nil  // The other side's: the table describes both.
        }
        switch action {
        case .reserve:
            return await sent(.reserved) ? nil : .disconnect
        case .sendCommit:
            return await sent(.commit) ? nil : .commitLost
        case .sendAbort:
            // The source may be gone already; it releases at its silence limit then.
            _ = await sent(.abort(abortReason))
            return nil
        case .decideCommitted, .confirmCommitted:
            return try await effects.decide(.committed) == .committed ? .recordCommitted : .recordAborted
        case .decideAborted:
            return try await effects.decide(.aborted) == .committed ? .recordCommitted : .recordAborted
        case .removeFromSource, .keepPending:
            settlement = .moved
            return nil
        case .releaseInSource, .discardPending:
            settlement = .kept
            return nil
        case .protocolViolation:
            violated = true
            return nil
        }
    }

    private mutating func sent(_ message: MoveMessage) async -> Bool {
        do {
            try await effects.send(message)
            return true
        } catch {
            sendFailure = error
            return false
        }
    }
}

extension MoveDriver {
    /// The source's part of a move: reserve the items and tell the destination, then wait for its verdict.
    /// - Parameters:
    ///   - usesRecord: Whether both sides share a decision record.
    ///   - effects: The link, the record, and what is reported at each phase.
    ///   - verdict: The destination's verdict, or `nil` when the connection ended (or fell silent) first.
    /// - Throws: ``TransferSessionError`` — the items stay with the source: `commitFailed` when the destination
    ///   gave the drop up or the record says aborted, `disconnected` when the destination went away before it
    ///   committed, `protocolViolation` when it broke the order, or the failed send's error.
    package static func runSource(
        usesRecord: Bool, effects: MoveEffects, verdict: () async -> MoveVerdict?
    ) async throws(TransferSessionError) {
        var driver = MoveDriver(side: .source, phase: .offered, usesRecord: usesRecord, effects: effects)
        try await driver.feed(.reserve)
        var refusal: TransferSessionError?
        if driver.settlement == nil {
            switch await verdict() {
            case .commit?:
                try await driver.feed(.commitArrives)
                if driver.move.current.phase == .commitReceived { try await driver.feed(.remove) }
                refusal = TransferSessionError(
                    code: .commitFailed, message: "The decision record says this move was aborted.")
            case .abort(let message)?:
                try await driver.feed(.abortArrives)
                refusal = TransferSessionError(
                    code: .commitFailed, message: "The destination gave the drop up: \(message)")
            case nil:
                try await driver.feed(.disconnect)
                refusal = TransferSessionError(
                    code: .disconnected,
                    message: usesRecord
                        ? "The destination went away before it committed; the record says aborted."
                        : "The destination went away or fell silent before it committed.")
            }
        }
        // A violation settles nothing: the source keeps the items.
        guard !driver.violated, let settlement = driver.settlement else {
            throw TransferSessionError(
                code: .protocolViolation,
                message:
                    "The destination broke the order of a move (at \(driver.move.current.phase)); the source keeps the items."
            )
        }
        guard settlement == .kept else { return }
        throw driver.sendFailure ?? refusal
            ?? TransferSessionError(code: .disconnected, message: "The destination went away.")
    }

    /// The destination's part of a move, from the reservation on: store the items by `commit`, decide (with a
    /// record), send the commit and wait for the source's end.
    /// - Parameters:
    ///   - usesRecord: Whether both sides share a decision record.
    ///   - effects: The link, the record, and what is reported at each phase.
    ///   - commit: Stores the items (the caller's commit).
    ///   - end: The source's `finished` operation after the commit, or `nil` when none came in time.
    ///   - operation: The drop's operation, which the source's `finished` must repeat.
    /// - Returns: What `commit` returned; the items are the destination's.
    /// - Throws: ``TransferSessionError``: `commit`'s error (nothing was stored), or, after `commit` stored the
    ///   items, `commitFailed` or the failed send's code with a message that says to remove them again.
    package static func runDestination<Value>(
        usesRecord: Bool, effects: MoveEffects, operation: DropOperation,
        commit: () async throws(TransferSessionError) -> Value, end: () async -> DropOperation?
    ) async throws(TransferSessionError) -> Value {
        var driver = MoveDriver(side: .destination, phase: .reserved, usesRecord: usesRecord, effects: effects)
        let value: Value
        do {
            value = try await commit()
        } catch {
            try await driver.feed(.fail, abortReason: "\(error)")
            throw error
        }
        try await driver.feed(.store, abortReason: "The decision record says aborted.")
        if driver.settlement == .kept {
            throw TransferSessionError(
                code: .commitFailed,
                message: "The source aborted this move before it was recorded (it lost its destination); "
                    + "remove the items the commit inserted.")
        }
        try await driver.feed(.sendCommit)
        if driver.settlement == .kept {
            let failure = driver.sendFailure
            throw TransferSessionError(
                code: failure?.code ?? .disconnected,
                message: "The source went away before the commit reached it; it keeps the items: remove the "
                    + "items the commit inserted.", cause: failure)
        }
        switch await end() {
        case let ended? where ended == operation:
            try await driver.feed(.removalArrives)
        case let ended? where !usesRecord:
            // A source that read the commit removes; one that says otherwise broke the protocol.
            try await driver.feed(.abortArrives)
            throw TransferSessionError(
                code: .commitFailed, message: "The source ended the drop with \(ended) after the commit.")
        default:
            // No end, or (with a record) any end: the record said committed, and the source removes on reading it.
            try await driver.feed(.disconnect)
        }
        return value
    }
}
