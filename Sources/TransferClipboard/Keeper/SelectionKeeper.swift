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

    /// The answer to one `SAVE_TARGETS` request; `false` if it is dropped unanswered.
    final class SaveReply: Sendable {
        private let continuation: SanitizedMutex<CheckedContinuation<Bool, Never>?>

        init(_ continuation: CheckedContinuation<Bool, Never>) {
            self.continuation = SanitizedMutex(continuation)
        }

        deinit {
            answer(false)
        }

        /// Answers once; later answers are ignored.
        func answer(_ kept: Bool) {
            continuation.withLock { continuation in
                continuation?.resume(returning: kept)
                continuation = nil
            }
        }
    }

    func run(_ inputs: AsyncStream<Input>) async throws {
        let clipboard = keeper.clipboard
        var kept: KeptSnapshot?
        var serving: Serving?
        // What is there when the keeper starts is kept too. A snapshot taken without a change (this one, and those of
        // save requests) covers the owner whose change may still be on its way: the next change that offers the same
        // names is taken for it (its owner may be gone by then, as an application that stored its clipboard is).
        var covered = try await clipboard.offeredTypes(on: selection).map(\.name)
        if !covered.isEmpty {
            kept = await snapshot(covered, replacing: nil)
        }
        do {
            for await input in inputs {
                let offered: [String]
                switch input {
                case .failed(let error):
                    throw error
                case .save(let reply):
                    // The owner is about to exit: whatever was kept of it when it copied, keep what it offers now.
                    let current = (try? await clipboard.offeredTypes(on: selection).map(\.name)) ?? []
                    if !current.isEmpty, serving?.isOwn(current) != true {
                        kept = await snapshot(current, replacing: kept)
                        covered = current
                    }
                    reply.answer(kept != nil)
                    continue
                case .change(let names):
                    offered = names
                }
                if !covered.isEmpty, offered == covered {
                    covered = []
                    continue
                }
                covered = []
                if offered.isEmpty {
                    if let snapshot = kept, let deadline = snapshot.deadline, deadline <= .now {
                        kept = nil
                        onEvent(.expired(selection))
                    }
                    // Events come late: an application that copied since the selection emptied must not lose its
                    // copy to the keeper (its own change follows).
                    guard let snapshot = kept, (try? await clipboard.offeredTypes(on: selection))?.isEmpty == true
                    else {
                        continue
                    }
                    serving = await offer(snapshot)
                    continue
                }
                if let serving, serving.isOwn(offered) { continue }
                serving = nil
                kept = await snapshot(offered, replacing: kept)
            }
        } catch {
            await serving?.handle.release()
            throw error
        }
        await serving?.handle.release()
    }

    /// Snapshots the new owner's content unless it must not be kept; reports what was done.
    private func snapshot(_ offered: [String], replacing previous: KeptSnapshot?) async -> KeptSnapshot? {
        if let reason = ClipboardKeeper.Policy.refusal(offered) {
            onEvent(.skipped(selection, reason: reason))
            return nil
        }
        switch await KeptSnapshot.take(
            of: selection, offered: offered, keeper: keeper, budget: budget, replacing: previous)
        {
        case .kept(let snapshot):
            onEvent(.kept(selection, offered: offered, byteCount: snapshot.byteCount))
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
                    try await Task.sleep(until: deadline)
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
