import Foundation
import TransferKit
import TransferKitPlatform

/// The keeper of one selection: takes each new owner's snapshot, and offers the last one again when the selection
/// is emptied.
struct SelectionKeeper: Sendable {
    let keeper: ClipboardKeeper
    let selection: ClipboardSelection
    let budget: MemoryBudget
    let onEvent: @Sendable (ClipboardKeeper.Event) -> Void

    /// The keeper's own offer of a snapshot.
    final class Serving: Sendable {
        let handle: ClipboardWriteHandle
        /// What the selection offers while it is the keeper's.
        let names: [String]
        private let lost = SanitizedMutex(false)

        init(handle: ClipboardWriteHandle, names: [String]) {
            self.handle = handle
            self.names = names
            Task { [weak self] in
                await handle.ownershipLost()
                self?.lost.withLock { $0 = true }
            }
        }

        /// Whether a change that offers `offered` is the keeper's own offer (rather than a new owner's).
        ///
        /// The keeper's offer is recognised by its names while its ownership lasts: a new owner ends it (on X11 the
        /// server tells the old owner before it tells watchers), and one that offers other names is new whatever
        /// the order of the events.
        func isOwn(_ offered: [String]) -> Bool {
            offered == names && !lost.withLock { $0 }
        }
    }

    /// What the keeper of a selection handles, in order: the selection's changes, and the clipboard manager's
    /// `SAVE_TARGETS` requests (X11).
    enum Input: Sendable {
        /// A new owner offers these names (none: the selection was emptied).
        case change([String])
        /// An owner about to exit asks for its content to be kept: snapshot it now, then answer.
        case save(SaveReply)
        /// Watching failed.
        case failed(any Error)
    }

    /// The answer to one `SAVE_TARGETS` request, into a latch the requester waits on; `false` if it is dropped
    /// unanswered.
    final class SaveReply: Sendable {
        private let answered: Latch<Bool>

        /// A reply that opens `answered` with its answer.
        init(_ answered: Latch<Bool>) {
            self.answered = answered
        }

        deinit {
            answer(false)
        }

        /// Answers once; later answers are ignored.
        func answer(_ kept: Bool) {
            answered.open(kept)
        }
    }

    /// What the keeper's loop handles: an input, or the end of a snapshot it started.
    private enum Step: Sendable {
        case input(Input)
        case inputsEnded
        /// Snapshot `generation` ended so (`nil`: it passed its deadline).
        case snapshot(generation: Int, KeptSnapshot.Outcome?)
    }

    /// The loop's state: what is kept and offered, and the snapshot under way.
    private struct Loop {
        var kept: KeptSnapshot?
        var serving: Serving?
        /// See ``run(_:)``: the names of an owner snapshot without a change, whose change may still come.
        var covered: [String] = []
        /// The snapshot under way: its number, its task and the save requests it answers.
        var pending: (generation: Int, task: Task<Void, Never>, replies: [SaveReply], offered: [String])?
        var generation = 0
        /// The selection emptied while a snapshot was under way: restore once it ends.
        var restoreWhenDone = false
    }

    /// Keeps the selection until `inputs` end or watching fails.
    ///
    /// Snapshots run on tasks of their own, so the keeper keeps listening while one is taken: a new owner cancels
    /// the snapshot under way (reported as pre-empted) and is snapshot instead, and each snapshot ends at the
    /// options' `snapshotTimeout`. A keeper busy with one owner thus never misses the next.
    func run(_ inputs: AsyncStream<Input>) async throws {
        let clipboard = keeper.clipboard
        let (steps, sink) = AsyncStream<Step>.makeStream()
        let forwarding = Task {
            for await input in inputs { sink.yield(.input(input)) }
            sink.yield(.inputsEnded)
        }
        var loop = Loop()
        defer {
            forwarding.cancel()
            loop.pending?.task.cancel()
        }
        // What is there when the keeper starts is kept too. A snapshot taken without a change (this one, and those of
        // save requests) covers the owner whose change may still be on its way: the next change that offers the same
        // names is taken for it (its owner may be gone by then, as an application that stored its clipboard is).
        loop.covered = try await clipboard.offeredTypes(on: selection).map(\.name)
        if !loop.covered.isEmpty {
            start(loop.covered, in: &loop, sink: sink)
        }
        do {
            stepping: for await step in steps {
                let offered: [String]
                switch step {
                case .inputsEnded:
                    break stepping
                case .snapshot(let generation, let outcome):
                    guard let pending = loop.pending, pending.generation == generation else { continue }
                    loop.pending = nil
                    loop.kept = report(outcome ?? .skipped(.timedOut))
                    for reply in pending.replies { reply.answer(loop.kept != nil) }
                    if loop.restoreWhenDone {
                        loop.restoreWhenDone = false
                        await restore(&loop)
                    }
                    continue
                case .input(.failed(let error)):
                    throw error
                case .input(.save(let reply)):
                    // The owner is about to exit: whatever was kept of it when it copied, keep what it offers now.
                    let current = (try? await clipboard.offeredTypes(on: selection).map(\.name)) ?? []
                    if !current.isEmpty, loop.serving?.isOwn(current) != true {
                        if let pending = loop.pending, pending.offered == current {
                            loop.pending?.replies.append(reply)
                        } else {
                            start(current, in: &loop, sink: sink, reply: reply)
                        }
                        loop.covered = current
                    } else {
                        reply.answer(loop.kept != nil)
                    }
                    continue
                case .input(.change(let names)):
                    offered = names
                }
                if !loop.covered.isEmpty, offered == loop.covered {
                    loop.covered = []
                    continue
                }
                loop.covered = []
                if offered.isEmpty {
                    // The owner went away: restore what was kept of it, once its snapshot (if under way) ends.
                    if loop.pending != nil {
                        loop.restoreWhenDone = true
                    } else {
                        await restore(&loop)
                    }
                    continue
                }
                if let serving = loop.serving, serving.isOwn(offered) { continue }
                loop.serving = nil
                loop.restoreWhenDone = false
                start(offered, in: &loop, sink: sink)
            }
        } catch {
            await loop.serving?.handle.release()
            throw error
        }
        await loop.serving?.handle.release()
    }

    /// Offers the last snapshot again if the selection is still empty (and the snapshot has not expired).
    private func restore(_ loop: inout Loop) async {
        if let snapshot = loop.kept, let deadline = snapshot.deadline, deadline <= .now {
            loop.kept = nil
            onEvent(.expired(selection))
        }
        // Events come late: an application that copied since the selection emptied must not lose its copy to the
        // keeper (its own change follows).
        guard let snapshot = loop.kept, (try? await keeper.clipboard.offeredTypes(on: selection))?.isEmpty == true
        else { return }
        loop.serving = await offer(snapshot)
    }

    /// Starts the snapshot of a new owner offering `offered`, pre-empting the one under way; an owner that must not
    /// be kept is refused from its names at once (and the last snapshot forgotten).
    private func start(
        _ offered: [String], in loop: inout Loop, sink: AsyncStream<Step>.Continuation, reply: SaveReply? = nil
    ) {
        if let pending = loop.pending {
            pending.task.cancel()
            for reply in pending.replies { reply.answer(false) }
            loop.pending = nil
            onEvent(.skipped(selection, reason: .preempted))
        }
        if let reason = ClipboardKeeper.Policy.refusal(offered) {
            onEvent(.skipped(selection, reason: reason))
            loop.kept = nil
            reply?.answer(false)
            return
        }
        loop.generation += 1
        let generation = loop.generation
        let (keeper, selection, budget, previous) = (keeper, selection, budget, loop.kept)
        let timeout = keeper.options.snapshotTimeout
        let task = Task {
            let outcome = await withTaskGroup(of: KeptSnapshot.Outcome?.self) { group in
                group.addTask {
                    await KeptSnapshot.take(
                        of: selection, offered: offered, keeper: keeper, budget: budget, replacing: previous)
                }
                group.addTask {
                    try? await WireTimer.sleep(for: timeout)
                    return nil
                }
                let first = await group.next() ?? nil
                group.cancelAll()
                return first
            }
            sink.yield(.snapshot(generation: generation, outcome))
        }
        loop.pending = (generation, task, reply.map { [$0] } ?? [], offered)
    }

    /// Reports how a snapshot ended; the snapshot to keep from now on (`nil` when it was not kept).
    private func report(_ outcome: KeptSnapshot.Outcome) -> KeptSnapshot? {
        switch outcome {
        case .kept(let snapshot):
            onEvent(.kept(selection, offered: snapshot.offered, byteCount: snapshot.byteCount))
            return snapshot
        case .skipped(let reason):
            onEvent(.skipped(selection, reason: reason))
            return nil
        case .gone:
            return nil
        }
    }

    /// Takes the selection and offers `snapshot` again; releases it when the snapshot's deadline passes.
    private func offer(_ snapshot: KeptSnapshot) async -> Serving? {
        let clipboard = keeper.clipboard
        do {
            let handle = try await clipboard.write(
                [snapshot.provider], to: selection, options: ClipboardWriteOptions(isCut: snapshot.isCut))
            let names = try await clipboard.offeredTypes(on: selection).map(\.name)
            onEvent(.restored(selection, offered: names))
            if let deadline = snapshot.deadline {
                let selection = selection
                let onEvent = onEvent
                Task {
                    try await WireTimer.sleep(until: .at(deadline))
                    await handle.release()
                    onEvent(.expired(selection))
                }
            }
            return Serving(handle: handle, names: names)
        } catch {
            onEvent(
                .skipped(
                    selection, reason: .failed("cannot offer the kept snapshot: \(KeptSnapshot.message(of: error))")))
            return nil
        }
    }
}
