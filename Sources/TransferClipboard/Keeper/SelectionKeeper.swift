import TransferDisplay
import TransferKit
import TransferKitPlatform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The keeper of one selection: takes each new owner's snapshot, and offers the last one again when the selection
/// is emptied.
struct SelectionKeeper: Sendable {
    let keeper: ClipboardKeeper
    let selection: ClipboardSelection
    let budget: MemoryBudget
    let onEvent: @Sendable (ClipboardKeeper.Event) -> Void

    /// The keeper's own offer of a snapshot: its handle, and whether its ownership still lasts.
    ///
    /// A new owner ends the ownership (on X11 the server tells the old owner before it tells watchers); the machine
    /// takes a change for the keeper's own offer only while it lasts and the names are the offer's.
    final class Serving: Sendable {
        let handle: ClipboardWriteHandle
        private let lost = SanitizedMutex(false)

        init(handle: ClipboardWriteHandle) {
            self.handle = handle
            Task { [weak self] in
                await handle.ownershipLost()
                self?.lost.withLock { $0 = true }
            }
        }

        /// Whether the keeper still owns the selection with this offer.
        var isHeld: Bool { !lost.withLock { $0 } }
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

    private typealias Machine = KeeperMachine<KeptSnapshot, SaveReply>

    /// Keeps the selection until `inputs` end or watching fails: the shell of a ``KeeperMachine``, which decides.
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
        let machine = MachineShell(Machine(selection: selection))
        var snapshots: [Int: Task<Void, Never>] = [:]
        var serving: Serving?
        defer {
            forwarding.cancel()
            for task in snapshots.values { task.cancel() }
        }
        func perform(_ action: Machine.Action) async -> Machine.Event? {
            switch action {
            case .startSnapshot(let generation, let offered, let previous):
                snapshots[generation] = snapshot(offered, generation: generation, replacing: previous, sink: sink)
            case .cancelSnapshot(let generation):
                snapshots.removeValue(forKey: generation)?.cancel()
            case .answer(let reply, let kept):
                reply.answer(kept)
            case .restore(let snapshot):
                let (answer, offer) = await restore(snapshot)
                if let offer { serving = offer }
                return .restored(answer)
            case .forgetOwnOffer:
                serving = nil
            case .releaseOwnOffer:
                await serving?.handle.release()
                serving = nil
            case .report(let event):
                onEvent(event)
            }
            return nil
        }
        // What is there when the keeper starts is kept too.
        do {
            let current = try await clipboard.offeredTypes(on: selection).map(\.name)
            await machine.run(.started(offered: current), perform: perform)
            stepping: for await step in steps {
                switch step {
                case .inputsEnded:
                    break stepping
                case .snapshot(let generation, let outcome):
                    snapshots[generation] = nil
                    await machine.run(
                        .snapshotEnded(generation: generation, outcome.map(Self.outcome)), perform: perform)
                case .input(.failed(let error)):
                    throw error
                case .input(.save(let reply)):
                    let current = (try? await clipboard.offeredTypes(on: selection).map(\.name)) ?? []
                    await machine.run(
                        .save(reply, offered: current, ownOfferHeld: serving?.isHeld ?? false), perform: perform)
                case .input(.change(let names)):
                    await machine.run(.change(names, ownOfferHeld: serving?.isHeld ?? false), perform: perform)
                }
            }
        } catch {
            await machine.run(.stop, perform: perform)
            throw error
        }
        await machine.run(.stop, perform: perform)
    }

    /// A snapshot's end as the machine sees it.
    private static func outcome(_ outcome: KeptSnapshot.Outcome) -> Machine.Outcome {
        switch outcome {
        case .kept(let snapshot): .kept(snapshot, offered: snapshot.offered, byteCount: snapshot.byteCount)
        case .skipped(let reason): .skipped(reason)
        case .gone: .gone
        }
    }

    /// Takes snapshot `generation` of an owner offering `offered` on a task of its own, which tells `sink` how it
    /// ended (`nil` at the options' `snapshotTimeout`).
    private func snapshot(
        _ offered: [String], generation: Int, replacing previous: KeptSnapshot?, sink: AsyncStream<Step>.Continuation
    ) -> Task<Void, Never> {
        let (keeper, selection, budget) = (keeper, selection, budget)
        let timeout = keeper.options.snapshotTimeout
        return Task {
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
    }

    /// Offers `snapshot` again if it has not expired and the selection is still empty (events come late: an
    /// application that copied since the selection emptied must not lose its copy to the keeper).
    private func restore(_ snapshot: KeptSnapshot) async -> (Machine.RestoreAnswer, Serving?) {
        if let deadline = snapshot.deadline, deadline <= .now { return (.expired, nil) }
        guard (try? await keeper.clipboard.offeredTypes(on: selection))?.isEmpty == true else {
            return (.notEmpty, nil)
        }
        do {
            let (handle, names) = try await offer(snapshot)
            return (.offered(names), Serving(handle: handle))
        } catch {
            return (.failed(KeptSnapshot.message(of: error)), nil)
        }
    }

    /// Takes the selection and offers `snapshot` again; releases it when the snapshot's deadline passes.
    /// - Returns: The write's handle and the names it offers.
    private func offer(_ snapshot: KeptSnapshot) async throws -> (ClipboardWriteHandle, [String]) {
        let clipboard = keeper.clipboard
        let handle = try await clipboard.write(
            [snapshot.provider], to: selection, options: ClipboardWriteOptions(isCut: snapshot.isCut))
        let names = try await clipboard.offeredTypes(on: selection).map(\.name)
        if let deadline = snapshot.deadline {
            let selection = selection
            let onEvent = onEvent
            Task {
                try await WireTimer.sleep(until: .at(deadline))
                await handle.release()
                onEvent(.expired(selection))
            }
        }
        return (handle, names)
    }
}
