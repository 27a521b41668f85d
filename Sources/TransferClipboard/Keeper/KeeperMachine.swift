import TransferDisplay
import TransferKitPlatform

/// The decisions of the keeper of one selection, as a table: which owner to snapshot, which snapshot a new owner
/// pre-empts, which change is the keeper's own offer or one a snapshot already covered, when to offer the last
/// snapshot again, and how each clipboard manager's save request is answered. Nothing here calls out:
/// `SelectionKeeper` is its shell (the clipboard, the snapshots' tasks, the offer), and feeds back what it learns
/// (how a snapshot ended, whether a restore found the selection empty).
///
/// `Snapshot` is what a snapshot keeps and `Reply` a save request's answer; the shell uses `KeptSnapshot` and
/// `SelectionKeeper.SaveReply`, the tests plain values.
struct KeeperMachine<Snapshot: Sendable, Reply: Sendable>: ProtocolMachine {
    /// How a snapshot ended.
    enum Outcome: Sendable {
        /// It was read whole: what the owner offered and how many bytes were kept.
        case kept(Snapshot, offered: [String], byteCount: UInt64)
        /// It was not kept, for this reason.
        case skipped(ClipboardKeeper.SkipReason)
        /// The selection was empty by the time it was read.
        case gone
    }

    /// What a restore found.
    enum RestoreAnswer: Sendable {
        /// The snapshot's own deadline passed: it is forgotten.
        case expired
        /// Someone copied meanwhile: the selection is not empty, and that owner's change follows.
        case notEmpty
        /// The snapshot is offered again, under these names.
        case offered([String])
        /// Offering it failed, saying why.
        case failed(String)
    }

    /// What happens to the keeper.
    enum Event: Sendable {
        /// The keeper starts; the selection offers these names (none: it is empty).
        case started(offered: [String])
        /// A new owner offers these names (none: the selection was emptied); `ownOfferHeld` says whether the keeper
        /// still holds the ownership of its own offer.
        case change([String], ownOfferHeld: Bool)
        /// An owner about to exit asks for its content to be kept; the selection offers `offered` now.
        case save(Reply, offered: [String], ownOfferHeld: Bool)
        /// Snapshot `generation` ended so (`nil`: it passed its deadline).
        case snapshotEnded(generation: Int, Outcome?)
        /// What the restore of the kept snapshot found.
        case restored(RestoreAnswer)
        /// Watching ended (its inputs ended or failed).
        case stop
    }

    /// What the shell must do.
    enum Action: Sendable {
        /// Take snapshot `generation` of an owner offering `offered`, reusing what `replacing` holds.
        case startSnapshot(generation: Int, offered: [String], replacing: Snapshot?)
        /// Cancel snapshot `generation` (pre-empted, or the keeper stops).
        case cancelSnapshot(generation: Int)
        /// Answer a save request: whether the content is kept.
        case answer(Reply, kept: Bool)
        /// Offer `snapshot` again if the selection is still empty and the snapshot has not expired; answer with
        /// ``Event/restored(_:)``.
        case restore(Snapshot)
        /// The keeper's own offer is over (a new owner took the selection): forget it.
        case forgetOwnOffer
        /// Give the keeper's own offer up (the keeper stops).
        case releaseOwnOffer
        /// Tell the app.
        case report(ClipboardKeeper.Event)
    }

    /// The selection kept.
    let selection: ClipboardSelection
    /// What is kept, to offer again.
    private(set) var kept: Snapshot?
    /// The names of the keeper's own offer while it offers the kept snapshot.
    private(set) var ownOffer: [String]?
    /// The names of an owner snapshot without a change (at the start, or for a save request), whose change may
    /// still come: the next change that offers the same names is taken for it.
    private(set) var covered: [String] = []
    /// The snapshot under way: its number, the save requests it answers, and the names it reads.
    private(set) var pending: (generation: Int, replies: [Reply], offered: [String])?
    private(set) var generation = 0
    /// The selection emptied while a snapshot was under way: restore once it ends.
    private(set) var restoreWhenDone = false
    private(set) var stopped = false

    init(selection: ClipboardSelection) {
        self.selection = selection
    }

    mutating func handle(_ event: Event) -> [Action] {
        guard !stopped else {
            // Only a save request is still answered (with what is known); nothing starts.
            if case .save(let reply, _, _) = event { return [.answer(reply, kept: false)] }
            return []
        }
        switch event {
        case .started(let offered):
            covered = offered
            return offered.isEmpty ? [] : start(offered)

        case .change(let offered, let ownOfferHeld):
            if !covered.isEmpty, offered == covered {
                covered = []
                return []
            }
            covered = []
            if offered.isEmpty {
                // The owner went away: restore what was kept of it, once its snapshot (if under way) ends.
                if pending != nil {
                    restoreWhenDone = true
                    return []
                }
                return restore()
            }
            if ownOffer == offered && ownOfferHeld { return [] }
            let forget: [Action] = ownOffer == nil ? [] : [.forgetOwnOffer]
            ownOffer = nil
            restoreWhenDone = false
            return forget + start(offered)

        case .save(let reply, let offered, let ownOfferHeld):
            // The owner is about to exit: whatever was kept of it when it copied, keep what it offers now.
            guard !offered.isEmpty, !(ownOffer == offered && ownOfferHeld) else {
                return [.answer(reply, kept: kept != nil)]
            }
            covered = offered
            if pending?.offered == offered {
                pending?.replies.append(reply)
                return []
            }
            return start(offered, reply: reply)

        case .snapshotEnded(let ended, let outcome):
            guard let finished = pending, finished.generation == ended else { return [] }
            pending = nil
            var actions = settle(outcome ?? .skipped(.timedOut))
            actions += finished.replies.map { .answer($0, kept: kept != nil) }
            if restoreWhenDone {
                restoreWhenDone = false
                actions += restore()
            }
            return actions

        case .restored(let answer):
            switch answer {
            case .expired:
                kept = nil
                return [.report(.expired(selection))]
            case .notEmpty:
                return []
            case .offered(let names):
                ownOffer = names
                return [.report(.restored(selection, offered: names))]
            case .failed(let message):
                return [.report(.skipped(selection, reason: .failed("cannot offer the kept snapshot: \(message)")))]
            }

        case .stop:
            stopped = true
            var actions: [Action] = []
            if let pending {
                actions.append(.cancelSnapshot(generation: pending.generation))
                actions += pending.replies.map { .answer($0, kept: false) }
                self.pending = nil
            }
            if ownOffer != nil {
                ownOffer = nil
                actions.append(.releaseOwnOffer)
            }
            return actions
        }
    }

    /// Starts the snapshot of a new owner offering `offered`, pre-empting the one under way; an owner that must not
    /// be kept is refused from its names at once (and the last snapshot forgotten).
    private mutating func start(_ offered: [String], reply: Reply? = nil) -> [Action] {
        var actions: [Action] = []
        if let preempted = pending {
            actions.append(.cancelSnapshot(generation: preempted.generation))
            actions += preempted.replies.map { .answer($0, kept: false) }
            actions.append(.report(.skipped(selection, reason: .preempted)))
            pending = nil
        }
        if let reason = ClipboardKeeper.Policy.refusal(offered) {
            kept = nil
            actions.append(.report(.skipped(selection, reason: reason)))
            if let reply { actions.append(.answer(reply, kept: false)) }
            return actions
        }
        generation += 1
        pending = (generation, reply.map { [$0] } ?? [], offered)
        actions.append(.startSnapshot(generation: generation, offered: offered, replacing: kept))
        return actions
    }

    /// What a snapshot's end keeps and reports.
    private mutating func settle(_ outcome: Outcome) -> [Action] {
        switch outcome {
        case .kept(let snapshot, let offered, let byteCount):
            kept = snapshot
            return [.report(.kept(selection, offered: offered, byteCount: byteCount))]
        case .skipped(let reason):
            kept = nil
            return [.report(.skipped(selection, reason: reason))]
        case .gone:
            kept = nil
            return []
        }
    }

    private func restore() -> [Action] {
        kept.map { [.restore($0)] } ?? []
    }
}

extension KeeperMachine.Outcome: Equatable where Snapshot: Equatable {}
extension KeeperMachine.RestoreAnswer: Equatable {}
extension KeeperMachine.Event: Equatable where Snapshot: Equatable, Reply: Equatable {}
extension KeeperMachine.Action: Equatable where Snapshot: Equatable, Reply: Equatable {}
