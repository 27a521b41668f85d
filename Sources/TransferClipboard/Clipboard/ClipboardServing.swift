import Foundation
import TransferKit
import TransferKitPlatform

/// The bookkeeping of one write's lifetime: which requests are pastes, how many were served, which are still under
/// way, and why the ownership ended.
///
/// The `serve` closure that ``Clipboard/write(_:to:options:)`` gives the backend asks ``admit(countsAsPaste:)`` for
/// each request and wraps the stream it returns with the ``Ticket``: the backend drops the stream's iterator once
/// it has written the last byte and told the requestor (X11: after the last `ChangeProperty` and
/// `SelectionNotify`; Wayland: after the last write to the pipe), so the ticket's end marks the paste served. When
/// the limit's last paste is served, the ownership is released with ``ClipboardWriteEnd/pastesUsedUp``.
final class ClipboardServing: Sendable {
    struct State {
        var admitted = 0
        var inFlight = 0
        var reason: ClipboardWriteEnd?
        var ownershipEnded = false
        var ownership: (any ClipboardOwnership)?
        /// The limit was reached before the ownership was known: release it once it is.
        var releaseWhenAttached = false
        var expiryTask: Task<Void, Never>?
    }

    let pasteLimit: Int?
    private let state = SanitizedMutex(State())
    /// Opens once the ownership has ended and every request under way was served.
    private let finish = Latch<Void>()

    init(pasteLimit: Int?) {
        self.pasteLimit = pasteLimit
    }

    /// One request being served: its end (the release of the last copy of this object) marks it served.
    final class Ticket: Sendable {
        let serving: ClipboardServing
        init(_ serving: ClipboardServing) { self.serving = serving }
        deinit { serving.transferEnded() }
    }

    /// Lets one request through, or refuses it when the write has ended or its pastes are all given out.
    /// - Throws: ``ClipboardError`` with `typeUnavailable`.
    func admit(countsAsPaste: Bool) throws(ClipboardError) -> Ticket {
        let refusal: String? = state.withLock { state in
            if state.reason != nil || state.ownershipEnded { return "This write no longer serves the selection." }
            if countsAsPaste {
                if let pasteLimit, state.admitted >= pasteLimit {
                    return "This write served its \(pasteLimit) paste(s)."
                }
                state.admitted += 1
            }
            state.inFlight += 1
            return nil
        }
        if let refusal { throw ClipboardError(code: .typeUnavailable, message: refusal) }
        return Ticket(self)
    }

    /// A request was served (or failed): when it was the last allowed paste, the ownership is given up.
    private func transferEnded() {
        let release: (any ClipboardOwnership)? = state.withLock { state in
            state.inFlight -= 1
            guard let pasteLimit, state.admitted >= pasteLimit, state.inFlight == 0, state.reason == nil,
                !state.ownershipEnded
            else { return nil }
            state.reason = .pastesUsedUp
            guard let ownership = state.ownership else {
                state.releaseWhenAttached = true
                return nil
            }
            return ownership
        }
        if let release {
            Task {
                try? await WireTimer.sleep(for: Self.grace)
                await release.release()
            }
        }
        wakeIfFinished()
    }

    /// How long after the last allowed paste the selection is given up: a reader may still be processing the
    /// display server's events once it has read everything (wl-paste 2.1 fails with "No selection" when the
    /// selection vanishes then; it does so with `wl-copy --paste-once` too, about one paste in five here).
    /// Requests in between are refused.
    static let grace: Duration = .milliseconds(250)

    /// Starts following `ownership`: its end, and (with `expiry`) the deadline.
    func attach(_ ownership: any ClipboardOwnership, expiry: Duration?) {
        let releaseNow = state.withLock { state in
            state.ownership = ownership
            if let expiry {
                state.expiryTask = Task { [weak self] in
                    try? await WireTimer.sleep(for: expiry)
                    guard !Task.isCancelled else { return }
                    await self?.end(.expired)
                }
            }
            return state.releaseWhenAttached
        }
        if releaseNow { Task { await ownership.release() } }
        Task { [weak self] in
            await ownership.ended()
            self?.ownershipEnded()
        }
    }

    /// Gives the ownership up for `reason`, unless it has already ended.
    func end(_ reason: ClipboardWriteEnd) async {
        let ownership: (any ClipboardOwnership)? = state.withLock { state in
            guard state.reason == nil, !state.ownershipEnded else { return nil }
            state.reason = reason
            return state.ownership
        }
        await ownership?.release()
    }

    private func ownershipEnded() {
        let expiry = state.withLock { state in
            state.ownershipEnded = true
            if state.reason == nil { state.reason = .replaced }
            // The backend's serve closure holds this object, and a Wayland ownership holds the backend.
            state.ownership = nil
            defer { state.expiryTask = nil }
            return state.expiryTask
        }
        expiry?.cancel()
        wakeIfFinished()
    }

    private func wakeIfFinished() {
        let isFinished = state.withLock { state in
            state.ownershipEnded && state.inFlight == 0 && state.reason != nil
        }
        if isFinished { finish.open() }
    }

    /// Waits until the ownership has ended and every request under way was served; why it ended, or `nil` when
    /// the waiting task was cancelled first.
    func finished() async -> ClipboardWriteEnd? {
        guard await finish.wait() != nil else { return nil }
        return state.withLock { $0.reason }
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
