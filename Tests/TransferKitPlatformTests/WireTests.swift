import Foundation
import Testing

@testable import TransferKitPlatform

@Suite("The wire layer: frame buffer, mailbox, timer, framed connection", .timeLimit(.minutes(5)))
struct WireTests {
    @Test("frames split anywhere come out whole, and the buffer compacts without losing bytes")
    func frameBuffer() throws {
        var decoder = LengthPrefixedFrames(maximumLength: 1 << 20)
        var buffer = FrameBuffer()
        var stream: [UInt8] = []
        var bodies: [[UInt8]] = []
        for index in 0..<5000 {
            let body = [UInt8](repeating: UInt8(index % 251), count: 1 + index % 97)
            bodies.append(body)
            stream += LengthPrefixedFrames.frame(body)
        }
        var received: [[UInt8]] = []
        var offset = 0
        var size = 1
        while offset < stream.count {
            let end = min(stream.count, offset + size)
            buffer.append(stream[offset..<end])
            offset = end
            size = size % 700 + 13
            while let frame = try decoder.nextFrame(from: &buffer) { received.append(frame) }
        }
        #expect(received == bodies)
        #expect(buffer.isEmpty)
    }

    @Test("a header over the limit, or an empty frame, is a violation before any body is buffered")
    func oversizedHeader() {
        var decoder = LengthPrefixedFrames(maximumLength: 16)
        var buffer = FrameBuffer()
        buffer.append([0, 0, 0, 17])
        #expect(throws: WireViolation.self) { try decoder.nextFrame(from: &buffer) }
        var empty = FrameBuffer()
        empty.append([0, 0, 0, 0])
        #expect(throws: WireViolation.self) { try decoder.nextFrame(from: &empty) }
    }

    @Test("a mailbox's receive ends at its deadline, on close, and hands over in order")
    func mailbox() async throws {
        let mailbox = Mailbox<Int, SystemError>(capacity: 4)
        let clock = WireClock.manual()
        // Short of its deadline the receive still waits, and gets what comes.
        // (Each deadline is taken before its waiter starts: the waiter may start after the clock moved.)
        let first = Deadline.after(.milliseconds(100), on: clock)
        let early = Task { try await mailbox.receive(until: first) }
        clock.advance(by: .milliseconds(99))
        #expect(mailbox.post(0) == .posted)
        #expect(try await early.value == 0)
        // At its deadline it ends.
        let second = Deadline.after(.milliseconds(100), on: clock)
        let late = Task { try await mailbox.receive(until: second) }
        clock.advance(by: .milliseconds(100))
        let result = await late.result
        guard case .failure(let failure) = result,
            case .timedOut? = failure as? Mailbox<Int, SystemError>.ReceiveFailure
        else {
            Issue.record("\(result)")
            return
        }
        for value in 1...3 { #expect(mailbox.post(value) == .posted) }
        mailbox.close(SystemError(call: "test", errorNumber: 5))
        #expect(mailbox.post(4) == .closed)
        for value in 1...3 { #expect(try await mailbox.receive() == value) }
        do {
            _ = try await mailbox.receive()
            Issue.record("a closed, drained mailbox gave an element")
        } catch {
            guard case .closed(let cause) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(cause.errorNumber == 5)
        }
    }

    @Test("a full mailbox makes its poster wait until the deadline, then says timedOut")
    func backPressure() async {
        let mailbox = Mailbox<Int, Never>(capacity: 10)
        let clock = WireClock.manual()
        #expect(mailbox.post(1, cost: 10) == .posted)
        let refusedBy = Deadline.after(.milliseconds(50), on: clock)
        let refused = Task {
            await DedicatedThread.run { mailbox.post(2, cost: 5, until: refusedBy) }
        }
        clock.advance(by: .milliseconds(50))
        #expect(await refused.value == .timedOut)
        // Room made before the deadline lets the waiting post through.
        let waitingUntil = Deadline.after(.milliseconds(50), on: clock)
        let waiting = Task {
            await DedicatedThread.run { mailbox.post(3, cost: 5, until: waitingUntil) }
        }
        clock.advance(by: .milliseconds(49))
        #expect(mailbox.poll() == 1)
        #expect(await waiting.value == .posted)
        #expect(mailbox.poll() == 3)
    }

    @Test("a taken element is released at once, even while the queue never drains")
    func takenElementsAreReleased() {
        final class Payload: Sendable {}
        let mailbox = Mailbox<Payload, Never>(capacity: 10)
        weak var taken: Payload?
        do {
            let first = Payload()
            taken = first
            mailbox.post(first)
            mailbox.post(Payload())
        }
        #expect(taken != nil)
        _ = mailbox.poll()
        #expect(taken == nil)
        #expect(mailbox.count == 1)
    }

    @Test("a thread can take from a mailbox, waiting at most until its deadline")
    func blockingTake() async {
        let clock = WireClock.manual()
        let empty = Mailbox<Int, Never>(capacity: 1)
        let emptyUntil = Deadline.after(.milliseconds(50), on: clock)
        let nothing = Task { await DedicatedThread.run { empty.take(until: emptyUntil) } }
        clock.advance(by: .milliseconds(50))
        #expect(await nothing.value == nil)
        let mailbox = Mailbox<Int, Never>(capacity: 1)
        let takenBy = Deadline.after(.seconds(30), on: clock)
        let taken = Task { await DedicatedThread.run { mailbox.take(until: takenBy) } }
        clock.advance(by: .seconds(29))
        mailbox.post(7)
        #expect(await taken.value == 7)
        mailbox.close(nil)
        #expect(mailbox.take() == nil)
    }

    @Test("a cancelled receiver stops waiting at once")
    func cancellation() async {
        let mailbox = Mailbox<Int, Never>(capacity: 1)
        let waiter = Task { try await mailbox.receive() }
        try? await Task.sleep(for: .milliseconds(20))
        waiter.cancel()
        let result = await waiter.result
        guard case .failure(let error) = result, case .cancelled? = error as? Mailbox<Int, Never>.ReceiveFailure else {
            Issue.record("\(result)")
            return
        }
    }

    @Test("the timer fires in deadline order and never after a cancel")
    func timer() async throws {
        let fired = SanitizedMutex([Int]())
        let clock = WireClock.manual()
        WireTimer.shared.schedule(at: .after(.milliseconds(60), on: clock)) { fired.withLock { $0.append(2) } }
        let cancelled = WireTimer.shared.schedule(at: .after(.seconds(1), on: clock)) {
            fired.withLock { $0.append(9) }
        }
        WireTimer.shared.schedule(at: .after(.milliseconds(20), on: clock)) { fired.withLock { $0.append(1) } }
        #expect(WireTimer.shared.cancel(cancelled))
        #expect(!WireTimer.shared.cancel(cancelled))
        clock.advance(by: .milliseconds(19))
        #expect(fired.withLock { $0 }.isEmpty)
        clock.advance(by: .milliseconds(1))
        #expect(fired.withLock { $0 } == [1])
        clock.advance(by: .seconds(5))
        #expect(fired.withLock { $0 } == [1, 2])
        // The continuous clock does not move by a test's hand.
        let before = WireClock.continuous.now
        WireClock.continuous.advance(by: .seconds(3600))
        #expect(WireClock.continuous.now - before < .seconds(3600))

        // A smoke test on real time: the continuous clock's timer thread fires, and a deadline centuries away (a
        // write that expires in `Int64.max` seconds) does not stop it: once the first action ran, the far one is
        // what the thread waits for, and the next one still fires.
        let far = WireTimer.shared.schedule(at: .after(.seconds(Int64.max))) {}
        defer { WireTimer.shared.cancel(far) }
        for _ in 0..<2 {
            let done = Mailbox<Void, Never>(capacity: 1)
            WireTimer.shared.schedule(at: .after(.milliseconds(20))) { done.post(()) }
            try await done.receive(until: .after(.seconds(10)))
        }
        // An entry due after the one the thread sleeps until does not wake it: it fires once that wait ends, on
        // time, even when the earlier entry was cancelled in between (a reply's deadline after the last reply's).
        let early = WireTimer.shared.schedule(at: .after(.milliseconds(50))) {}
        let done = Mailbox<ContinuousClock.Instant, Never>(capacity: 1)
        let start = ContinuousClock.now
        WireTimer.shared.schedule(at: .after(.milliseconds(80))) { done.post(.now) }
        #expect(WireTimer.shared.cancel(early))
        let firedAt = try await done.receive(until: .after(.seconds(10)))
        #expect(firedAt - start >= .milliseconds(80))
        #expect(firedAt - start < .seconds(5))
    }

    @Test("the timer's sleep ends at its deadline, and at once with CancellationError when its task is cancelled")
    func timerSleep() async throws {
        let started = ContinuousClock.now
        try await WireTimer.sleep(for: .milliseconds(30))
        #expect(started.duration(to: .now) >= .milliseconds(30))
        try await WireTimer.sleep(until: .after(.zero))

        // Cancelled while asleep: a sleep without end ends, and says why.
        let asleep = Task { () -> (any Error)? in
            do {
                try await WireTimer.sleep(until: .never)
                return nil
            } catch {
                return error
            }
        }
        asleep.cancel()
        #expect(await asleep.value is CancellationError)

        // Already cancelled: it does not wait at all.
        let late = Task { () -> (any Error)? in
            withUnsafeCurrentTask { $0?.cancel() }
            do {
                try await WireTimer.sleep(for: .seconds(600))
                return nil
            } catch {
                return error
            }
        }
        #expect(await late.value is CancellationError)

        let blocked = ContinuousClock.now
        await DedicatedThread.run { WireTimer.block(for: .milliseconds(30)) }
        #expect(blocked.duration(to: .now) >= .milliseconds(30))
    }

    @Test("a latch wakes every waiter once opened; a wait ends by its deadline or its task's cancellation")
    func latch() async throws {
        let latch = Latch<Int>()
        let clock = WireClock.manual()
        let waitUntil = Deadline.after(.milliseconds(20), on: clock)
        let timedOut = Task { try await latch.wait(until: waitUntil) }
        let blockUntil = Deadline.after(.milliseconds(20), on: clock)
        let blockedOut = Task { await DedicatedThread.run { latch.block(until: blockUntil) } }
        clock.advance(by: .milliseconds(20))
        #expect(try await timedOut.value == nil)
        #expect(await blockedOut.value == nil)
        let waiters = (0..<3).map { _ in Task { await latch.wait() } }
        let blocked = Task { await DedicatedThread.run { latch.block(until: .after(.seconds(60))) } }
        let cancelled = Task { () -> (any Error)? in
            do {
                _ = try await latch.wait(until: .never)
                return nil
            } catch {
                return error
            }
        }
        cancelled.cancel()
        #expect(await cancelled.value is CancellationError)
        #expect(!latch.isOpen && latch.value == nil)
        #expect(latch.open(7))
        // Only the first opening counts: its value stays.
        #expect(!latch.open(8))
        for waiter in waiters { #expect(await waiter.value == 7) }
        #expect(await blocked.value == 7)
        // Open, it answers at once with its value, whatever the deadline, even to a cancelled task.
        #expect(try await latch.wait(until: .after(.zero)) == 7)
        #expect(latch.block(until: .after(.zero)) == 7)
        let late = Task { await latch.wait() }
        late.cancel()
        #expect(await late.value == 7)
    }

    @Test("a latch without a value opens once; a cancelled wait gets nil")
    func voidLatch() async {
        let gate = Latch<Void>()
        let cancelled = Task { await gate.wait() }
        cancelled.cancel()
        #expect(await cancelled.value == nil)
        #expect(gate.open())
        #expect(!gate.open())
        #expect(await gate.wait() != nil)
    }

    @Test("a dedicated worker runs its jobs in order on one thread, passes their errors on, and ends when closed")
    func dedicatedWorker() async throws {
        let worker = DedicatedWorker()
        var threads: Set<UInt> = []
        for index in 0..<20 {
            let (thread, echoed) = await worker.run { (UInt(bitPattern: Int(bitPattern: pthread_self())), index) }
            threads.insert(thread)
            #expect(echoed == index)
        }
        #expect(threads.count == 1)
        let error = await #expect(throws: SystemError.self) {
            try await worker.run { () throws(SystemError) in throw SystemError(call: "write", errorNumber: EPIPE) }
        }
        #expect(error?.errorNumber == EPIPE)
        worker.close()
        // Closed, it still runs what it is handed, on a thread of its own.
        #expect(await worker.run { 7 } == 7)
    }

    @Test("a framed connection hands frames and their descriptors over, and reports a mid-frame end once")
    func framedConnection() async throws {
        let (near, far) = try UnixSocket.pair()
        let connection = FramedConnection<LengthPrefixedFrames>(socket: near, sendTimeout: .seconds(5))
        let frames = Mailbox<([UInt8], Int), Never>(capacity: 16)
        let ends = Mailbox<String, Never>(capacity: 4)
        connection.start(
            decoder: LengthPrefixedFrames(maximumLength: 64),
            onFrame: { body, descriptors in
                let count = descriptors.count
                for descriptor in descriptors { Syscall.close(descriptor) }
                descriptors = []
                frames.post((body, count))
            },
            onEnd: { end in ends.post("\(end)") })
        let pipe = try Syscall.makePipe()
        defer { Syscall.close(pipe.write) }
        try far.sendAll(LengthPrefixedFrames.frame([1, 2, 3]), descriptors: [pipe.read], timeout: .seconds(5))
        Syscall.close(pipe.read)
        let (body, descriptorCount) = try await frames.receive(until: .after(.seconds(10)))
        #expect(body == [1, 2, 3] && descriptorCount == 1)
        try far.sendAll([0, 0, 0, 9, 1], timeout: .seconds(5))
        far.shutdown()
        let end = try await ends.receive(until: .after(.seconds(10)))
        #expect(end.contains("middle of a frame"))
        #expect(connection.hasEnded)
    }

    @Test("sendNow sends what the socket takes, fails with EPIPE once the peer is gone, and never uses an output pipe")
    func sendNow() throws {
        let (near, far) = try UnixSocket.pair()
        let connection = FramedConnection<LengthPrefixedFrames>(socket: near, sendTimeout: .seconds(5))
        #expect(try connection.sendNow([1, 2, 3]) == 3)
        var buffer = [UInt8](repeating: 0, count: 8)
        var descriptors: [Int32] = []
        let got = try buffer.withUnsafeMutableBytes { (bytes) throws(SystemError) -> Int in
            try far.receive(into: bytes, descriptors: &descriptors)
        }
        #expect(Array(buffer[..<got]) == [1, 2, 3])
        far.close()
        let error = #expect(throws: SystemError.self) { try connection.sendNow([4]) }
        #expect(error?.errorNumber == ErrorNumber.brokenPipe)

        let (other, _) = try UnixSocket.pair()
        let pipe = try Syscall.makePipe()
        defer { Syscall.close(pipe.read) }
        let piped = try FramedConnection<LengthPrefixedFrames>(
            socket: other, output: pipe.write, sendTimeout: .seconds(5))
        #expect(try piped.sendNow([5]) == 0)
    }

    @Test(
        "a framed connection with an output pipe writes its frames into it, and closes it with its flag back at the end"
    )
    func outputPipe() async throws {
        let (near, far) = try UnixSocket.pair()
        let pipe = try Syscall.makePipe()
        defer { Syscall.close(pipe.read) }
        // A second descriptor of the pipe's write end: the flag belongs to the open file description both share.
        let watcher = try Syscall.duplicate(pipe.write)  // closed at the end, once
        let connection = try FramedConnection<LengthPrefixedFrames>(
            socket: near, output: pipe.write, sendTimeout: .seconds(5))
        let ends = Mailbox<String, Never>(capacity: 4)
        connection.start(
            decoder: LengthPrefixedFrames(maximumLength: 64), onFrame: { _, _ in },
            onEnd: { end in ends.post("\(end)") })
        #expect(try Syscall.setNonBlocking(watcher, true), "non-blocking while the connection owns it")
        let frame = LengthPrefixedFrames.frame([1, 2, 3])
        try connection.send(frame)
        try connection.send(frame + frame)
        var buffer = [UInt8](repeating: 0, count: 64)
        #expect(try Syscall.read(pipe.read, into: &buffer) == 3 * frame.count)
        #expect(Array(buffer.prefix(3 * frame.count)) == frame + frame + frame)
        let refused = #expect(throws: SystemError.self) { try connection.send(frame, descriptors: [pipe.read]) }
        #expect(refused?.errorNumber == EINVAL, "a pipe carries no descriptors")

        // The peer ends the stream: the connection ends, puts the flag back and closes its output.
        far.shutdown()
        #expect(try await ends.receive(until: .after(.seconds(10))) == "the peer closed the connection")
        #expect(try !Syscall.setNonBlocking(watcher, false), "blocking again, as it was given")
        let error = #expect(throws: SystemError.self) { try connection.send(frame) }
        #expect(error?.errorNumber == EPIPE)
        Syscall.close(watcher)
        // Every write end is closed now: the reader reads the end.
        #expect(try Syscall.read(pipe.read, into: &buffer) == 0)
    }

    @Test("a framed connection with an input pipe reads its frames there and sends on the socket")
    func inputPipe() async throws {
        let (near, far) = try UnixSocket.pair()
        let pipe = try Syscall.makePipe()
        defer { Syscall.close(pipe.write) }
        let connection = FramedConnection<LengthPrefixedFrames>(
            socket: near, input: pipe.read, sendTimeout: .seconds(5))
        let frames = Mailbox<[UInt8], Never>(capacity: 16)
        let ends = Mailbox<String, Never>(capacity: 4)
        connection.start(
            decoder: LengthPrefixedFrames(maximumLength: 1 << 20), onFrame: { body, _ in frames.post(body) },
            onEnd: { end in ends.post("\(end)") })
        // A frame larger than one read, written in two parts.
        let large = (0..<(600 << 10)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let frame = LengthPrefixedFrames.frame(large)
        let write = pipe.write
        DedicatedThread.start {
            frame.withUnsafeBytes { bytes in
                _ = try? Syscall.write(write, UnsafeRawBufferPointer(rebasing: bytes[..<100]))
                _ = try? Syscall.write(write, UnsafeRawBufferPointer(rebasing: bytes[100...]))
            }
        }
        #expect(try await frames.receive(until: .after(.seconds(10))) == large)
        // What this side sends goes to the socket.
        try connection.send(LengthPrefixedFrames.frame([9]))
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = try buffer.withUnsafeMutableBytes { bytes in
            var descriptors: [Int32] = []
            return try far.receive(into: bytes, descriptors: &descriptors)
        }
        #expect(Array(buffer.prefix(count)) == LengthPrefixedFrames.frame([9]))

        // `close()` wakes the reader that waits on an empty pipe.
        connection.close()
        #expect(try await ends.receive(until: .after(.seconds(10))) == "the connection was closed")
    }

    @Test("a peer that hangs the socket up leaves what it wrote into the input pipe to be read to its end")
    func inputPipeOutlivesSocket() async throws {
        let (near, far) = try UnixSocket.pair()
        let pipe = try Syscall.makePipe()
        let connection = FramedConnection<LengthPrefixedFrames>(
            socket: near, input: pipe.read, sendTimeout: .seconds(5))
        let frames = Mailbox<[UInt8], Never>(capacity: 16)
        let ends = Mailbox<String, Never>(capacity: 4)
        // The peer hangs up its socket first, then writes two frames and ends its output.
        far.shutdown()
        let bytes = LengthPrefixedFrames.frame([1]) + LengthPrefixedFrames.frame([2, 2])
        try bytes.withUnsafeBytes { bytes in try Syscall.write(pipe.write, bytes) }
        Syscall.close(pipe.write)
        connection.start(
            decoder: LengthPrefixedFrames(maximumLength: 64), onFrame: { body, _ in frames.post(body) },
            onEnd: { end in ends.post("\(end)") })
        #expect(try await frames.receive(until: .after(.seconds(10))) == [1])
        #expect(try await frames.receive(until: .after(.seconds(10))) == [2, 2])
        #expect(try await ends.receive(until: .after(.seconds(10))) == "the peer closed the connection")
    }

    @Test("a connection whose peer hung the socket up but keeps its input pipe open still ends at close()")
    func inputPipeClosedAfterHangUp() async throws {
        let (near, far) = try UnixSocket.pair()
        let pipe = try Syscall.makePipe()
        defer { Syscall.close(pipe.write) }
        let connection = FramedConnection<LengthPrefixedFrames>(
            socket: near, input: pipe.read, sendTimeout: .seconds(5))
        let frames = Mailbox<[UInt8], Never>(capacity: 4)
        let ends = Mailbox<String, Never>(capacity: 4)
        far.shutdown()
        connection.start(
            decoder: LengthPrefixedFrames(maximumLength: 64), onFrame: { body, _ in frames.post(body) },
            onEnd: { end in ends.post("\(end)") })
        // A frame after the hang-up: the reader is past it and waits on the pipe alone.
        try LengthPrefixedFrames.frame([5]).withUnsafeBytes { bytes in try Syscall.write(pipe.write, bytes) }
        #expect(try await frames.receive(until: .after(.seconds(10))) == [5])
        connection.close()
        #expect(try await ends.receive(until: .after(.seconds(10))) == "the connection was closed")
    }

    @Test("a connection that never started closes its input pipe when it goes")
    func unstartedInputPipe() throws {
        let (near, _) = try UnixSocket.pair()
        let pipe = try Syscall.makePipe()
        defer { Syscall.close(pipe.write) }
        do {
            _ = FramedConnection<LengthPrefixedFrames>(socket: near, input: pipe.read, sendTimeout: .seconds(5))
        }
        // The connection held the only read end: the writer now sees no reader.
        #expect(Syscall.readerHasGone(pipe.write))
    }

    @Test("a silent peer ends the connection at the silence limit when the protocol says so")
    func silence() async throws {
        let (near, far) = try UnixSocket.pair()
        let clock = WireClock.manual()
        let connection = FramedConnection<LengthPrefixedFrames>(socket: near, sendTimeout: .seconds(5), clock: clock)
        let ends = Mailbox<String, Never>(capacity: 1)
        let asks = Mailbox<Int, Never>(capacity: 4)
        let frames = Mailbox<Void, Never>(capacity: 4)
        let asked = SanitizedMutex(0)
        connection.start(
            decoder: LengthPrefixedFrames(maximumLength: 64), silenceLimit: .seconds(30),
            onSilence: {
                let count = asked.withLock {
                    $0 += 1
                    return $0
                }
                asks.post(count)
                return count >= 3
            },
            onFrame: { _, _ in frames.post(()) }, onEnd: { end in ends.post("\(end)") })
        // A frame before the limit starts the silence again: 29 s, a frame, 29 s more are no silence.
        clock.advance(by: .seconds(29))
        try far.sendAll(LengthPrefixedFrames.frame([1]), timeout: .seconds(5))
        try await frames.receive(until: .after(.seconds(10)))
        clock.advance(by: .seconds(29))
        #expect(asks.poll() == nil)
        // Each silence asks the protocol; the third ends the connection.
        for count in 1...3 {
            clock.advance(by: .seconds(1))
            #expect(try await asks.receive(until: .after(.seconds(10))) == count)
            clock.advance(by: .seconds(29))
        }
        let end = try await ends.receive(until: .after(.seconds(10)))
        #expect(end.contains("said nothing for 30.0 seconds"))
        withExtendedLifetime(far) {}
    }
}
