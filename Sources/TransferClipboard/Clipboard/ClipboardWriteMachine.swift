import TransferDisplay
import TransferKitPlatform

/// The decisions of one write's lifetime, as a table: which requests are let through, when the paste limit's last
/// paste gives the selection up, what the expiry and a release do, and when the write is over. Nothing here calls
/// out; ``ClipboardServing`` is its shell (the ownership, the expiry's timer, the tickets).
///
/// A write is over once the display server says the ownership ended and every request under way was served:
/// ``Action/finish(_:)`` then says why it ended (``ClipboardWriteEnd``), the first reason given or `replaced`.
struct ClipboardWriteMachine: ProtocolMachine, Hashable {
    /// What can happen to a write.
    enum Event: Sendable, Hashable {
        /// A request arrives; a paste counts against the limit (a `TARGETS` query does not).
        case request(countsAsPaste: Bool)
        /// A request let through was served, or failed.
        case transferEnded
        /// The backend took the selection; `expires` when the write has an expiry.
        case attached(expires: Bool)
        /// The write's expiry came.
        case expired
        /// The app released the write.
        case release
        /// The display server says the ownership ended (another owner, a release, the connection's end).
        case ownershipEnded
    }

    /// What the shell must do.
    enum Action: Sendable, Hashable {
        /// Let the request through (hand it a ticket).
        case admit
        /// Refuse the request, saying why.
        case refuse(String)
        /// Give the ownership up now.
        case releaseOwnership
        /// Give the ownership up after ``ClipboardServing/grace`` (the last allowed paste was served).
        case releaseOwnershipAfterGrace
        /// Start the expiry's timer.
        case startExpiry
        /// Stop the expiry's timer and forget the ownership.
        case forgetOwnership
        /// The write is over, for this reason.
        case finish(ClipboardWriteEnd)
    }

    /// How many pastes the write serves, or `nil` for any number.
    let pasteLimit: Int?
    private(set) var admitted = 0
    private(set) var inFlight = 0
    /// Why the write ends, once known.
    private(set) var reason: ClipboardWriteEnd?
    private(set) var attached = false
    private(set) var ownershipEnded = false
    /// The limit was reached before the ownership was known: give it up once it is.
    private(set) var releaseWhenAttached = false
    private(set) var finished = false

    init(pasteLimit: Int?) {
        self.pasteLimit = pasteLimit
    }

    mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .request(let countsAsPaste):
            if reason != nil || ownershipEnded { return [.refuse("This write no longer serves the selection.")] }
            if countsAsPaste {
                if let pasteLimit, admitted >= pasteLimit {
                    return [.refuse("This write served its \(pasteLimit) paste(s).")]
                }
                admitted += 1
            }
            inFlight += 1
            return [.admit]

        case .transferEnded:
            inFlight = max(0, inFlight - 1)
            var actions: [Action] = []
            if let pasteLimit, admitted >= pasteLimit, inFlight == 0, reason == nil, !ownershipEnded {
                reason = .pastesUsedUp
                if attached {
                    actions.append(.releaseOwnershipAfterGrace)
                } else {
                    releaseWhenAttached = true
                }
            }
            return actions + finishIfDone()

        case .attached(let expires):
            guard !attached else { return [] }
            attached = true
            var actions: [Action] = []
            if expires && reason == nil && !ownershipEnded { actions.append(.startExpiry) }
            if releaseWhenAttached {
                releaseWhenAttached = false
                actions.append(.releaseOwnership)
            }
            return actions

        case .expired:
            return end(.expired)

        case .release:
            return end(.released)

        case .ownershipEnded:
            guard !ownershipEnded else { return [] }
            ownershipEnded = true
            if reason == nil { reason = .replaced }
            return [.forgetOwnership] + finishIfDone()
        }
    }

    /// Gives the ownership up for `cause`, unless the write already ends for another reason.
    private mutating func end(_ cause: ClipboardWriteEnd) -> [Action] {
        guard reason == nil, !ownershipEnded else { return [] }
        reason = cause
        guard attached else {
            releaseWhenAttached = true
            return []
        }
        return [.releaseOwnership]
    }

    private mutating func finishIfDone() -> [Action] {
        guard ownershipEnded, inFlight == 0, let reason, !finished else { return [] }
        finished = true
        return [.finish(reason)]
    }
}
