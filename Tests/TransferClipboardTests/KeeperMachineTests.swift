import Testing
import TransferKitTestSupport

@testable import TransferClipboard
@testable import TransferDisplay

/// The keeper of one selection as a table: each phase against each event, then the paths the keeper tests on real
/// display servers take (`KeeperX11Tests`, `KeeperWaylandTests`), in microseconds.
@Suite("The keeper's decisions, as a table", .timeLimit(.minutes(5)))
struct KeeperMachineTests {
    /// Snapshots are numbers, save replies names.
    typealias Machine = KeeperMachine<Int, String>
    typealias Event = Machine.Event

    static let text = ["TARGETS", "UTF8_STRING", "text/plain"]
    static let image = ["TARGETS", "image/png"]
    static let secret = ["TARGETS", "UTF8_STRING", "x-kde-passwordManagerHint"]

    static func machine(after events: [Event]) -> Machine {
        var machine = Machine(selection: .clipboard)
        for event in events { _ = machine.handle(event) }
        return machine
    }

    /// The keeper's phases, each reached by events from a new keeper.
    static let phases: [(String, [Event])] = [
        ("idle", []),
        ("snapshotting", [.change(text, ownOfferHeld: false)]),
        (
            "kept",
            [.change(text, ownOfferHeld: false), .snapshotEnded(generation: 1, .kept(7, offered: text, byteCount: 5))]
        ),
        (
            "kept, emptied while a new snapshot runs",
            [
                .change(text, ownOfferHeld: false),
                .snapshotEnded(generation: 1, .kept(7, offered: text, byteCount: 5)),
                .change(image, ownOfferHeld: false), .change([], ownOfferHeld: false),
            ]
        ),
        (
            "offering the kept snapshot",
            [
                .change(text, ownOfferHeld: false),
                .snapshotEnded(generation: 1, .kept(7, offered: text, byteCount: 5)),
                .change([], ownOfferHeld: false), .restored(.offered(text)),
            ]
        ),
        ("covering the owner at the start", [.started(offered: text)]),
        ("stopped", [.change(text, ownOfferHeld: false), .stop]),
    ]

    static let events: [Event] = [
        .started(offered: image), .change(text, ownOfferHeld: true), .change(text, ownOfferHeld: false),
        .change(image, ownOfferHeld: false), .change(secret, ownOfferHeld: false), .change([], ownOfferHeld: false),
        .save("r", offered: text, ownOfferHeld: false), .save("r", offered: [], ownOfferHeld: false),
        .snapshotEnded(generation: 1, .kept(8, offered: text, byteCount: 1)),
        .snapshotEnded(generation: 2, .skipped(.tooLarge)), .snapshotEnded(generation: 1, nil),
        .restored(.expired), .restored(.notEmpty), .restored(.offered(text)), .restored(.failed("x")), .stop,
    ]

    @Test("every phase × event: one snapshot at a time, every save answered once, nothing after stop but answers")
    func everyPair() {
        walkEveryPhaseAndEvent(from: Machine(selection: .clipboard), phases: Self.phases, events: Self.events) {
            cell in
            do {
                let (before, machine, event, actions, label) = (
                    cell.before, cell.after, cell.event, cell.actions, cell.label
                )
                // At most one snapshot runs: a new one comes with the cancel of the one under way.
                let starts = actions.filter { if case .startSnapshot = $0 { true } else { false } }
                #expect(starts.count <= 1, "\(label)")
                if !starts.isEmpty, let running = before.pending {
                    #expect(actions.contains(.cancelSnapshot(generation: running.generation)), "\(label)")
                }
                // The snapshot under way changes only by a start, its end, a cancel or the keeper's stop.
                let cancels = actions.contains { if case .cancelSnapshot = $0 { true } else { false } }
                if !starts.isEmpty {
                    #expect(machine.pending?.generation == machine.generation, "\(label)")
                } else if cancels || isEnd(event, of: before) {
                    #expect(machine.pending == nil, "\(label)")
                } else {
                    #expect(machine.pending?.generation == before.pending?.generation, "\(label)")
                }
                // A save request is answered at once, or joins the snapshot under way (answered when it ends).
                if case .save(let reply, _, _) = event {
                    let answers = actions.filter { if case .answer(reply, _) = $0 { true } else { false } }
                    let waits = machine.pending?.replies.contains(reply) ?? false
                    #expect(answers.count + (waits ? 1 : 0) == 1, "\(label)")
                }
                // A stopped keeper starts and offers nothing.
                if before.stopped {
                    #expect(!actions.contains { if case .answer = $0 { false } else { true } }, "\(label)")
                }
                // The kept snapshot is offered again only when there is one.
                if actions.contains(where: { if case .restore = $0 { true } else { false } }) {
                    #expect(machine.kept != nil, "\(label)")
                }
            }
        }
    }

    /// Whether `event` ends the snapshot under way in `machine` (its own end, or the keeper's).
    private func isEnd(_ event: Event, of machine: Machine) -> Bool {
        switch event {
        case .snapshotEnded(let generation, _): generation == machine.pending?.generation
        case .stop: true
        default: false
        }
    }

    @Test("a new owner is snapshot; when it goes away the snapshot is offered again and its echo is ignored")
    func keepAndRestore() {
        var machine = Machine(selection: .clipboard)
        #expect(
            machine.handle(.change(Self.text, ownOfferHeld: false)) == [
                .startSnapshot(generation: 1, offered: Self.text, replacing: nil)
            ])
        #expect(
            machine.handle(.snapshotEnded(generation: 1, .kept(7, offered: Self.text, byteCount: 5))) == [
                .report(.kept(.clipboard, offered: Self.text, byteCount: 5))
            ])
        #expect(machine.handle(.change([], ownOfferHeld: false)) == [.restore(7)])
        #expect(machine.handle(.restored(.offered(Self.text))) == [.report(.restored(.clipboard, offered: Self.text))])
        // The change the keeper's own offer causes is not a new owner.
        #expect(machine.handle(.change(Self.text, ownOfferHeld: true)) == [])
        // Another owner offering the same names after the keeper lost the selection is new.
        #expect(
            machine.handle(.change(Self.text, ownOfferHeld: false)) == [
                .forgetOwnOffer, .startSnapshot(generation: 2, offered: Self.text, replacing: 7),
            ])
    }

    @Test("a new owner pre-empts the snapshot under way, and the late end of the old one is ignored")
    func preemption() {
        var machine = Machine(selection: .clipboard)
        _ = machine.handle(.change(Self.text, ownOfferHeld: false))
        #expect(
            machine.handle(.change(Self.image, ownOfferHeld: false)) == [
                .cancelSnapshot(generation: 1), .report(.skipped(.clipboard, reason: .preempted)),
                .startSnapshot(generation: 2, offered: Self.image, replacing: nil),
            ])
        #expect(machine.handle(.snapshotEnded(generation: 1, .kept(1, offered: Self.text, byteCount: 1))) == [])
        #expect(
            machine.handle(.snapshotEnded(generation: 2, nil)) == [
                .report(.skipped(.clipboard, reason: .timedOut))
            ])
        #expect(machine.kept == nil)
    }

    @Test("a concealed owner is refused from its names and the last snapshot forgotten")
    func concealed() {
        var machine = Self.machine(after: [
            .change(Self.text, ownOfferHeld: false),
            .snapshotEnded(generation: 1, .kept(7, offered: Self.text, byteCount: 5)),
        ])
        #expect(
            machine.handle(.change(Self.secret, ownOfferHeld: false)) == [
                .report(.skipped(.clipboard, reason: .concealed))
            ])
        #expect(machine.kept == nil)
        #expect(machine.handle(.change([], ownOfferHeld: false)) == [])
    }

    @Test("emptied while a snapshot runs: restore once it ends; a restore that finds the snapshot expired forgets it")
    func restoreAfterSnapshot() {
        var machine = Self.machine(after: [
            .change(Self.text, ownOfferHeld: false),
            .snapshotEnded(generation: 1, .kept(7, offered: Self.text, byteCount: 5)),
            .change(Self.image, ownOfferHeld: false),
        ])
        #expect(machine.handle(.change([], ownOfferHeld: false)) == [])
        #expect(machine.handle(.snapshotEnded(generation: 2, .gone)) == [])
        #expect(machine.kept == nil)

        var expiring = Self.machine(after: [
            .change(Self.text, ownOfferHeld: false),
            .snapshotEnded(generation: 1, .kept(7, offered: Self.text, byteCount: 5)),
            .change(Self.image, ownOfferHeld: false), .change([], ownOfferHeld: false),
        ])
        #expect(
            expiring.handle(.snapshotEnded(generation: 2, .kept(9, offered: Self.image, byteCount: 2))) == [
                .report(.kept(.clipboard, offered: Self.image, byteCount: 2)), .restore(9),
            ])
        #expect(expiring.handle(.restored(.expired)) == [.report(.expired(.clipboard))])
        #expect(expiring.kept == nil)
    }

    @Test("a save request: joins the snapshot of the same names, starts one otherwise, and covers the owner's change")
    func saveRequests() {
        var machine = Self.machine(after: [.change(Self.text, ownOfferHeld: false)])
        #expect(machine.handle(.save("a", offered: Self.text, ownOfferHeld: false)) == [])
        #expect(
            machine.handle(.snapshotEnded(generation: 1, .kept(7, offered: Self.text, byteCount: 5))) == [
                .report(.kept(.clipboard, offered: Self.text, byteCount: 5)), .answer("a", kept: true),
            ])
        // The owner's change arrives after its save: the snapshot covers it.
        #expect(machine.handle(.change(Self.text, ownOfferHeld: false)) == [])
        // An empty selection has nothing to save: the answer is what is kept.
        #expect(machine.handle(.save("b", offered: [], ownOfferHeld: false)) == [.answer("b", kept: true)])
        #expect(
            machine.handle(.save("c", offered: Self.image, ownOfferHeld: false)) == [
                .startSnapshot(generation: 2, offered: Self.image, replacing: 7)
            ])
        // Stopping answers the waiting request and releases nothing the keeper does not offer.
        #expect(machine.handle(.stop) == [.cancelSnapshot(generation: 2), .answer("c", kept: false)])
        #expect(machine.handle(.save("d", offered: Self.text, ownOfferHeld: false)) == [.answer("d", kept: false)])
    }

    @Test("the owner at the start is kept, and its change (if it comes) is not taken twice")
    func started() {
        var machine = Machine(selection: .primary)
        #expect(
            machine.handle(.started(offered: Self.text)) == [
                .startSnapshot(generation: 1, offered: Self.text, replacing: nil)
            ])
        #expect(machine.handle(.change(Self.text, ownOfferHeld: false)) == [])
        #expect(machine.pending?.generation == 1)
        var empty = Machine(selection: .primary)
        #expect(empty.handle(.started(offered: [])) == [])
    }

    @Test("stopping releases the keeper's own offer")
    func stopReleases() {
        var machine = Self.machine(after: [
            .change(Self.text, ownOfferHeld: false),
            .snapshotEnded(generation: 1, .kept(7, offered: Self.text, byteCount: 5)), .change([], ownOfferHeld: false),
            .restored(.offered(Self.text)),
        ])
        #expect(machine.handle(.stop) == [.releaseOwnOffer])
        #expect(machine.handle(.stop) == [])
    }
}
