import Synchronization

/// One connection's outbound queue and its writer: messages reach the peer in the order they were queued — the
/// wire layer's one writer.
///
/// A message queued while nothing waits to be sent goes out at once, on the sender's own thread, as far as the socket
/// takes it without waiting (the `sendNow` given at creation, a ``FramedConnection/sendNow(_:descriptors:)``): a
/// request then reaches the peer without a hand-off to another thread, which was a good part of a short X11 or
/// Wayland conversation. What the socket does not take at once, and every message queued behind it, goes to the
/// writer thread, which waits for room. That thread starts the first time it has something to send, so a connection
/// whose peer keeps up never starts it.
///
/// Messages queued while the writer was busy go out together in one send, which takes queued messages while it holds
/// fewer than ``batchBytes`` (a message that carries descriptors starts a send of its own, as they travel with its
/// first byte), as Xlib and xcb flush their output buffer: a burst of requests reaches the peer as one write, not
/// one per wake-up of the thread.
///
/// ```swift
/// let outbox = OutboundQueue(capacity: 4 << 20, connection: wire)
/// outbox.start { error in end(error) }
/// _ = outbox.enqueue(request, until: .after(timeout))
/// outbox.close(flushingUntil: .after(.seconds(2)))  // what was queued is written first
/// ```
///
/// - Memory: the queue holds at most ``capacity`` bytes (one message larger than that is queued alone, when the
///   queue is empty). A sender that finds it full waits, on its own thread, until the writer has made room or its
///   deadline passes (``EnqueueOutcome/full``): a peer that reads slowly slows its senders down, as when each sender
///   wrote itself, instead of growing the queue.
/// - Failure: the first send that throws stops the queue: what is still queued is dropped (the descriptors it
///   carries are closed), every later ``enqueue(_:descriptors:until:)`` gets ``EnqueueOutcome/failed(_:)`` with the
///   error (so does the sender whose own send failed), and `onFailure` is told once, on the writer thread.
/// - Close: ``close(flushingUntil:)`` refuses new messages and waits until the queued ones are written, at most
///   until its deadline. The caller then ends the connection; shutting the socket down breaks a send that the peer
///   left stuck, so the writer thread ends too.
///
/// The writer thread never starts before ``start(onFailure:)``: a message that must wait for it (the socket was
/// full, or something was queued before it) is sent once the queue is started. A message sent at once needs no
/// writer and may go out before.
package final class OutboundQueue: Sendable {
    /// How an ``enqueue(_:descriptors:until:)`` ended.
    package enum EnqueueOutcome: Sendable, Equatable {
        /// The message was sent, or is queued: the writer sends it after those queued before it.
        case queued
        /// The queue stayed over its capacity until the deadline: the peer does not read. Nothing was queued.
        case full
        /// The queue was closed; nothing was queued.
        case closed
        /// A send failed with this error and the queue stopped; nothing was queued.
        case failed(SystemError)
    }

    private struct Message: Sendable {
        var bytes: [UInt8]
        var descriptors: [Int32]

        /// Stands for the rest of a message that a send at once began (`Order.sending`): it wakes the
        /// writer, which sends that rest first.
        static let wakeUp = Message(bytes: [], descriptors: [])

        func closeDescriptors() {
            for descriptor in descriptors { Syscall.close(descriptor) }
        }
    }

    /// Whether the writer thread runs.
    private enum WriterState: Sendable {
        /// ``start(onFailure:)`` has not been called.
        case notStarted
        /// Started, but the thread waits for something to send.
        case ready(@Sendable (SystemError) -> Void)
        /// The thread runs (or has run).
        case running
        /// Closed before the thread was needed: nothing was left to send.
        case finished
    }

    /// The most bytes queued before a sender waits.
    package let capacity: Int
    /// The bytes after which the writer stops adding queued messages to one send: 64 KiB, a socket buffer's worth.
    package static let batchBytes = 64 << 10
    private let messages: Mailbox<Message, Never>
    private let send: @Sendable ([UInt8], [Int32]) throws(SystemError) -> Void
    private let sendNow: (@Sendable ([UInt8], [Int32]) throws(SystemError) -> Int)?
    /// Who may write to the connection, shared with the writer thread (which must not keep the queue alive: its
    /// `deinit` ends the thread).
    private final class Order: Sendable {
        /// Held by whoever writes to the connection: the writer thread for each of its sends, or a sender sending
        /// at once. It guards the rest of a message that a send at once began and the socket did not take whole,
        /// which goes before anything else.
        let sending = SanitizedMutex<Message?>(nil)
        /// The messages posted to `messages` and not yet sent or dropped (a posted ``Message/wakeUp`` counts for
        /// the rest it stands for). A sender sends at once only when it is 0.
        let unsent = Atomic<Int>(0)
    }

    private let order = Order()
    /// Set by ``close(flushingUntil:)`` before anything else: no sender sends at once from then on.
    private let closing = Atomic<Bool>(false)
    private let writer = SanitizedMutex<WriterState>(.notStarted)
    /// Opened with the error of the send that failed.
    private let failure = Latch<SystemError>()
    private let drained = Latch<Void>()

    /// A queue of at most `capacity` bytes whose messages go through `send` (a ``FramedConnection``'s, which waits
    /// for room at most its own send timeout), or, when nothing is queued, through `sendNow`, which sends what
    /// fits at once and returns how many bytes it sent (0: none, and no descriptor).
    package init(
        capacity: Int, send: @escaping @Sendable ([UInt8], [Int32]) throws(SystemError) -> Void,
        sendNow: (@Sendable ([UInt8], [Int32]) throws(SystemError) -> Int)? = nil
    ) {
        self.capacity = max(1, capacity)
        self.messages = Mailbox(capacity: max(1, capacity))
        self.send = send
        self.sendNow = sendNow
    }

    /// A queue of at most `capacity` bytes for `connection`: its ``FramedConnection/send(_:descriptors:)`` for the
    /// writer thread, its ``FramedConnection/sendNow(_:descriptors:)`` for a message that nothing waits before.
    package convenience init<Decoder>(capacity: Int, connection: FramedConnection<Decoder>) {
        self.init(
            capacity: capacity,
            send: { bytes, descriptors throws(SystemError) in try connection.send(bytes, descriptors: descriptors) },
            sendNow: { bytes, descriptors throws(SystemError) in
                try connection.sendNow(bytes, descriptors: descriptors)
            })
    }

    deinit {
        messages.close(nil)
    }

    /// Lets the writer thread run: at once if messages are queued, otherwise when the first one is.
    /// - Parameter onFailure: Told once, on the writer thread, when a send fails; the queue has stopped then.
    package func start(onFailure: @escaping @Sendable (SystemError) -> Void) {
        let launch = writer.withLock { state -> Bool in
            guard case .notStarted = state else { return false }
            guard hasWorkForWriter() else {
                state = .ready(onFailure)
                return false
            }
            state = .running
            return true
        }
        if launch { runWriter(onFailure: onFailure) }
    }

    /// Whether a writer thread has something to do: a rest of a send at once (its wake-up may have found the queue
    /// closed), queued messages, or a failure to tell. Only while no writer thread runs (with `writer` held, so
    /// none starts): then `sending` is held at most by a send at once, which this waits for.
    private func hasWorkForWriter() -> Bool {
        order.sending.withLock { $0 != nil } || order.unsent.load(ordering: .acquiring) > 0 || failure.isOpen
    }

    /// Starts the writer thread if ``start(onFailure:)`` was called and it does not run yet.
    private func startWriterIfReady() {
        let onFailure = writer.withLock { state -> (@Sendable (SystemError) -> Void)? in
            guard case .ready(let onFailure) = state else { return nil }
            state = .running
            return onFailure
        }
        if let onFailure { runWriter(onFailure: onFailure) }
    }

    private func runWriter(onFailure: @escaping @Sendable (SystemError) -> Void) {
        let messages = messages
        let send = send
        let order = order
        let failure = failure
        let drained = drained
        DedicatedThread.start {
            /// Sends the rest of a message sent at once, if there is one (with `sending` held).
            func sendRest(_ front: inout Message?) throws(SystemError) {
                guard let rest = front else { return }
                front = nil
                defer { rest.closeDescriptors() }
                try send(rest.bytes, rest.descriptors)
            }

            /// Stops the queue after `error`: drops what is left, closing its descriptors, and tells `onFailure`.
            func stop(_ error: SystemError, dropping unsentMessages: [Message]) {
                // Recorded before the queue closes, so a sender refused from now on learns why.
                failure.open(error)
                messages.close(nil)
                for message in unsentMessages { message.closeDescriptors() }
                while let dropped = messages.poll() { dropped.closeDescriptors() }
                order.sending.withLock { front in
                    front?.closeDescriptors()
                    front = nil
                }
                onFailure(failure.value ?? error)
            }

            // A message with descriptors that ended the previous batch; it starts the next.
            var carried: Message?
            var stopped = false
            while let taken = carried ?? messages.take(until: .never) {
                carried = nil
                var batch = taken
                var count = 1
                if batch.descriptors.isEmpty {
                    while batch.bytes.count < Self.batchBytes, let next = messages.poll() {
                        guard next.descriptors.isEmpty else {
                            carried = next
                            break
                        }
                        batch.bytes += next.bytes
                        count += 1
                    }
                }
                let sent = order.sending.withLock { front -> Result<Void, SystemError> in
                    // A sender's own send failed: drop the rest.
                    if let error = failure.value { return .failure(error) }
                    do throws(SystemError) {
                        // The rest of a message sent at once goes before what was queued behind it.
                        try sendRest(&front)
                        if !batch.bytes.isEmpty || !batch.descriptors.isEmpty {
                            try send(batch.bytes, batch.descriptors)
                        }
                    } catch {
                        return .failure(error)
                    }
                    order.unsent.subtract(count, ordering: .releasing)
                    return .success(())
                }
                if case .failure(let error) = sent {
                    stop(error, dropping: [batch] + (carried.map { [$0] } ?? []))
                    stopped = true
                    break
                }
                batch.closeDescriptors()
            }
            if !stopped {
                // Closed and drained. A rest that a send at once left as the queue closed is still owed; and a
                // sender whose own send failed (it closed the queue) left the telling to this thread.
                let sent = order.sending.withLock { front -> Result<Void, SystemError> in
                    guard failure.value == nil else { return .success(()) }
                    return Result { () throws(SystemError) in try sendRest(&front) }
                }
                if case .failure(let error) = sent {
                    stop(error, dropping: [])
                } else if let error = failure.value {
                    stop(error, dropping: [])
                }
            }
            drained.open()
        }
    }

    /// Sends `bytes` (with `descriptors`, which the queue owns from now on and closes once sent or dropped) after
    /// the messages queued before: at once, on this thread, when none waits and the socket takes them, otherwise by
    /// queueing them for the writer thread. Waits on this thread only while the queue is full, at most until
    /// `deadline`.
    /// - Returns: ``EnqueueOutcome/queued`` (sent or queued), or why not (then the descriptors are closed).
    package func enqueue(_ bytes: [UInt8], descriptors: [Int32] = [], until deadline: Deadline) -> EnqueueOutcome {
        let message = Message(bytes: bytes, descriptors: descriptors)
        if let error = failure.value {
            message.closeDescriptors()
            return .failed(error)
        }
        if let sendNow, !bytes.isEmpty {
            switch sendAtOnce(message, through: sendNow) {
            case .notTried:
                break
            case .sent:
                message.closeDescriptors()
                return .queued
            case .began(let sentDescriptors):
                if sentDescriptors { message.closeDescriptors() }
                // The writer sends the rest, which the wake-up stands for, before anything queued behind it.
                switch messages.post(.wakeUp, cost: 0, until: deadline) {
                case .posted: startWriterIfReady()
                // The queue holds messages (it is full) or is closing: either way the writer, or
                // close(flushingUntil:), finds the rest.
                case .timedOut, .closed: order.unsent.subtract(1, ordering: .releasing)
                }
                return .queued
            case .failed(let error):
                message.closeDescriptors()
                // The queue was stopped before `sending` was let go; the writer thread drops what is queued and
                // tells onFailure.
                startWriterIfReady()
                return .failed(failure.value ?? error)
            }
        }
        order.unsent.add(1, ordering: .acquiringAndReleasing)
        let outcome: EnqueueOutcome
        switch messages.post(message, cost: bytes.count, until: deadline) {
        case .posted:
            startWriterIfReady()
            return .queued
        case .timedOut: outcome = .full
        case .closed: outcome = failure.value.map { .failed($0) } ?? .closed
        }
        order.unsent.subtract(1, ordering: .releasing)
        message.closeDescriptors()
        return outcome
    }

    private enum AtOnce {
        /// Another send is under way, something is queued or the queue is closing: queue the message.
        case notTried
        /// The whole message went.
        case sent
        /// Part of it went (its descriptors too, when `true`); the rest is the writer's to send first.
        case began(sentDescriptors: Bool)
        case failed(SystemError)
    }

    /// Sends `message` on this thread if no one else is sending and nothing waits to be sent.
    private func sendAtOnce(
        _ message: Message, through sendNow: @Sendable ([UInt8], [Int32]) throws(SystemError) -> Int
    ) -> AtOnce {
        let outcome = order.sending.withLockIfAvailable { front -> AtOnce in
            guard front == nil, order.unsent.load(ordering: .acquiring) == 0, !closing.load(ordering: .acquiring),
                !failure.isOpen
            else {
                return .notTried
            }
            let sent: Int
            do throws(SystemError) {
                sent = try sendNow(message.bytes, message.descriptors)
            } catch {
                // Stopped while `sending` is held, so whoever sends next (the writer with a message queued meanwhile,
                // or its last pass after a close) sees the failure and sends nothing more.
                failure.open(error)
                messages.close(nil)
                return .failed(error)
            }
            if sent >= message.bytes.count { return .sent }
            // Nothing went (the socket is full): an ordinary queued message.
            guard sent > 0 else { return .notTried }
            front = Message(bytes: Array(message.bytes[sent...]), descriptors: [])
            order.unsent.add(1, ordering: .acquiringAndReleasing)
            return .began(sentDescriptors: !message.descriptors.isEmpty)
        }
        return outcome ?? .notTried
    }

    /// Refuses new messages and waits, on this thread, until the writer has sent every queued one (or stopped on a
    /// failure), at most until `deadline`. Never call it with a distant deadline from a task of the concurrency pool.
    /// - Returns: Whether the writer finished by the deadline (`false`: a send is still stuck; end the connection).
    @discardableResult
    package func close(flushingUntil deadline: Deadline) -> Bool {
        closing.store(true, ordering: .releasing)
        messages.close(nil)
        let launch = writer.withLock { state -> (@Sendable (SystemError) -> Void)? in
            // A running writer sends what is owed, then stops; it may be stuck in a send, holding `sending`.
            if case .running = state { return nil }
            if case .finished = state { return nil }
            let idle = !hasWorkForWriter()
            switch state {
            case .ready(let onFailure):
                guard !idle else {
                    state = .finished
                    return nil
                }
                state = .running
                return onFailure
            default:
                // Never started: a queue with something to send waits for start(onFailure:).
                if idle { state = .finished }
                return nil
            }
        }
        if let launch { runWriter(onFailure: launch) }
        if writer.withLock({ if case .finished = $0 { true } else { false } }) { drained.open() }
        return drained.block(until: deadline) != nil
    }

    /// Whether the writer has stopped: the queue is closed and every message it held was sent or dropped.
    package var hasFinished: Bool { drained.isOpen }

    /// Whether nothing is queued or half sent: the next message may go at once (for tests).
    var isIdle: Bool { order.unsent.load(ordering: .acquiring) == 0 }
}
