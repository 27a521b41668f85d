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

    func run() async throws {
        let clipboard = keeper.clipboard
        let changes = clipboard.changes(of: selection)
        var kept: KeptSnapshot?
        var serving: Serving?
        // What is there when the keeper starts is kept too; the first change may report the same owner again.
        var initial = try await clipboard.offeredTypes(on: selection).map(\.name)
        if !initial.isEmpty {
            kept = await snapshot(initial)
        }
        do {
            for try await change in changes {
                let offered = change.offeredTypes.map(\.name)
                if !initial.isEmpty, offered == initial {
                    initial = []
                    continue
                }
                initial = []
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
                kept = nil
                kept = await snapshot(offered)
            }
        } catch {
            await serving?.handle.release()
            throw error
        }
        await serving?.handle.release()
    }

    /// Snapshots the new owner's content unless it must not be kept; reports what was done.
    private func snapshot(_ offered: [String]) async -> KeptSnapshot? {
        if let reason = ClipboardKeeper.Policy.refusal(offered) {
            onEvent(.skipped(selection, reason: reason))
            return nil
        }
        switch await KeptSnapshot.take(of: selection, offered: offered, keeper: keeper, budget: budget) {
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
