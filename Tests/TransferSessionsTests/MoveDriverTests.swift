import Synchronization
import Testing
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport

@testable import TransferSessions

/// The two sides' real drivers (`MoveDriver.runSource`, `MoveDriver.runDestination`, the code the sessions run over
/// their socket) against a fake link that breaks after a chosen message, a fake record, destinations whose commit
/// fails, and processes that die before a chosen step (what they stored survives them; their memory does not).
/// Thousands of such runs, and after each the item is in exactly one list, but for the two windows the protocol
/// names without a record.
@Suite("The exactly-once move, both drivers against a fake link and a fake record", .timeLimit(.minutes(5)))
struct MoveDriverTests {
    /// A message on the fake link.
    enum Wire: Sendable, Hashable {
        case move(MoveMessage)
        case finished(DropOperation)
    }

    /// The record both sides share: the first decision wins; it survives either process.
    final class Record: Sendable {
        let outcome = Mutex<SessionDecisionRecord.Outcome?>(nil)

        func decide(_ wanted: SessionDecisionRecord.Outcome) -> SessionDecisionRecord.Outcome {
            outcome.withLock { decided in
                if decided == nil { decided = wanted }
                return decided ?? wanted
            }
        }
    }

    /// One direction each way; the link breaks for both at once, after `breakAfter` delivered messages.
    final class Link: Sendable {
        let toDestination = Mailbox<Wire, Never>(capacity: 8)
        let toSource = Mailbox<Wire, Never>(capacity: 8)
        private let delivered = Mutex(0)
        let breakAfter: Int

        init(breakAfter: Int) {
            self.breakAfter = breakAfter
        }

        func send(_ message: Wire, toSource: Bool) throws(TransferSessionError) {
            let delivers = delivered.withLock { count in
                guard count < breakAfter else { return false }
                count += 1
                return true
            }
            guard delivers, (toSource ? self.toSource : toDestination).post(message) == .posted else {
                cut()
                throw TransferSessionError(code: .disconnected, message: "The fake link is broken.")
            }
        }

        /// Ends both directions; what was delivered can still be read.
        func cut() {
            toDestination.close(nil)
            toSource.close(nil)
        }
    }

    /// A process that dies before its `dieAt`-th effect (a send or a decision), or never.
    final class Process: Sendable {
        let dieAt: Int?
        private let effects = Mutex(0)
        let link: Link

        init(dieAt: Int?, link: Link) {
            self.dieAt = dieAt
            self.link = link
        }

        var isDead: Bool { effects.withLock { count in dieAt.map { count > $0 } ?? false } }

        /// Counts an effect; throws, and cuts the link, when the process dies before it.
        func step() throws(TransferSessionError) {
            let dies = effects.withLock { count in
                defer { count += 1 }
                return dieAt.map { count >= $0 } ?? false
            }
            if dies {
                link.cut()
                throw TransferSessionError(code: .cancelled, message: "The process died.")
            }
        }
    }

    /// One run's faults.
    struct Faults: CustomStringConvertible {
        var usesRecord: Bool
        var breakAfter = Int.max
        var sourceDiesAt: Int? = nil
        var destinationDiesAt: Int? = nil
        var commitFails = false

        var description: String {
            "record \(usesRecord), break after \(breakAfter), source dies at \(sourceDiesAt.map(String.init) ?? "-"), "
                + "destination at \(destinationDiesAt.map(String.init) ?? "-"), commit fails \(commitFails)"
        }
    }

    /// Where the item is after a run.
    struct Ending: Hashable {
        var inSource: Bool
        var inDestination: Bool
    }

    private static func effects(
        _ process: Process, record: Record?, toSource: Bool
    ) -> MoveEffects {
        MoveEffects(
            send: { message throws(TransferSessionError) in
                try process.step()
                try process.link.send(.move(message), toSource: toSource)
                if case .abort = message {
                    // The destination waits for the source's end after an abort, as over the socket.
                    _ = try? await process.link.toDestination.receive()
                }
            },
            decide: { outcome throws(TransferSessionError) in
                try process.step()
                guard let record else { return outcome }
                return record.decide(outcome)
            })
    }

    /// Runs one move under `faults` and says where the item ends, each dead process restarted by the record.
    static func run(_ faults: Faults) async -> Ending {
        let link = Link(breakAfter: faults.breakAfter)
        let record = faults.usesRecord ? Record() : nil
        let source = Process(dieAt: faults.sourceDiesAt, link: link)
        let destination = Process(dieAt: faults.destinationDiesAt, link: link)

        async let sourceMoved: Bool = {
            do {
                try await MoveDriver.runSource(
                    usesRecord: faults.usesRecord, effects: effects(source, record: record, toSource: false)
                ) {
                    switch try? await link.toSource.receive() {
                    case .move(.commit)?: .commit
                    case .move(.abort(let message))?: .abort(message)
                    default: nil
                    }
                }
                guard !source.isDead else { return false }
                try? link.send(.finished(.move), toSource: false)
                return true
            } catch {
                if !source.isDead { try? link.send(.finished(.cancel), toSource: false) }
                return false
            }
        }()

        // The destination starts when the reservation arrives.
        let stored = Mutex(false)
        var destinationKept = false
        if case .move(.reserved)? = try? await link.toDestination.receive() {
            do {
                _ = try await MoveDriver.runDestination(
                    usesRecord: faults.usesRecord, effects: effects(destination, record: record, toSource: true),
                    operation: .move,
                    commit: { () throws(TransferSessionError) in
                        if faults.commitFails {
                            throw TransferSessionError(code: .commitFailed, message: "The commit failed.")
                        }
                        stored.withLock { $0 = true }
                    },
                    end: {
                        guard case .finished(let operation)? = try? await link.toDestination.receive() else {
                            return nil
                        }
                        return operation
                    })
                destinationKept = true
            } catch {
                destinationKept = false  // The caller removes what its commit inserted, as the error says.
            }
        }
        let sourceRemoved = await sourceMoved
        let decided = record?.outcome.withLock { $0 }

        // A dead process comes back with what it stored and applies the record: the source removes what
        // `committed` names, the destination keeps its pending items only then (it decides `aborted` first).
        let inSource: Bool
        if source.isDead {
            inSource = decided.map { $0 != .committed } ?? true
        } else {
            inSource = !sourceRemoved
        }
        let inDestination: Bool
        if destination.isDead {
            let pending = stored.withLock { $0 }
            inDestination = pending && (record.map { $0.decide(.aborted) == .committed } ?? true)
        } else {
            inDestination = destinationKept
        }
        return Ending(inSource: inSource, inDestination: inDestination)
    }

    @Test("a move without faults reaches the destination once, with and without a record", arguments: [true, false])
    func ordinary(usesRecord: Bool) async {
        let ending = await Self.run(Faults(usesRecord: usesRecord))
        #expect(ending == Ending(inSource: false, inDestination: true))
    }

    @Test("a commit that fails leaves the item in the source, with and without a record", arguments: [true, false])
    func commitFails(usesRecord: Bool) async {
        let ending = await Self.run(Faults(usesRecord: usesRecord, commitFails: true))
        #expect(ending == Ending(inSource: true, inDestination: false))
    }

    @Test("a commit that cannot be sent leaves the item in the source without a record, in the destination with one")
    func commitLost() async {
        // The link carries the reservation only.
        let without = await Self.run(Faults(usesRecord: false, breakAfter: 1))
        #expect(without == Ending(inSource: true, inDestination: false))
        let with = await Self.run(Faults(usesRecord: true, breakAfter: 1))
        #expect(with == Ending(inSource: false, inDestination: true))
    }

    @Test("a destination that dies after deciding: the live source asks the record and removes the item")
    func destinationDiesAfterDeciding() async {
        // The destination's effects: 0 is its decision, 1 its commit.
        let ending = await Self.run(Faults(usesRecord: true, destinationDiesAt: 1))
        #expect(ending == Ending(inSource: false, inDestination: true))
    }

    @Test("2 000 random runs for each seed end with the item in exactly one list", arguments: UInt64(1)...4)
    func randomRuns(seed: UInt64) async {
        var random = SplitMix64(state: seed)
        var endings: [Ending: Int] = [:]
        for _ in 0..<2_000 {
            func maybe(_ range: ClosedRange<Int>) -> Int? {
                let value = Int(random.next() % UInt64(range.count + 2))
                return value < range.count ? range.lowerBound + value : nil
            }
            let faults = Faults(
                usesRecord: random.next() % 2 == 0, breakAfter: maybe(0...3) ?? .max, sourceDiesAt: maybe(0...2),
                destinationDiesAt: maybe(0...2), commitFails: random.next() % 8 == 0)
            let ending = await Self.run(faults)
            endings[ending, default: 0] += 1
            let once = ending.inSource != ending.inDestination
            if faults.usesRecord || (faults.sourceDiesAt == nil && faults.destinationDiesAt == nil) {
                #expect(once, "\(faults): \(ending)")
            } else {
                // Without a record a death may leave copies in both (the spec's two windows), never none.
                #expect(ending.inSource || ending.inDestination, "\(faults): \(ending)")
            }
        }
        // Every ending the protocol allows was reached.
        #expect(endings[Ending(inSource: true, inDestination: false), default: 0] > 0)
        #expect(endings[Ending(inSource: false, inDestination: true), default: 0] > 0)
    }
}
