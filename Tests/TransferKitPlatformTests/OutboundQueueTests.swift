import Foundation
import Testing
import TransferKitTestSupport

@testable import TransferKitPlatform

/// The outbound queue against an injected send: one that records, one that fails, one that a test holds stuck.
@Suite("The wire layer's outbound queue and writer thread", .timeLimit(.minutes(5)))
struct OutboundQueueTests {
    /// A send that records what it was given and, once `hold` is set, waits in each call until the gate opens.
    final class RecordingSend: Sendable {
        let sent = SanitizedMutex<[[UInt8]]>([])
        /// Opened by the first send that waits at the gate.
        let entered = Latch<Void>()
        let gate = Latch<Void>()
        let hold: Bool
        let failAt: Int?

        init(hold: Bool = false, failAt: Int? = nil) {
            self.hold = hold
            self.failAt = failAt
        }

        func send(_ bytes: [UInt8], _ descriptors: [Int32]) throws(SystemError) {
            if hold {
                entered.open()
                _ = gate.block(until: .never)
            }
            let count = sent.withLock { sent in
                sent.append(bytes)
                return sent.count
            }
            if count == failAt { throw SystemError(call: "sendmsg", errorNumber: ErrorNumber.brokenPipe) }
        }
    }

    func queue(capacity: Int = 1 << 20, _ send: RecordingSend, onFailure: Latch<SystemError> = Latch()) -> OutboundQueue
    {
        let queue = OutboundQueue(capacity: capacity) { bytes, descriptors throws(SystemError) in
            try send.send(bytes, descriptors)
        }
        queue.start { onFailure.open($0) }
        return queue
    }

    @Test("messages are sent in the order they were queued; each sender's order holds among several senders")
    func order() async {
        let send = RecordingSend()
        let outbox = queue(send)
        await withTaskGroup(of: Void.self) { group in
            for sender in 0..<4 {
                group.addTask {
                    for index in 0..<500 {
                        #expect(
                            outbox.enqueue([UInt8(sender), UInt8(index >> 8), UInt8(index & 0xFF)], until: .never)
                                == .queued)
                    }
                }
            }
        }
        #expect(outbox.close(flushingUntil: .never))
        // Messages queued while the writer was busy share a send: cut the bytes back into messages of 3.
        let bytes = send.sent.withLock { $0 }.flatMap { $0 }
        #expect(bytes.count == 2000 * 3)
        let sent = stride(from: 0, to: bytes.count, by: 3).map { Array(bytes[$0..<min(bytes.count, $0 + 3)]) }
        for sender in 0..<4 {
            let indices = sent.filter { $0[0] == UInt8(sender) }.map { Int($0[1]) << 8 | Int($0[2]) }
            #expect(indices == Array(0..<500))
        }
    }

    @Test("close writes what was queued before it, then refuses new messages; a burst queued meanwhile is one send")
    func closeFlushes() async {
        let send = RecordingSend(hold: true)
        let outbox = queue(send)
        #expect(outbox.enqueue([0], until: .never) == .queued)
        _ = send.entered.block(until: .never)  // the writer holds [0]; the next two queue behind it
        for index in 1..<3 { #expect(outbox.enqueue([UInt8(index)], until: .never) == .queued) }
        let closed = Latch<Bool>()
        DedicatedThread.start { closed.open(outbox.close(flushingUntil: .never)) }
        #expect(!closed.isOpen)  // the writer is still held at the first message
        send.gate.open()
        #expect(await closed.wait() == true)
        #expect(send.sent.withLock { $0 } == [[0], [1, 2]])
        #expect(outbox.enqueue([9], until: .never) == .closed)
        #expect(outbox.hasFinished)
    }

    @Test(
        "a failed send stops the writer: onFailure gets the error once, the rest is dropped, later sends fail with it")
    func failureEndsTheQueue() async {
        let send = RecordingSend(hold: true, failAt: 1)
        let failure = Latch<SystemError>()
        let outbox = queue(send, onFailure: failure)
        #expect(outbox.enqueue([0], until: .never) == .queued)
        _ = send.entered.block(until: .never)
        for index in 1..<3 { #expect(outbox.enqueue([UInt8(index)], until: .never) == .queued) }
        send.gate.open()
        let error = await failure.wait()
        #expect(error?.errorNumber == ErrorNumber.brokenPipe)
        guard case .failed(let refused) = outbox.enqueue([7], until: .never) else {
            Issue.record("a message was queued after the writer failed")
            return
        }
        #expect(refused.errorNumber == ErrorNumber.brokenPipe)
        #expect(outbox.close(flushingUntil: .never))
        #expect(send.sent.withLock { $0 } == [[0]])
    }

    @Test("a send the peer leaves stuck does not hold close past its deadline")
    func stuckPeer() async {
        let clock = WireClock.manual()
        let send = RecordingSend(hold: true)
        let outbox = queue(send)
        #expect(outbox.enqueue([1], until: .never) == .queued)
        _ = send.entered.block(until: .never)
        #expect(outbox.enqueue([2], until: .never) == .queued)
        let deadline = Deadline.after(.seconds(2), on: clock)
        let result = await advancing(clock, by: .seconds(1)) {
            await DedicatedThread.run { outbox.close(flushingUntil: deadline) }
        }
        #expect((try? result.get()) == false)
        #expect(deadline.hasPassed)
        #expect(!outbox.hasFinished)
        // The connection's end breaks a stuck send; here the gate stands for it.
        send.gate.open()
        #expect(outbox.close(flushingUntil: .never))
        #expect(send.sent.withLock { $0 } == [[1], [2]])
    }

    @Test("a full queue makes its sender wait until the deadline, then says full")
    func full() {
        let clock = WireClock.manual()
        let send = RecordingSend(hold: true)
        let outbox = queue(capacity: 10, send)
        #expect(outbox.enqueue([UInt8](repeating: 1, count: 8), until: .never) == .queued)
        _ = send.entered.block(until: .never)  // the writer holds the first; the queue is empty again
        #expect(outbox.enqueue([UInt8](repeating: 2, count: 8), until: .never) == .queued)
        let passed = Deadline.after(.zero, on: clock)
        #expect(outbox.enqueue([UInt8](repeating: 3, count: 8), until: passed) == .full)
        send.gate.open()
        #expect(outbox.close(flushingUntil: .never))
        #expect(send.sent.withLock { $0 }.map { $0[0] } == [1, 2])
    }
}
