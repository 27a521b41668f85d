import Foundation
import Testing
import TransferKitTestSupport

@testable import TransferSessions

/// The exactly-once table without a socket: every phase against every event, and random runs.
@Suite("The exactly-once move decision, as a table", .timeLimit(.minutes(5)))
struct MoveDecisionTests {
    typealias Phase = MoveDecision.Phase
    typealias Event = MoveDecision.Event

    @Test(
        "every phase × event pair keeps the items in exactly one list (with a record; without, but for the spec's windows)",
        arguments: [true, false])
    func everyPair(usesRecord: Bool) {
        var pairs = 0
        for phase in Phase.allCases {
            // `decided` exists only with a record, `duplicated` only without one: every other pair is reachable.
            let reachable = usesRecord ? phase != .duplicated : phase != .decided
            for event in Event.allCases where reachable {
                var move = MoveDecision(phase: phase, usesRecord: usesRecord)
                let before = move.location
                let actions = move.handle(event)
                pairs += 1
                // A final phase absorbs everything.
                if phase.isFinal { #expect(move.phase == phase && actions.isEmpty) }
                // With a record the items are never in both lists; without one, only by a death in a named window.
                if usesRecord {
                    #expect(move.location != .both, "\(phase) × \(event)")
                } else if move.location == .both && !phase.isFinal {
                    #expect(
                        [Event.destinationKilled, .sourceKilled, .timeout, .disconnect].contains(event)
                            && [Phase.stored, .commitSent, .commitReceived].contains(phase), "\(phase) × \(event)")
                }
                // Items never go back from the destination to the source, unless the record itself says so (a
                // destination that sent its commit before deciding).
                if before == .destination && !(phase == .commitReceived && event == .recordAborted) {
                    #expect(move.location != .source, "\(phase) × \(event)")
                }
                // The source removes only what is the destination's, and releases only what is still its own.
                if actions.contains(.removeFromSource) { #expect(move.location == .destination) }
                if actions.contains(.releaseInSource) { #expect(move.location != .destination) }
                // The destination keeps only what is not the source's alone, and drops only what is.
                if actions.contains(.keepPending) { #expect(move.location != .source, "\(phase) × \(event)") }
                if actions.contains(.discardPending) { #expect(move.location == .source, "\(phase) × \(event)") }
                // A violation changes nothing.
                if actions.contains(.protocolViolation) { #expect(move.phase == phase && actions.count == 1) }
                // A row that asks the record leaves the move open for its answer, or settles it whatever it says.
                if actions.contains(.decideAborted) || actions.contains(.decideCommitted)
                    || actions.contains(.confirmCommitted)
                {
                    #expect(usesRecord, "\(phase) × \(event)")
                }
            }
        }
        #expect(pairs == (Phase.allCases.count - 1) * Event.allCases.count)
    }

    /// Feeds `event` and then the record's answers to every decision the rows ask for, as a driver does: `record` is
    /// the first decision taken (`nil` before one).
    private static func feed(
        _ event: Event, to move: inout MoveDecision, record: inout SessionDecisionRecord.Outcome?
    ) -> [MoveDecision.Action] {
        var all: [MoveDecision.Action] = []
        var events = [event]
        while !events.isEmpty {
            let actions = move.handle(events.removeFirst())
            all += actions
            for action in actions {
                let wanted: SessionDecisionRecord.Outcome
                switch action {
                case .decideCommitted, .confirmCommitted: wanted = .committed
                case .decideAborted: wanted = .aborted
                default: continue
                }
                let decided = record ?? wanted
                record = decided
                events.append(decided == .committed ? .recordCommitted : .recordAborted)
            }
        }
        return all
    }

    @Test(
        "a death at each step ends where the two-process kill tests find the card",
        arguments: [
            (Phase.offered, Event.sourceKilled, MoveDecision.Location.source),
            (.reserved, .sourceKilled, .source),
            (.commitReceived, .sourceKilled, .destination),
            (.reserved, .destinationKilled, .source),
            (.stored, .destinationKilled, .source),
            (.decided, .destinationKilled, .destination),
            (.commitSent, .destinationKilled, .destination),
            (.reserved, .timeout, .source),
            (.decided, .timeout, .destination),
        ])
    func deaths(phase: Phase, event: Event, expected: MoveDecision.Location) {
        var move = MoveDecision(phase: phase, usesRecord: true)
        // The record says what the phase implies: `committed` once the destination decided.
        var record: SessionDecisionRecord.Outcome? =
            [.decided, .commitSent, .commitReceived].contains(phase) ? .committed : nil
        _ = Self.feed(event, to: &move, record: &record)
        #expect(move.phase.isFinal)
        #expect(move.location == expected)
    }

    @Test("a source that loses its destination asks the record and goes by its answer")
    func sourceAsksTheRecord() {
        var move = MoveDecision(phase: .reserved, usesRecord: true)
        #expect(move.handle(.disconnect) == [.decideAborted])
        #expect(move.phase == .reserved)
        var lost = move
        #expect(lost.handle(.recordAborted) == [.releaseInSource, .discardPending])
        #expect(lost.location == .source)
        // The destination decided `committed` just before it went: the items are its own.
        #expect(move.handle(.recordCommitted) == [.removeFromSource, .keepPending])
        #expect(move.location == .destination)
        // Without a record the source keeps the items at once.
        var without = MoveDecision(phase: .reserved, usesRecord: false)
        #expect(without.handle(.disconnect) == [.releaseInSource])
        #expect(without.location == .source)
    }

    @Test("a commit that could not be sent: the source keeps the items unless the record already says committed")
    func commitLost() {
        var without = MoveDecision(phase: .commitSent, usesRecord: false)
        #expect(without.handle(.commitLost) == [.releaseInSource, .discardPending])
        #expect(without.location == .source)
        var with = MoveDecision(phase: .commitSent, usesRecord: true)
        #expect(with.handle(.commitLost) == [.keepPending])
        #expect(with.location == .destination)
        var finished = MoveDecision(phase: .commitSent, usesRecord: false)
        #expect(finished.handle(.removalArrives) == [.keepPending])
        #expect(finished.phase == .removed)
    }

    @Test("every action belongs to one side, but a violation to both")
    func sides() {
        let source: [MoveDecision.Action] = [
            .reserve, .confirmCommitted, .decideAborted, .removeFromSource, .releaseInSource,
        ]
        let destination: [MoveDecision.Action] = [
            .sendAbort, .decideCommitted, .sendCommit, .discardPending, .keepPending,
        ]
        #expect(source.allSatisfy { $0.side == .source })
        #expect(destination.allSatisfy { $0.side == .destination })
        #expect(MoveDecision.Action.protocolViolation.side == nil)
    }

    @Test("the ordinary move, step by step, with and without a record")
    func ordinaryMove() {
        var withRecord = MoveDecision(usesRecord: true)
        #expect(withRecord.handle(.reserve) == [.reserve])
        #expect(withRecord.handle(.store) == [.decideCommitted])
        #expect(withRecord.handle(.recordCommitted) == [.keepPending])
        #expect(withRecord.location == .destination)
        #expect(withRecord.handle(.sendCommit) == [.sendCommit])
        #expect(withRecord.handle(.commitArrives) == [.confirmCommitted])
        #expect(withRecord.handle(.recordCommitted) == [.removeFromSource, .keepPending])
        #expect(withRecord.phase == .removed)

        var without = MoveDecision(usesRecord: false)
        #expect(without.handle(.reserve) == [.reserve])
        #expect(without.handle(.store) == [])
        #expect(without.handle(.recordCommitted) == [.protocolViolation])
        #expect(without.handle(.sendCommit) == [.sendCommit])
        #expect(without.location == .source)
        #expect(without.handle(.commitArrives) == [])
        #expect(without.location == .destination)
        #expect(without.handle(.remove) == [.removeFromSource, .keepPending])
        #expect(without.phase == .removed)
    }

    @Test("a commit before any drop, or an abort after the commit, is a protocol violation")
    func violations() {
        var move = MoveDecision(usesRecord: true)
        #expect(move.handle(.commitArrives) == [.protocolViolation])
        #expect(move.phase == .offered)
        move = MoveDecision(phase: .commitReceived, usesRecord: true)
        #expect(move.handle(.abortArrives) == [.protocolViolation])
        #expect(move.location == .destination)
    }

    @Test(
        "10 000 random runs with a record that answers every decision end with the items in exactly one list",
        arguments: [1, 2, 3])
    func randomRuns(seed: UInt64) {
        var random = SplitMix64(state: seed)
        // The record's answers come from the record, not at random.
        let events = Event.allCases.filter { $0 != .recordCommitted && $0 != .recordAborted }
        for _ in 0..<10_000 {
            var move = MoveDecision(usesRecord: true)
            var record: SessionDecisionRecord.Outcome?
            var steps = 0
            var everDestination = false
            while !move.phase.isFinal && steps < 40 {
                let event = events[Int(random.next() % UInt64(events.count))]
                _ = Self.feed(event, to: &move, record: &record)
                steps += 1
                #expect(move.location == .source || move.location == .destination)
                if move.location == .destination { everDestination = true }
                if everDestination { #expect(move.location == .destination) }
                // Once decided, the items are where the record says.
                if move.phase.isFinal, let record {
                    #expect(move.location == (record == .committed ? .destination : .source))
                }
            }
            // A death or an end of the connection always ends the move.
            _ = Self.feed(.disconnect, to: &move, record: &record)
            #expect(move.phase.isFinal)
            #expect(move.location != .both)
        }
    }
}

@Suite("The source's connection, as a state machine", .timeLimit(.minutes(5)))
struct SessionSourceMachineTests {
    private let me = SessionSourceMachine.Peer(processID: 42, userID: 1000, runsSameExecutable: true)

    private func opened(_ peer: SessionSourceMachine.Peer? = nil) -> SessionSourceMachine {
        var machine = SessionSourceMachine(
            peer: peer ?? me, ownUserID: 1000, sourceApplication: "com.example.app", itemCount: 1)
        _ = machine.receive(.hello(version: 2, application: "com.example.app", process: 7))
        return machine
    }

    @Test("a request id is free again once its load ends, not before")
    func requestIDs() {
        var machine = opened()
        let first = machine.receive(.load(request: 7, item: 0, type: "t"))
        #expect(first == .startLoad(request: 7, item: 0, type: "t"))
        if case .refuse(.protocolViolation, _) = machine.receive(.load(request: 7, item: 0, type: "t")) {
        } else {
            Issue.record("a request id in use was accepted")
        }
        var again = opened()
        _ = again.receive(.load(request: 7, item: 0, type: "t"))
        again.loadWillEnd(7)
        let reused = again.receive(.load(request: 7, item: 0, type: "t"))
        #expect(reused == .startLoad(request: 7, item: 0, type: "t"))
    }

    @Test("64 loads may run at once; the 65th ends the connection")
    func loadLimit() {
        var machine = opened()
        for request in 1...64 {
            let action = machine.receive(.load(request: UInt32(request), item: 0, type: "t"))
            #expect(action == .startLoad(request: UInt32(request), item: 0, type: "t"))
        }
        if case .refuse(.protocolViolation, _) = machine.receive(.load(request: 65, item: 0, type: "t")) {
        } else {
            Issue.record("a 65th load was accepted")
        }
    }

    @Test("silence ends the connection unless this side is sending a load")
    func silence() {
        var machine = opened()
        _ = machine.receive(.load(request: 1, item: 0, type: "t"))
        let whileSending = machine.silenceEndsConnection()
        #expect(!whileSending)
        machine.loadWillEnd(1)
        let whileIdle = machine.silenceEndsConnection()
        #expect(whileIdle)
        let afterEnd = machine.receive(.drop(operation: .move))
        #expect(afterEnd == .none)
        // While the source owes a drop its reservation, the destination's silence is no fault of its own.
        var dropping = opened()
        _ = dropping.receive(.drop(operation: .move))
        let owed = dropping.silenceEndsConnection()
        #expect(!owed)
        dropping.didAnswerDrop()
        let awaitingVerdict = dropping.silenceEndsConnection()
        #expect(awaitingVerdict)
    }

    @Test("the kernel's credentials decide who joins and which process the move rule sees")
    func credentials() {
        var stranger = SessionSourceMachine(
            peer: .init(processID: 9, userID: 0, runsSameExecutable: true), ownUserID: 1000,
            sourceApplication: "com.example.app", itemCount: 1)
        if case .refuse(.notPermitted, _) = stranger.receive(.hello(version: 2, application: "x", process: 9)) {
        } else {
            Issue.record("another user joined")
        }
        var impostor = SessionSourceMachine(
            peer: .init(processID: 9, userID: 1000, runsSameExecutable: false), ownUserID: 1000,
            sourceApplication: "com.example.app", itemCount: 1)
        guard
            case .sendOffer(let origin) = impostor.receive(
                .hello(version: 1, application: "com.example.app", process: 3))
        else {
            Issue.record("the same user was refused")
            return
        }
        #expect(origin.processIdentifier == 9)
        #expect(origin.applicationIdentifier != "com.example.app")
        #expect(impostor.version == 1)
        let friend = opened()
        #expect(friend.destination?.applicationIdentifier == "com.example.app")
        #expect(friend.destination?.processIdentifier == 42)
    }

    @Test("the order of the protocol: hello first and once, a drop once, a verdict only after the drop")
    func order() {
        var fresh = SessionSourceMachine(peer: me, ownUserID: 1000, sourceApplication: "a", itemCount: 1)
        if case .refuse(.protocolViolation, _) = fresh.receive(.drop(operation: .copy)) {
        } else {
            Issue.record("a drop before the hello was accepted")
        }
        var machine = opened()
        if case .refuse(.protocolViolation, _) = machine.receive(.commit) {
        } else {
            Issue.record("a commit before the drop was accepted")
        }
        machine = opened()
        let destination = TransferSessionOrigin(applicationIdentifier: "com.example.app", processIdentifier: 42)
        let drop = machine.receive(.drop(operation: .move))
        #expect(drop == .startDrop(.move, destination: destination))
        let verdict = machine.receive(.commit)
        #expect(verdict == .deliverVerdict(.commit))
        if case .refuse(.protocolViolation, _) = machine.receive(.drop(operation: .move)) {
        } else {
            Issue.record("a second drop was accepted")
        }
    }
}

@Suite("The destination's connection, as a state machine", .timeLimit(.minutes(5)))
struct SessionDestinationMachineTests {
    /// The loads are plain numbers here; the remote session's are its channels.
    typealias Machine = SessionDestinationMachine<Int>

    private static let offer = SourceMessage.offer(
        version: 2, session: "s", application: "a", process: 1, allowsMove: true,
        allowsMoveToOtherApplications: false, items: [])
    private static let finished = SourceMessage.finished(operation: .cancel, code: nil, message: nil)
    private static let gone = TransferSessionError(code: .disconnected, message: "gone")

    /// One message of each kind, about request 1 where it names one.
    private static let messages: [SourceMessage] = [
        offer, .begin(request: 1, length: 2), .chunk(request: 1, bytes: Data([1, 2])), .file(request: 1, length: 2),
        .end(request: 1), .failed(request: 1, code: "loaderFailed", message: "x"),
        .reserved(operation: .copy, items: []), finished,
    ]

    private static func machine(in phase: Machine.Phase) -> Machine {
        var machine = Machine()
        if phase == .awaitingOffer { return machine }
        _ = machine.handle(.received(offer, hasDescriptor: false))
        if phase == .open { return machine }
        #expect(machine.handle(.sentDrop) == [])
        if phase == .awaitingReservation { return machine }
        if phase == .dropping {
            _ = machine.handle(.received(.reserved(operation: .copy, items: []), hasDescriptor: false))
            return machine
        }
        _ = machine.handle(.received(finished, hasDescriptor: false))
        return machine
    }

    /// Starts a load whose handle is `load`; its request id.
    private static func start(_ load: Int, on machine: inout Machine) -> UInt32? {
        guard
            case .requestLoad(load, let request, 0, "public.data")? = machine.handle(
                .startLoad(load, item: 0, type: "public.data")
            ).first
        else { return nil }
        return request
    }

    private static func isViolation(_ actions: [Machine.Action]) -> Bool {
        guard actions.count == 1, case .violation = actions[0] else { return false }
        return true
    }

    @Test("every phase × message has one defined answer, and nothing is accepted after the end")
    func everyPair() {
        for phase in Machine.Phase.allCases {
            for message in Self.messages {
                var machine = Self.machine(in: phase)
                #expect(machine.phase == phase)
                let actions = machine.handle(.received(message, hasDescriptor: true))
                switch (phase, message) {
                case (.ended, _):
                    #expect(Self.isViolation(actions), "\(phase) × \(message): \(actions)")
                case (.awaitingOffer, .offer):
                    #expect(actions == [.reply(message)] && machine.phase == .open)
                case (.awaitingOffer, .finished), (.open, .finished), (.awaitingReservation, .finished),
                    (.dropping, .finished):
                    #expect(actions == [.sessionEnded(message, failing: [])] && machine.phase == .ended)
                case (.awaitingOffer, _), (_, .offer):
                    #expect(Self.isViolation(actions), "\(phase) × \(message): \(actions)")
                case (.awaitingReservation, .reserved):
                    #expect(actions == [.reply(message)] && machine.phase == .dropping)
                case (_, .reserved):
                    #expect(Self.isViolation(actions), "\(phase) × \(message): \(actions)")
                case (_, .file):
                    // No load runs: the descriptor is closed.
                    #expect(actions == [.ignore(closingDescriptor: true)])
                default:
                    #expect(actions == [.ignore(closingDescriptor: false)], "\(phase) × \(message)")
                }
            }
        }
    }

    @Test("a load's messages reach its handle until its end, and ids are reused only once free")
    func loads() throws {
        var machine = Self.machine(in: .open)
        let request = try #require(Self.start(10, on: &machine))
        #expect(
            machine.handle(.received(.begin(request: request, length: nil), hasDescriptor: false)) == [
                .begin(10, length: nil)
            ])
        #expect(
            machine.handle(.received(.chunk(request: request, bytes: Data([7])), hasDescriptor: false)) == [
                .chunk(10, Data([7]))
            ])
        #expect(machine.handle(.received(.end(request: request), hasDescriptor: false)) == [.end(10)])
        #expect(
            machine.handle(.received(.end(request: request), hasDescriptor: false)) == [
                .ignore(closingDescriptor: false)
            ])
        let second = try #require(Self.start(20, on: &machine))
        #expect(second != request)
        // Cancelled once: the source is told once; a late file's descriptor is closed.
        #expect(machine.handle(.cancelLoad(second)) == [.sendCancel(second)])
        #expect(machine.handle(.cancelLoad(second)) == [])
        #expect(
            machine.handle(.received(.file(request: second, length: 1), hasDescriptor: true)) == [
                .ignore(closingDescriptor: true)
            ])
        let third = try #require(Self.start(30, on: &machine))
        #expect(
            machine.handle(
                .received(.failed(request: third, code: "typeUnavailable", message: "m"), hasDescriptor: false))
                == [.fail(30, .unavailableRepresentation, message: "m")])
        // A load whose request could not be sent is forgotten without a cancel.
        let fourth = try #require(Self.start(40, on: &machine))
        #expect(machine.handle(.loadNotSent(fourth)) == [])
        #expect(machine.runningLoads.isEmpty)
    }

    @Test("the source's end and the connection's end fail exactly the loads still running; no load starts after")
    func ends() throws {
        var machine = Self.machine(in: .open)
        let first = try #require(Self.start(1, on: &machine))
        _ = try #require(Self.start(2, on: &machine))
        _ = machine.handle(.received(.end(request: first), hasDescriptor: false))
        #expect(
            machine.handle(.received(Self.finished, hasDescriptor: false)) == [
                .sessionEnded(Self.finished, failing: [2])
            ])

        var open = Self.machine(in: .open)
        _ = try #require(Self.start(3, on: &open))
        #expect(open.handle(.connectionEnded(Self.gone)) == [.connectionEnded(failing: [3])])
        #expect(open.closedReason?.code == .disconnected)
        #expect(open.handle(.startLoad(4, item: 0, type: "public.data")) == [.refuseLoad(4)])
        // The first reason stays.
        _ = open.handle(.connectionEnded(TransferSessionError(code: .timedOut, message: "later")))
        #expect(open.closedReason?.message == "gone")
    }

    @Test("an oversized chunk, or a file without its descriptor, breaks the protocol")
    func violations() throws {
        var machine = Self.machine(in: .open)
        let request = try #require(Self.start(1, on: &machine))
        let big = Data(count: SessionWire.chunkSize + 1)
        #expect(Self.isViolation(machine.handle(.received(.chunk(request: request, bytes: big), hasDescriptor: false))))
        #expect(Self.isViolation(machine.handle(.received(.file(request: request, length: 1), hasDescriptor: false))))
    }
}
