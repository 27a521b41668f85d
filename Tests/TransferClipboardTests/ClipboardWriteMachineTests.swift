import Testing
import TransferKitTestSupport

@testable import TransferClipboard
@testable import TransferDisplay

/// A write's lifetime as a table: every phase against every event, then the paths a write takes.
@Suite("A write's lifetime, as a table", .timeLimit(.minutes(5)))
struct ClipboardWriteMachineTests {
    typealias Machine = ClipboardWriteMachine
    typealias Event = Machine.Event

    /// The phases a write passes through, each reached by events from a new write with a limit of one paste.
    static let phases: [(String, [Event])] = [
        ("new", []),
        ("serving", [.attached(expires: true)]),
        ("paste under way", [.attached(expires: true), .request(countsAsPaste: true)]),
        ("limit served, not yet attached", [.request(countsAsPaste: true), .transferEnded]),
        ("pastes used up", [.attached(expires: false), .request(countsAsPaste: true), .transferEnded]),
        ("released", [.attached(expires: false), .release]),
        ("ended with a paste under way", [.attached(expires: false), .request(countsAsPaste: true), .ownershipEnded]),
        ("finished", [.attached(expires: false), .ownershipEnded]),
    ]

    static let events: [Event] = [
        .request(countsAsPaste: true), .request(countsAsPaste: false), .transferEnded, .attached(expires: true),
        .expired, .release, .ownershipEnded,
    ]

    @Test("every phase × event: requests only while serving, one release, one finish, a reason before it")
    func everyPair() {
        walkEveryPhaseAndEvent(from: Machine(pasteLimit: 1), phases: Self.phases, events: Self.events) { cell in
            do {
                let (before, machine, event, actions, label) = (
                    cell.before, cell.after, cell.event, cell.actions, cell.label
                )
                // A request is let through only while the write serves and the limit allows it.
                if case .request(let paste) = event {
                    let serves = before.reason == nil && !before.ownershipEnded
                    let allowed = serves && (!paste || before.admitted < 1)
                    if allowed {
                        #expect(actions == [.admit], "\(label)")
                    } else if actions.count != 1
                        || !actions.allSatisfy({ if case .refuse = $0 { true } else { false } })
                    {
                        Issue.record("\(label): \(actions) is not one refusal")
                    }
                }
                // The ownership is given up only once, and only while it is held.
                let releases = actions.filter { $0 == .releaseOwnership || $0 == .releaseOwnershipAfterGrace }
                #expect(releases.count <= 1, "\(label)")
                if !releases.isEmpty { #expect(!before.ownershipEnded && machine.reason != nil, "\(label)") }
                // The write finishes once: after the ownership ended and the last request was served.
                let finishes = actions.filter { if case .finish = $0 { true } else { false } }
                #expect(finishes.count <= 1, "\(label)")
                if !finishes.isEmpty {
                    #expect(!before.finished && machine.ownershipEnded && machine.inFlight == 0, "\(label)")
                }
                if before.finished { #expect(finishes.isEmpty, "\(label)") }
                // A reason, once given, is never replaced.
                if let reason = before.reason { #expect(machine.reason == reason, "\(label)") }
            }
        }
    }

    @Test("a paste limit: the last paste served gives the selection up after the grace, with pastesUsedUp")
    func pasteLimit() {
        var machine = Machine(pasteLimit: 2)
        #expect(machine.handle(.attached(expires: false)) == [])
        #expect(machine.handle(.request(countsAsPaste: false)) == [.admit])
        #expect(machine.handle(.request(countsAsPaste: true)) == [.admit])
        #expect(machine.handle(.request(countsAsPaste: true)) == [.admit])
        #expect(machine.handle(.request(countsAsPaste: true)) == [.refuse("This write served its 2 paste(s).")])
        #expect(machine.handle(.transferEnded) == [])
        #expect(machine.handle(.transferEnded) == [])
        // The last request under way ends: the limit's pastes are served.
        #expect(machine.handle(.transferEnded) == [.releaseOwnershipAfterGrace])
        #expect(
            machine.handle(.request(countsAsPaste: false)) == [.refuse("This write no longer serves the selection.")])
        #expect(machine.handle(.ownershipEnded) == [.forgetOwnership, .finish(.pastesUsedUp)])
    }

    @Test("the limit used up before the ownership is known: the ownership is given up as soon as it is")
    func limitBeforeAttach() {
        var machine = Machine(pasteLimit: 1)
        #expect(machine.handle(.request(countsAsPaste: true)) == [.admit])
        #expect(machine.handle(.transferEnded) == [])
        #expect(machine.handle(.attached(expires: true)) == [.releaseOwnership])
    }

    @Test("a release, an expiry, another owner: each ends the write with its reason, the first one winning")
    func reasons() {
        var released = Machine(pasteLimit: nil)
        _ = released.handle(.attached(expires: true))
        #expect(released.handle(.release) == [.releaseOwnership])
        #expect(released.handle(.expired) == [])
        #expect(released.handle(.ownershipEnded) == [.forgetOwnership, .finish(.released)])

        var expired = Machine(pasteLimit: nil)
        _ = expired.handle(.attached(expires: true))
        #expect(expired.handle(.expired) == [.releaseOwnership])
        #expect(expired.handle(.ownershipEnded) == [.forgetOwnership, .finish(.expired)])

        var replaced = Machine(pasteLimit: nil)
        _ = replaced.handle(.attached(expires: false))
        #expect(replaced.handle(.ownershipEnded) == [.forgetOwnership, .finish(.replaced)])
        #expect(replaced.handle(.release) == [])
        #expect(replaced.handle(.ownershipEnded) == [])
    }

    @Test("a write whose ownership ended finishes only once its last request is served")
    func finishAfterLastRequest() {
        var machine = Machine(pasteLimit: nil)
        _ = machine.handle(.attached(expires: false))
        #expect(machine.handle(.request(countsAsPaste: true)) == [.admit])
        #expect(machine.handle(.ownershipEnded) == [.forgetOwnership])
        #expect(machine.handle(.transferEnded) == [.finish(.replaced)])
    }

    @Test("a release before the ownership is known gives it up once it is")
    func releaseBeforeAttach() {
        var machine = Machine(pasteLimit: nil)
        #expect(machine.handle(.release) == [])
        #expect(machine.handle(.attached(expires: true)) == [.releaseOwnership])
        // An expiry starts only for a write that still serves.
        var serving = Machine(pasteLimit: nil)
        #expect(serving.handle(.attached(expires: true)) == [.startExpiry])
        #expect(serving.handle(.attached(expires: true)) == [])
    }
}
