import Foundation
import Synchronization
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
        // Messages queued while the writer was busy share a send.
        expectEachSenderInOrder(send.sent.withLock { $0 }.flatMap { $0 }, senders: 4, messagesEach: 500)
    }

    /// Cuts `bytes` back into the 3-byte messages `[sender, index >> 8, index & 0xFF]` and expects every message
    /// once, each sender's in the order it queued them.
    func expectEachSenderInOrder(
        _ bytes: [UInt8], senders: Int, messagesEach: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(bytes.count == senders * messagesEach * 3, sourceLocation: sourceLocation)
        let sent = stride(from: 0, to: bytes.count, by: 3).map { Array(bytes[$0..<min(bytes.count, $0 + 3)]) }
        for sender in 0..<senders {
            let indices = sent.filter { $0[0] == UInt8(sender) }.map { Int($0[1]) << 8 | Int($0[2]) }
            #expect(indices == Array(0..<messagesEach), sourceLocation: sourceLocation)
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

    // MARK: - Sends at once

    /// The connection as both paths see it: every call of `send` (the writer thread) and `sendNow` (a sender) in the
    /// order made, with what the peer got from each; and whether two calls ever overlapped.
    final class WireLog: Sendable {
        enum Path: Sendable, Equatable { case atOnce, writer }

        let calls = SanitizedMutex<[(path: Path, accepted: [UInt8])]>([])
        let busy = Atomic<Bool>(false)
        let overlapped = Atomic<Bool>(false)
        /// How many bytes `sendNow` takes of a call (given the call's number and the message's length).
        let acceptNow: @Sendable (Int, Int) -> Int
        let failNow: Bool
        /// When set, the writer's sends wait at `gate` (having opened `entered`).
        let holdWriter: Bool
        let entered = Latch<Void>()
        let gate = Latch<Void>()

        init(holdWriter: Bool = false, failNow: Bool = false, acceptNow: @escaping @Sendable (Int, Int) -> Int) {
            self.holdWriter = holdWriter
            self.failNow = failNow
            self.acceptNow = acceptNow
        }

        /// The bytes the peer got, in order.
        var stream: [UInt8] { calls.withLock { $0.flatMap(\.accepted) } }
        var paths: [Path] { calls.withLock { $0.map(\.path) } }

        func record(_ path: Path, _ bytes: [UInt8]) {
            if busy.exchange(true, ordering: .acquiringAndReleasing) { overlapped.store(true, ordering: .relaxed) }
            calls.withLock { $0.append((path, bytes)) }
            busy.store(false, ordering: .releasing)
        }

        func queue(capacity: Int = 1 << 20, onFailure: Latch<SystemError> = Latch()) -> OutboundQueue {
            let outbox = OutboundQueue(
                capacity: capacity,
                send: { bytes, _ throws(SystemError) in
                    if self.holdWriter {
                        self.entered.open()
                        _ = self.gate.block(until: .never)
                    }
                    self.record(.writer, bytes)
                },
                sendNow: { bytes, _ throws(SystemError) -> Int in
                    if self.failNow { throw SystemError(call: "sendmsg", errorNumber: ErrorNumber.brokenPipe) }
                    let call = self.calls.withLock { $0.count }
                    let accepted = min(bytes.count, self.acceptNow(call, bytes.count))
                    if accepted > 0 { self.record(.atOnce, Array(bytes[..<accepted])) }
                    return accepted
                })
            outbox.start { onFailure.open($0) }
            return outbox
        }
    }

    @Test("a message queued while nothing waits goes out at once, on its sender's thread; the writer sends none")
    func sendsAtOnce() {
        let wire = WireLog { _, count in count }
        let outbox = wire.queue()
        for index in 0..<10 { #expect(outbox.enqueue([UInt8(index)], until: .never) == .queued) }
        #expect(wire.stream == Array(0..<10))
        #expect(wire.paths == Array(repeating: .atOnce, count: 10))
        #expect(outbox.close(flushingUntil: .never))
        #expect(outbox.hasFinished)
        #expect(outbox.enqueue([10], until: .never) == .closed)
    }

    @Test("a socket that takes nothing at once leaves the whole message to the writer thread")
    func socketFull() {
        let wire = WireLog { _, _ in 0 }
        let outbox = wire.queue()
        #expect(outbox.enqueue([1, 2, 3], until: .never) == .queued)
        #expect(outbox.close(flushingUntil: .never))
        #expect(wire.stream == [1, 2, 3])
        #expect(wire.paths == [.writer])
    }

    @Test("the rest of a message the socket took in part goes first, by the writer, before what was queued behind it")
    func restGoesFirst() {
        // The first call takes two bytes; later ones take everything.
        let wire = WireLog(holdWriter: true) { call, count in call == 0 ? 2 : count }
        let outbox = wire.queue()
        #expect(outbox.enqueue([1, 2, 3, 4, 5], until: .never) == .queued)
        _ = wire.entered.block(until: .never)  // the writer holds the rest [3, 4, 5]
        #expect(outbox.enqueue([6], until: .never) == .queued)  // queued behind it, not sent at once
        #expect(wire.stream == [1, 2])
        wire.gate.open()
        #expect(outbox.close(flushingUntil: .never))
        #expect(wire.stream == [1, 2, 3, 4, 5, 6])
        let calls = wire.calls.withLock { $0 }
        #expect(calls.first?.path == .atOnce && calls.dropFirst().allSatisfy { $0.path == .writer })
        #expect(calls.dropFirst().first?.accepted == [3, 4, 5])
    }

    @Test("a send at once that fails stops the queue: its sender and every later one get the error, onFailure once")
    func failureAtOnce() async {
        let wire = WireLog(failNow: true) { _, count in count }
        let failure = Latch<SystemError>()
        let outbox = wire.queue(onFailure: failure)
        guard case .failed(let error) = outbox.enqueue([1], until: .never) else {
            Issue.record("a failed send at once was not reported to its sender")
            return
        }
        #expect(error.errorNumber == ErrorNumber.brokenPipe)
        #expect(await failure.wait()?.errorNumber == ErrorNumber.brokenPipe)
        guard case .failed(let later) = outbox.enqueue([2], until: .never) else {
            Issue.record("a message was queued after a send at once failed")
            return
        }
        #expect(later.errorNumber == ErrorNumber.brokenPipe)
        #expect(outbox.close(flushingUntil: .never))
        #expect(wire.stream.isEmpty)
    }

    @Test("several senders, each send taken in part or whole at random: no two sends overlap and each order holds")
    func concurrentPartialSends() async {
        // A fixed pseudo-random share of each call: none, part or all.
        let wire = WireLog { call, count in ((call &* 2_654_435_761) >> 7) % (count + 2) }
        let outbox = wire.queue()
        await withTaskGroup(of: Void.self) { group in
            for sender in 0..<4 {
                group.addTask {
                    for index in 0..<400 {
                        let message = [UInt8(sender), UInt8(index >> 8), UInt8(index & 0xFF)]
                        #expect(outbox.enqueue(message, until: .never) == .queued)
                    }
                }
            }
        }
        #expect(outbox.close(flushingUntil: .never))
        let overlapped = wire.overlapped.load(ordering: .acquiring)
        #expect(!overlapped)
        expectEachSenderInOrder(wire.stream, senders: 4, messagesEach: 400)
    }

    @Test("a real socket whose peer stops reading gets every byte in order, and the descriptor, once it reads")
    func realSocket() throws {
        let (near, far) = try UnixSocket.pair()
        let connection = FramedConnection<LengthPrefixedFrames>(socket: near, sendTimeout: .seconds(60))
        let outbox = OutboundQueue(capacity: 4 << 20, connection: connection)
        let failure = Latch<SystemError>()
        outbox.start { failure.open($0) }
        let pipe = try Syscall.makePipe()
        defer { Syscall.close(pipe.write) }
        // 1 MiB in 256 messages of 4 KiB: more than the socket holds, so sends at once stop part-way and the writer
        // waits for room.
        let count = 256
        let size = 4096
        for index in 0..<count {
            let message = [UInt8](repeating: UInt8(index & 0xFF), count: size)
            #expect(outbox.enqueue(message, descriptors: index == 0 ? [pipe.read] : [], until: .never) == .queued)
        }
        var received: [UInt8] = []
        received.reserveCapacity(count * size)
        var descriptors: [Int32] = []
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while received.count < count * size {
            let got = try buffer.withUnsafeMutableBytes { (bytes) throws(SystemError) -> Int in
                try far.receive(into: bytes, descriptors: &descriptors)
            }
            guard got > 0 else { break }
            received += buffer[..<got]
        }
        #expect(outbox.close(flushingUntil: .after(.seconds(60))))
        #expect(descriptors.count == 1)
        for descriptor in descriptors { Syscall.close(descriptor) }
        #expect(received.count == count * size)
        let expected = (0..<count).flatMap { [UInt8](repeating: UInt8($0 & 0xFF), count: size) }
        #expect(received == expected)
        #expect(!failure.isOpen)
        connection.close()
    }

    /// A `sendNow` that, from its call number `gatedCall` on, waits at `gate` (having opened `entered`), then takes
    /// `accept` bytes or throws `EPIPE`; before that call it takes nothing, so those messages go to the writer.
    final class GatedSendNow: Sendable {
        let gatedCall: Int
        let accept: Int?
        let calls = Atomic<Int>(0)
        let entered = Latch<Void>()
        let gate = Latch<Void>()
        let written = SanitizedMutex<[[UInt8]]>([])

        init(gatedCall: Int = 0, accept: Int?) {
            self.gatedCall = gatedCall
            self.accept = accept
        }

        func queue(onFailure: Latch<SystemError>, starting: Bool = true) -> OutboundQueue {
            let outbox = OutboundQueue(
                capacity: 1 << 20,
                send: { bytes, _ throws(SystemError) in self.written.withLock { $0.append(bytes) } },
                sendNow: { bytes, _ throws(SystemError) -> Int in
                    guard self.calls.add(1, ordering: .acquiringAndReleasing).oldValue >= self.gatedCall else {
                        return 0
                    }
                    self.entered.open()
                    _ = self.gate.block(until: .never)
                    guard let accept = self.accept else {
                        throw SystemError(call: "sendmsg", errorNumber: ErrorNumber.brokenPipe)
                    }
                    let taken = min(accept, bytes.count)
                    self.written.withLock { $0.append(Array(bytes[..<taken])) }
                    return taken
                })
            if starting { outbox.start { onFailure.open($0) } }
            return outbox
        }
    }

    /// `count` descriptors (pipe ends) for a message to carry: the queue closes them, which takes a while — the time
    /// in which a queue that recorded its failure only after closing them let others go on.
    func descriptors(_ count: Int) throws -> [Int32] {
        var descriptors: [Int32] = []
        for _ in 0..<count / 2 {
            let pipe = try Syscall.makePipe()
            descriptors += [pipe.read, pipe.write]
        }
        return descriptors
    }

    @Test("a message queued while a send at once fails is never sent after it; onFailure hears of the failure")
    func nothingAfterAFailedSendAtOnce() async throws {
        // The first message takes the writer's path, so the writer runs; the second is sent at once and fails.
        let now = GatedSendNow(gatedCall: 1, accept: nil)
        let failure = Latch<SystemError>()
        let outbox = now.queue(onFailure: failure)
        #expect(outbox.enqueue([0], until: .never) == .queued)
        let deadline = ContinuousClock.now + .seconds(30)
        // The writer counts [0] as sent just after writing it; then nothing waits and [1] may go at once.
        while !(now.written.withLock({ $0 }) == [[0]] && outbox.isIdle) && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(1))
        }
        let outcome = Latch<OutboundQueue.EnqueueOutcome>()
        let carried = try descriptors(250)
        DedicatedThread.start { outcome.open(outbox.enqueue([1], descriptors: carried, until: .never)) }
        // The send at once of [1] holds the connection.
        guard now.entered.block(until: .after(.seconds(30))) != nil else {
            Issue.record("[1] was not sent at once: the writer had not counted [0] as sent")
            now.gate.open()
            return
        }
        // Queued behind it (the connection is busy): the writer takes it and waits for the connection.
        #expect(outbox.enqueue([2], until: .never) == .queued)
        now.gate.open()
        guard case .failed(let error) = await outcome.wait() else {
            Issue.record("the failed send at once was not reported to its sender")
            return
        }
        #expect(error.errorNumber == ErrorNumber.brokenPipe)
        #expect(try await failure.wait(until: .after(.seconds(10)))?.errorNumber == ErrorNumber.brokenPipe)
        #expect(outbox.close(flushingUntil: .never))
        #expect(now.written.withLock { $0 } == [[0]])
    }

    @Test("a failed send at once that a close waited for is still told to onFailure")
    func failureDuringClose() async throws {
        let now = GatedSendNow(accept: nil)
        let failure = Latch<SystemError>()
        let outbox = now.queue(onFailure: failure)
        let outcome = Latch<OutboundQueue.EnqueueOutcome>()
        let carried = try descriptors(250)
        DedicatedThread.start { outcome.open(outbox.enqueue([1], descriptors: carried, until: .never)) }
        _ = now.entered.block(until: .never)
        let closed = Latch<Bool>()
        DedicatedThread.start { closed.open(outbox.close(flushingUntil: .never)) }
        // Give the close time to reach the connection's lock, which the failing send holds.
        try? await Task.sleep(for: .milliseconds(50))
        now.gate.open()
        #expect(await closed.wait() == true)
        #expect(try await failure.wait(until: .after(.seconds(10)))?.errorNumber == ErrorNumber.brokenPipe)
        guard case .failed = await outcome.wait() else {
            Issue.record("the failed send at once was not reported to its sender")
            return
        }
        #expect(outbox.hasFinished)
    }

    @Test("the rest of a send at once that a close cut short is written once the queue starts")
    func restOwedBeforeStart() async {
        let now = GatedSendNow(accept: 2)
        let failure = Latch<SystemError>()
        let outbox = now.queue(onFailure: failure, starting: false)
        DedicatedThread.start { _ = outbox.enqueue([1, 2, 3, 4, 5], until: .after(.zero)) }
        _ = now.entered.block(until: .never)
        let closed = Latch<Bool>()
        DedicatedThread.start { closed.open(outbox.close(flushingUntil: .after(.zero))) }
        // Give the close time to close the mailbox, so the send's wake-up finds it closed.
        try? await Task.sleep(for: .milliseconds(50))
        now.gate.open()
        #expect(await closed.wait() == false)  // nothing runs the writer yet
        #expect(!outbox.hasFinished)
        // Starting the queue writes the rest (no second close is needed), and the queue is finished.
        outbox.start { failure.open($0) }
        let deadline = ContinuousClock.now + .seconds(10)
        while !outbox.hasFinished && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(1))
        }
        #expect(outbox.hasFinished)
        #expect(now.written.withLock { $0 } == [[1, 2], [3, 4, 5]])
        #expect(!failure.isOpen)
    }
}
