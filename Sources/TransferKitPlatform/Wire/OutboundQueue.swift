/// One connection's outbound queue and the one thread that writes it: senders queue a message and return, the
/// writer thread sends the messages in the order they were queued — the wire layer's one writer.
///
/// Messages queued while the writer was busy go out together in one send, which takes queued messages while it holds
/// fewer than ``batchBytes`` (a message that carries descriptors starts a send of its own, as they travel with its
/// first byte), as Xlib and xcb flush their output buffer: a burst of requests reaches the peer as one write, not
/// one per wake-up of the thread.
///
/// ```swift
/// let outbox = OutboundQueue(capacity: 4 << 20) { bytes, descriptors throws(SystemError) in
///     try wire.send(bytes, descriptors: descriptors)
/// }
/// outbox.start { error in end(error) }
/// _ = outbox.enqueue(request, until: .after(timeout))
/// outbox.close(flushingUntil: .after(.seconds(2)))  // what was queued is written first
/// ```
///
/// - Memory: the queue holds at most ``capacity`` bytes (one message larger than that is queued alone, when the
///   queue is empty). A sender that finds it full waits, on its own thread, until the writer has made room or its
///   deadline passes (``EnqueueOutcome/full``): a peer that reads slowly slows its senders down, as when each sender
///   wrote itself, instead of growing the queue.
/// - Failure: the first send that throws stops the writer: what is still queued is dropped (the descriptors it
///   carries are closed), every later ``enqueue(_:descriptors:until:)`` gets ``EnqueueOutcome/failed(_:)`` with the
///   error, and `onFailure` is told once, on the writer thread.
/// - Close: ``close(flushingUntil:)`` refuses new messages and waits until the queued ones are written, at most
///   until its deadline. The caller then ends the connection; shutting the socket down breaks a send that the peer
///   left stuck, so the writer thread ends too.
///
/// The thread is started by ``start(onFailure:)`` and ends once the queue is closed (or released) and drained.
package final class OutboundQueue: Sendable {
    /// How an ``enqueue(_:descriptors:until:)`` ended.
    package enum EnqueueOutcome: Sendable, Equatable {
        /// The message is queued; the writer sends it after those queued before it.
        case queued
        /// The queue stayed over its capacity until the deadline: the peer does not read. Nothing was queued.
        case full
        /// The queue was closed; nothing was queued.
        case closed
        /// A send failed with this error and the writer stopped; nothing was queued.
        case failed(SystemError)
    }

    private struct Message: Sendable {
        var bytes: [UInt8]
        var descriptors: [Int32]
    }

    /// The most bytes queued before a sender waits.
    package let capacity: Int
    /// The bytes after which the writer stops adding queued messages to one send: 64 KiB, a socket buffer's worth.
    package static let batchBytes = 64 << 10
    private let messages: Mailbox<Message, Never>
    private let send: @Sendable ([UInt8], [Int32]) throws(SystemError) -> Void
    /// Opened with the error of the send that failed.
    private let failure = Latch<SystemError>()
    private let drained = Latch<Void>()

    /// A queue of at most `capacity` bytes whose messages go through `send` (a ``FramedConnection``'s, which waits
    /// for room at most its own send timeout).
    package init(capacity: Int, send: @escaping @Sendable ([UInt8], [Int32]) throws(SystemError) -> Void) {
        self.capacity = max(1, capacity)
        self.messages = Mailbox(capacity: max(1, capacity))
        self.send = send
    }

    deinit {
        messages.close(nil)
    }

    /// Starts the writer thread.
    /// - Parameter onFailure: Told once, on the writer thread, when a send fails; the writer has stopped then.
    package func start(onFailure: @escaping @Sendable (SystemError) -> Void) {
        let messages = messages
        let send = send
        let failure = failure
        let drained = drained
        DedicatedThread.start {
            // A message with descriptors that ended the previous batch; it starts the next.
            var carried: Message?
            while var batch = carried ?? messages.take(until: .never) {
                carried = nil
                if batch.descriptors.isEmpty {
                    while batch.bytes.count < Self.batchBytes, let next = messages.poll() {
                        guard next.descriptors.isEmpty else {
                            carried = next
                            break
                        }
                        batch.bytes += next.bytes
                    }
                }
                do throws(SystemError) {
                    try send(batch.bytes, batch.descriptors)
                } catch {
                    // Recorded before the queue closes, so a sender refused from now on learns why.
                    failure.open(error)
                    messages.close(nil)
                    for descriptor in batch.descriptors + (carried?.descriptors ?? []) { Syscall.close(descriptor) }
                    while let dropped = messages.poll() {
                        for descriptor in dropped.descriptors { Syscall.close(descriptor) }
                    }
                    onFailure(error)
                    break
                }
                for descriptor in batch.descriptors { Syscall.close(descriptor) }
            }
            drained.open()
        }
    }

    /// Queues `bytes` (with `descriptors`, which the queue owns from now on and closes once sent or dropped) behind
    /// the messages queued before; waits on this thread only while the queue is full, at most until `deadline`.
    /// - Returns: ``EnqueueOutcome/queued``, or why not (then the descriptors are closed).
    package func enqueue(_ bytes: [UInt8], descriptors: [Int32] = [], until deadline: Deadline) -> EnqueueOutcome {
        let outcome: EnqueueOutcome
        if let error = failure.value {
            outcome = .failed(error)
        } else {
            switch messages.post(Message(bytes: bytes, descriptors: descriptors), cost: bytes.count, until: deadline) {
            case .posted: return .queued
            case .timedOut: outcome = .full
            case .closed: outcome = failure.value.map { .failed($0) } ?? .closed
            }
        }
        for descriptor in descriptors { Syscall.close(descriptor) }
        return outcome
    }

    /// Refuses new messages and waits, on this thread, until the writer has sent every queued one (or stopped on a
    /// failure), at most until `deadline`. Never call it with a distant deadline from a task of the concurrency pool.
    /// - Returns: Whether the writer finished by the deadline (`false`: a send is still stuck; end the connection).
    @discardableResult
    package func close(flushingUntil deadline: Deadline) -> Bool {
        messages.close(nil)
        return drained.block(until: deadline) != nil
    }

    /// Whether the writer has stopped: the queue is closed and every message it held was sent or dropped.
    package var hasFinished: Bool { drained.isOpen }
}
