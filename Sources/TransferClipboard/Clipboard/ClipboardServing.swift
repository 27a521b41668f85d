import TransferDisplay
import TransferKit
import TransferKitPlatform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The shell of one write's lifetime: it carries out what its ``ClipboardWriteMachine`` decides (which requests are
/// pastes, how many were served, which are still under way, why the ownership ended) with the ownership, the
/// expiry's timer and the tickets.
///
/// The `serve` closure that ``Clipboard/write(_:to:options:)`` gives the backend asks ``admit(countsAsPaste:)`` for
/// each request and wraps the stream it returns with the ``Ticket``: the backend drops the stream's iterator once
/// it has written the last byte and told the requestor (X11: after the last `ChangeProperty` and
/// `SelectionNotify`; Wayland: after the last write to the pipe), so the ticket's end marks the paste served. When
/// the limit's last paste is served, the ownership is released with ``ClipboardWriteEnd/pastesUsedUp``.
final class ClipboardServing: Sendable {
    private struct Resources {
        var ownership: (any ClipboardOwnership)?
        var expiry: Duration?
        var expiryTask: Task<Void, Never>?
    }

    private let machine: MachineShell<ClipboardWriteMachine>
    private let resources = SanitizedMutex(Resources())
    /// Opens, with why the write ended, once the ownership has ended and every request under way was served.
    private let finish = Latch<ClipboardWriteEnd>()

    init(pasteLimit: Int?) {
        self.machine = MachineShell(ClipboardWriteMachine(pasteLimit: pasteLimit))
    }

    /// One request being served: its end (the release of the last copy of this object) marks it served.
    final class Ticket: Sendable {
        let serving: ClipboardServing
        init(_ serving: ClipboardServing) { self.serving = serving }
        deinit { serving.feedInBackground(.transferEnded) }
    }

    /// Lets one request through, or refuses it when the write has ended or its pastes are all given out.
    /// - Throws: ``ClipboardError`` with `typeUnavailable`.
    func admit(countsAsPaste: Bool) throws(ClipboardError) -> Ticket {
        var refusal: String?
        for action in feed(.request(countsAsPaste: countsAsPaste)) {
            if case .refuse(let message) = action { refusal = message }
        }
        if let refusal { throw ClipboardError(code: .typeUnavailable, message: refusal) }
        return Ticket(self)
    }

    /// How long after the last allowed paste the selection is given up: a reader may still be processing the
    /// display server's events once it has read everything (wl-paste 2.1 fails with "No selection" when the
    /// selection vanishes then; it does so with `wl-copy --paste-once` too, about one paste in five here).
    /// Requests in between are refused.
    static let grace: Duration = .milliseconds(250)

    /// Starts following `ownership`: its end, and (with `expiry`) the deadline.
    func attach(_ ownership: any ClipboardOwnership, expiry: Duration?) {
        resources.withLock {
            $0.ownership = ownership
            $0.expiry = expiry
        }
        // A release it asks for: the paste limit was used up before the ownership was known.
        feedInBackground(.attached(expires: expiry != nil))
        Task { [weak self] in
            await ownership.ended()
            self?.feedInBackground(.ownershipEnded)
        }
    }

    /// Gives the ownership up for `reason`, unless it has already ended.
    func end(_ reason: ClipboardWriteEnd) async {
        let event: ClipboardWriteMachine.Event = reason == .expired ? .expired : .release
        for action in feed(event) where action == .releaseOwnership {
            // Awaited here, so that `release()` returns once the display server was told.
            await resources.withLock { $0.ownership }?.release()
        }
    }

    /// Feeds `event` where nobody waits for a release: one that the machine asks for runs on a task of its own.
    private func feedInBackground(_ event: ClipboardWriteMachine.Event) {
        for action in feed(event) where action == .releaseOwnership {
            let ownership = resources.withLock { $0.ownership }
            Task { await ownership?.release() }
        }
    }

    /// Feeds `event` and carries out its actions but two, which it returns with the rest for the caller: `admit`'s
    /// answer, and a release of the ownership (awaited or not, as the caller needs). Not discardable: a caller that
    /// has no use for the release calls ``feedInBackground(_:)``.
    private func feed(_ event: ClipboardWriteMachine.Event) -> [ClipboardWriteMachine.Action] {
        let actions = machine.handle(event)
        for action in actions {
            switch action {
            case .admit, .refuse:
                break  // `admit(countsAsPaste:)`'s answer.
            case .releaseOwnership:
                break  // The caller's: `end(_:)` awaits it, `attach(_:expiry:)` runs it on a task.
            case .releaseOwnershipAfterGrace:
                let ownership = resources.withLock { $0.ownership }
                Task {
                    try? await WireTimer.sleep(for: Self.grace)
                    await ownership?.release()
                }
            case .startExpiry:
                resources.withLock { resources in
                    guard let expiry = resources.expiry else { return }
                    resources.expiryTask = Task { [weak self] in
                        try? await WireTimer.sleep(for: expiry)
                        guard !Task.isCancelled else { return }
                        await self?.end(.expired)
                    }
                }
            case .forgetOwnership:
                // The backend's serve closure holds this object, and a Wayland ownership holds the backend.
                let expiry = resources.withLock { resources in
                    resources.ownership = nil
                    defer { resources.expiryTask = nil }
                    return resources.expiryTask
                }
                expiry?.cancel()
            case .finish(let end):
                finish.open(end)
            }
        }
        return actions
    }

    /// Waits until the ownership has ended and every request under way was served; why it ended, or `nil` when
    /// the waiting task was cancelled first.
    func finished() async -> ClipboardWriteEnd? {
        await finish.wait()
    }
}

/// The chunks of a served stream, holding the request's ticket until the backend lets the stream go.
struct TicketedChunks: AsyncSequence, Sendable {
    typealias Element = Data
    let base: TransferByteStream
    let ticket: ClipboardServing.Ticket

    func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator(), ticket: ticket) }

    struct Iterator: AsyncIteratorProtocol {
        var base: TransferByteStream.AsyncIterator
        let ticket: ClipboardServing.Ticket

        mutating func next() async throws -> Data? { try await base.next() }
    }
}
