import TransferKitPlatform
/// The exactly-once rule of a cross-process move, as one table: for each phase of a move and each event that can
/// happen in it (a message, a deadline, a disconnect, the death of either process, what the decision record says),
/// the next phase, what each side does, and so where the items are.
///
/// Both sides run it through a ``MoveDriver``: the source's endpoint (``DragSessionPublication``) and the destination
/// (``RemoteDragSession``) each feed their drop's driver the events they see; the driver carries out every action
/// the table returns that is its side's (``Action/side``) and feeds the answers back (what the decision record
/// says, a commit that could not be sent). Neither decides where an item goes anywhere else. Nothing here calls
/// out, so every pair of phase and event is a unit test (`MoveDecisionTests`), random sequences check that each item
/// ends in exactly one list, and the drivers of both sides run against a fake link and a fake record
/// (`MoveDriverTests`).
///
/// The table is the whole system's: a side does not see the other's steps, so a row for an event a side feeds must
/// be right whatever the other side did meanwhile. The source, say, stays `reserved` in its own table while the
/// destination stores, decides and sends; its rows for the end of the connection therefore ask the record
/// (``Action/decideAborted``) and go on by its answer.
///
/// Phases follow the protocol (Schemas/transfer-session.md §4): a drop reserves the items in the source, the
/// destination stores them marked *pending*, with a ``SessionDecisionRecord`` decides `committed`, sends `commit`,
/// and only then does the source remove them. Without a record, two windows are not covered (the spec says so): a
/// destination that dies after storing and before its commit reaches the source, and a source that dies after the
/// commit and before its removal, both leave the items in both lists: ``Location/both``.
package struct MoveDecision: ProtocolMachine, Hashable {
    /// Where a move stands.
    package enum Phase: Sendable, Hashable, CaseIterable {
        /// No drop yet (or a copy): the items are the source's.
        case offered
        /// The source reserved the items and told the destination; the destination loads and stores them.
        case reserved
        /// The destination stored the items, marked pending; nothing is decided.
        case stored
        /// The decision record says `committed` (only with a record).
        case decided
        /// The destination sent `commit`.
        case commitSent
        /// The source read the commit; it removes the items next.
        case commitReceived
        /// Over: the source removed the items; they are the destination's.
        case removed
        /// Over: the source keeps the items; the destination dropped what it had stored.
        case released
        /// Over, without a record only: both processes kept the items (a death in an uncovered window).
        case duplicated

        /// Whether the move is over.
        package var isFinal: Bool { self == .removed || self == .released || self == .duplicated }
    }

    /// What can happen to a move.
    package enum Event: Sendable, Hashable, CaseIterable {
        /// Source: a drop came and the items are reserved (`reserved` is sent).
        case reserve
        /// Destination: its commit returned; the items are stored, pending.
        case store
        /// Destination: its commit threw or was cancelled; it sends `abort`.
        case fail
        /// Destination: the decision record now says `committed` (it decided first).
        case recordCommitted
        /// Either side: the decision record says `aborted` (the other side decided first).
        case recordAborted
        /// Destination: `commit` goes out now.
        case sendCommit
        /// Destination: sending `commit` failed; it never left, so the source cannot have read it.
        case commitLost
        /// Destination: the source's `finished` after the commit says it removed the items.
        case removalArrives
        /// Source: the commit arrived.
        case commitArrives
        /// Source: an `abort` arrived.
        case abortArrives
        /// Source: the items are removed.
        case remove
        /// Either side: a deadline passed while it waited for the other; the connection ends.
        case timeout
        /// The connection ended (the other process closed it or went away).
        case disconnect
        /// The source process was killed; what it stored survives, its memory does not.
        case sourceKilled
        /// The destination process was killed; likewise.
        case destinationKilled
    }

    /// What a side must do.
    package enum Action: Sendable, Hashable {
        /// Source: reserve the items and send `reserved`.
        case reserve
        /// Destination: send `abort`.
        case sendAbort
        /// Destination: record `committed` unless decided (with a record) before its commit, then feed what the
        /// record says.
        case decideCommitted
        /// Source: record `committed` unless decided (with a record) to confirm the commit it read, then feed what
        /// the record says.
        case confirmCommitted
        /// Source: record `aborted` unless decided (with a record), then feed what the record says.
        case decideAborted
        /// Destination: send `commit`.
        case sendCommit
        /// Source: remove the items.
        case removeFromSource
        /// Source: release the reservation; the items stay.
        case releaseInSource
        /// Destination: drop the items it stored for this move (the drop fails with a specific error).
        case discardPending
        /// Destination: the pending items are its own now.
        case keepPending
        /// The event cannot happen here by the protocol: the peer broke it; end the connection.
        case protocolViolation

        /// The side that carries the action out; `nil` for both. Each side's driver skips the other side's actions
        /// (the table describes both).
        package var side: Side? {
            switch self {
            case .reserve, .confirmCommitted, .decideAborted, .removeFromSource, .releaseInSource: .source
            case .sendAbort, .decideCommitted, .sendCommit, .discardPending, .keepPending: .destination
            case .protocolViolation: nil
            }
        }
    }

    /// One end of a move.
    package enum Side: Sendable, Hashable {
        /// The process the items are dragged from.
        case source
        /// The process they are dropped on.
        case destination
    }

    /// Where the moved items are.
    package enum Location: Sendable, Hashable {
        /// In the source's list only.
        case source
        /// In the destination's list only.
        case destination
        /// In both (only without a record, in the windows named above).
        case both
    }

    /// The current phase.
    package private(set) var phase: Phase
    /// Whether both sides share a ``SessionDecisionRecord``.
    package let usesRecord: Bool

    /// A move at `phase`.
    package init(phase: Phase = .offered, usesRecord: Bool) {
        self.phase = phase
        self.usesRecord = usesRecord
    }

    /// Where the items are now: their owner, or both in the uncovered windows.
    package var location: Location {
        switch phase {
        case .offered, .reserved, .stored, .released: .source
        case .decided, .commitReceived, .removed: .destination
        case .commitSent: usesRecord ? .destination : .source
        case .duplicated: .both
        }
    }

    /// Applies `event` and returns what to do; every action must be carried out or, when it is the other side's,
    /// skipped on purpose (``MoveDriver`` does both).
    package mutating func handle(_ event: Event) -> [Action] {
        let (next, actions) = Self.transition(from: phase, on: event, usesRecord: usesRecord)
        phase = next
        return actions
    }

    /// The table.
    package static func transition(
        from phase: Phase, on event: Event, usesRecord record: Bool
    ) -> (Phase, [Action]) {
        switch (phase, event) {
        case (let final, _) where final.isFinal:
            return (final, [])

        // No drop yet: only a drop starts one; the end of the connection or a death leaves the items where they are.
        case (.offered, .reserve): return (.reserved, [.reserve])
        case (.offered, .timeout), (.offered, .disconnect), (.offered, .sourceKilled), (.offered, .destinationKilled):
            return (.released, [])
        case (.offered, _): return (.offered, [.protocolViolation])

        // The source cannot see the destination's steps between its reservation and the commit: a commit in any of
        // them is the commit (the destination sends it only after storing and, with a record, deciding). With a
        // record the source confirms it there and goes on by the record's answer; without one it removes next.
        case (.reserved, .commitArrives), (.stored, .commitArrives), (.decided, .commitArrives),
            (.commitSent, .commitArrives):
            return (.commitReceived, record ? [.confirmCommitted] : [])

        // Reserved: the destination stores or gives up. A death releases the items (a source that died reserved
        // nothing durable). A live source that sees the connection end asks the record, when there is one, and
        // goes on by its answer: the destination may have decided `committed` just before it went.
        case (.reserved, .store): return (.stored, record ? [.decideCommitted] : [])
        case (.reserved, .fail): return (.released, [.sendAbort, .releaseInSource, .discardPending])
        case (.reserved, .abortArrives): return (.released, [.releaseInSource, .discardPending])
        case (.reserved, .recordAborted) where record: return (.released, [.releaseInSource, .discardPending])
        case (.reserved, .recordCommitted) where record: return (.removed, [.removeFromSource, .keepPending])
        case (.reserved, .timeout), (.reserved, .disconnect):
            return record ? (.reserved, [.decideAborted]) : (.released, [.releaseInSource])
        case (.reserved, .sourceKilled), (.reserved, .destinationKilled):
            return (.released, record ? [.decideAborted, .releaseInSource, .discardPending] : [.releaseInSource])
        case (.reserved, _): return (.reserved, [.protocolViolation])

        // Stored, undecided: with a record the destination decided on storing and goes on by the answer; without
        // one it sends the commit at once.
        case (.stored, .recordCommitted) where record: return (.decided, [.keepPending])
        case (.stored, .sendCommit) where !record: return (.commitSent, [.sendCommit])
        case (.stored, .recordAborted) where record, (.stored, .fail):
            return (.released, [.sendAbort, .releaseInSource, .discardPending])
        case (.stored, .timeout), (.stored, .disconnect), (.stored, .sourceKilled):
            // The destination sees the end before its commit left: with a record it decides first or loses to the
            // source's `aborted`; either way the record says aborted unless it decided, so it drops its copies.
            return (.released, record ? [.decideAborted, .releaseInSource, .discardPending] : [.discardPending])
        case (.stored, .destinationKilled):
            // With a record the source decides `aborted` and the destination drops its pending items on restart;
            // without one the destination's stored items survive while the source keeps its own.
            return record
                ? (.released, [.decideAborted, .releaseInSource, .discardPending])
                : (.duplicated, [.releaseInSource, .keepPending])
        case (.stored, _): return (.stored, [.protocolViolation])

        // Decided committed: the items are the destination's whatever happens; the source removes them when it
        // hears the commit or, after a disconnect or restart, reads the record.
        case (.decided, .sendCommit): return (.commitSent, [.sendCommit])
        case (.decided, .timeout), (.decided, .disconnect), (.decided, .sourceKilled),
            (.decided, .destinationKilled):
            return (.removed, [.decideAborted, .removeFromSource, .keepPending])
        case (.decided, .recordCommitted): return (.removed, [.removeFromSource, .keepPending])
        case (.decided, _): return (.decided, [.protocolViolation])

        // The commit is on its way.
        case (.commitSent, .removalArrives): return (.removed, [.keepPending])
        case (.commitSent, .commitLost):
            // It never left: with a record the record says committed, and the source removes on reading it;
            // without one the source keeps the items and the destination drops its copies.
            return record ? (.removed, [.keepPending]) : (.released, [.releaseInSource, .discardPending])
        case (.commitSent, .timeout), (.commitSent, .disconnect), (.commitSent, .sourceKilled),
            (.commitSent, .destinationKilled):
            // With a record it says committed, and the source removes on reading it. Without one the source may
            // never have heard the commit and keeps the items, while the destination has them too.
            return record
                ? (.removed, [.decideAborted, .removeFromSource, .keepPending])
                : (.duplicated, [.releaseInSource, .keepPending])
        case (.commitSent, _): return (.commitSent, [.protocolViolation])

        // The source heard the commit: it removes, whatever the destination does now.
        case (.commitReceived, .remove) where !record, (.commitReceived, .recordCommitted) where record:
            return (.removed, [.removeFromSource, .keepPending])
        case (.commitReceived, .recordAborted) where record:
            // Only a destination that sent its commit before deciding gets here: the record is the arbiter.
            return (.released, [.releaseInSource, .discardPending])
        case (.commitReceived, .timeout), (.commitReceived, .disconnect), (.commitReceived, .destinationKilled):
            return (.removed, [.removeFromSource, .keepPending])
        case (.commitReceived, .sourceKilled):
            // With a record the restarted source removes what `committed` names; without one it forgot the commit.
            return record
                ? (.removed, [.removeFromSource, .keepPending]) : (.duplicated, [.releaseInSource, .keepPending])
        case (.commitReceived, _): return (.commitReceived, [.protocolViolation])

        default:
            return (phase, [.protocolViolation])
        }
    }
}
