import Synchronization
import Testing

@testable import TransferKitPlatform

/// The one shell of a protocol machine: what it hands back, what it carries out under its lock, and in which order.
@Suite("The machine shell", .timeLimit(.minutes(5)))
struct MachineShellTests {
    /// A machine that numbers what it is asked: a request (``take()``) answers the next number and asks that it be
    /// sent; an event asks that its number be sent and that it be logged.
    struct Counter: ProtocolMachine {
        var next = 0

        enum Event: Sendable { case tick }
        enum Action: Sendable, Equatable {
            case send(Int)
            case log(Int)
        }

        mutating func handle(_ event: Event) -> [Action] {
            next += 1
            return [.send(next), .log(next)]
        }

        struct Refused: Error, Equatable {}

        mutating func take() throws(Refused) -> (Int, [Action]) {
            guard next < 1_000_000 else { throw Refused() }
            next += 1
            return (next, [.send(next)])
        }
    }

    @Test(
        "perform answers and hands back the actions; handle hands back the actions; a refusal throws and changes nothing"
    )
    func answers() throws {
        let shell = MachineShell(Counter())
        let (answer, actions) = try shell.perform { counter throws(Counter.Refused) in try counter.take() }
        #expect(answer == 1 && actions == [.send(1)])
        #expect(shell.handle(.tick) == [.send(2), .log(2)])
        #expect(shell.read { $0.next } == 2)
        let full = MachineShell(Counter(next: 1_000_000))
        #expect(throws: Counter.Refused()) {
            _ = try full.perform { counter throws(Counter.Refused) in try counter.take() }
        }
        #expect(full.read { $0.next } == 1_000_000)
        let failed = #expect(throws: Counter.Refused.self) {
            try full.read { counter throws(Counter.Refused) in if counter.next > 0 { throw Counter.Refused() } }
        }
        #expect(failed != nil, "read passes on what its body throws")
    }

    @Test("The in-order handler carries out its actions under the lock, in the machine's order, whoever asked")
    func inOrder() async {
        let sent = Mutex<[Int]>([])
        let shell = MachineShell(Counter()) { action in
            guard case .send(let number) = action else { return action }
            sent.withLock { $0.append(number) }
            return nil
        }
        let logged = await withTaskGroup(of: [Counter.Action].self) { group in
            for index in 0..<8 {
                group.addTask {
                    var left: [Counter.Action] = []
                    for _ in 0..<500 {
                        if index.isMultiple(of: 2) {
                            left += shell.handle(.tick)
                        } else {
                            let taken = try? shell.perform { counter throws(Counter.Refused) in try counter.take() }
                            left += taken?.actions ?? []
                        }
                    }
                    return left
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        let numbers = sent.withLock { $0 }
        #expect(numbers == Array(1...4000), "every send, each once, in the order the machine numbered them")
        #expect(logged.count == 2000 && logged.allSatisfy { if case .log = $0 { true } else { false } })
    }
}
