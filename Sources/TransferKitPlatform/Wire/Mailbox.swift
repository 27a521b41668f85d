/// A bounded queue from a connection's reader thread to one waiting task: the one mailbox of the wire layer.
///
/// The reader posts; when the queue holds more than its capacity (counted by each element's cost, such as its
/// bytes), ``post(_:cost:until:)`` blocks the reader thread until the consumer takes something or the deadline
/// passes, so a slow consumer slows its peer down instead of growing memory. The consumer waits in
/// ``receive(until:)``, which always ends by its deadline, on cancellation of its task, or on ``close(_:)``.
package final class Mailbox<Element: Sendable, Failure: Error>: Sendable {
    /// How a post ended.
    package enum PostOutcome: Sendable, Equatable {
        /// The element is queued.
        case posted
        /// The queue stayed full until the deadline; nothing was queued.
        case timedOut
        /// The mailbox is closed; nothing was queued.
        case closed
    }

    /// Why ``receive(until:)`` returned no element.
    package enum ReceiveFailure: Error, Sendable {
        /// The deadline passed.
        case timedOut
        /// The waiting task was cancelled.
        case cancelled
        /// The mailbox was closed with this failure and every element before it was taken.
        case closed(Failure)
        /// The mailbox was closed without failure (the end of the stream) and drained.
        case finished
    }

    private struct Waiter {
        let id: UInt64
        let timer: WireTimer.Handle
        let continuation: CheckedContinuation<Result<Element, ReceiveFailure>, Never>
    }

    private struct State {
        /// Taken slots are emptied at once, so a taken element is released even while the queue never drains.
        var queue: [(element: Element?, cost: Int)] = []
        var head = 0
        var queuedCost = 0
        var end: ReceiveFailure?
        var waiter: Waiter?
        var nextWaiterID: UInt64 = 1
    }

    /// The most cost held before a post waits.
    package let capacity: Int
    private let condition = ConditionLock()
    // Guarded by `condition`, which is the lock because a posting thread waits on it.
    nonisolated(unsafe) private var state = State()

    /// A mailbox that holds at most `capacity` cost units before a post waits.
    package init(capacity: Int) {
        self.capacity = capacity
    }

    /// Queues `element`, waiting on this thread while the queue is over capacity, at most until `deadline`.
    ///
    /// Never call it from a task of the concurrency pool with a distant deadline: it blocks its thread.
    @discardableResult
    package func post(_ element: Element, cost: Int = 1, until deadline: Deadline = .never) -> PostOutcome {
        condition.lock()
        var wake: WireTimer.Handle?
        defer { if let wake { WireTimer.shared.cancel(wake) } }
        while state.end == nil && state.queuedCost > 0 && state.queuedCost + cost > capacity {
            guard waitLocked(until: deadline, wake: &wake) else {
                condition.unlock()
                return .timedOut
            }
        }
        guard state.end == nil else {
            condition.unlock()
            return .closed
        }
        let waiter = state.waiter
        if let waiter {
            state.waiter = nil
            condition.unlock()
            WireTimer.shared.cancel(waiter.timer)
            waiter.continuation.resume(returning: .success(element))
            return .posted
        }
        state.queue.append((element, cost))
        state.queuedCost += cost
        // A thread blocked in take(until:) waits on the condition.
        condition.broadcast()
        condition.unlock()
        return .posted
    }

    /// Ends the mailbox: a waiting consumer, and every later ``receive(until:)`` once the queue is drained, gets
    /// `failure` (or ``ReceiveFailure/finished`` for `nil`); later posts are refused. The first close wins.
    package func close(_ failure: Failure?) {
        condition.lock()
        guard state.end == nil else {
            condition.unlock()
            return
        }
        state.end = failure.map { .closed($0) } ?? .finished
        condition.broadcast()
        let waiter = state.queue.count > state.head ? nil : state.waiter
        if waiter != nil { state.waiter = nil }
        let end = state.end
        condition.unlock()
        if let waiter, let end {
            WireTimer.shared.cancel(waiter.timer)
            waiter.continuation.resume(returning: .failure(end))
        }
    }

    /// Drops every queued element and closes the mailbox with `failure` (the consumer gave up).
    package func discard(_ failure: Failure?) {
        condition.lock()
        state.queue = []
        state.head = 0
        state.queuedCost = 0
        condition.unlock()
        close(failure)
    }

    /// The number of elements queued.
    package var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return state.queue.count - state.head
    }

    /// Takes the next element, waiting at most until `deadline`.
    /// - Throws: ``ReceiveFailure``: `timedOut`, `cancelled`, or how the mailbox was closed.
    package func receive(until deadline: Deadline = .never) async throws(ReceiveFailure) -> Element {
        if let element = poll() { return element }
        let id = nextWaiterID()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<Result<Element, ReceiveFailure>, Never>) in
                // Scheduled before the checks, so that a deadline passing in between is seen by the check.
                let timer = WireTimer.shared.schedule(at: deadline) { [self] in wake(id, with: .timedOut) }
                condition.lock()
                let immediate: Result<Element, ReceiveFailure>? =
                    if let element = takeLocked() {
                        .success(element)
                    } else if let end = state.end {
                        .failure(end)
                    } else if Task.isCancelled {
                        .failure(.cancelled)
                    } else if deadline.hasPassed {
                        .failure(.timedOut)
                    } else {
                        nil
                    }
                if immediate == nil { state.waiter = Waiter(id: id, timer: timer, continuation: continuation) }
                condition.unlock()
                if let immediate {
                    WireTimer.shared.cancel(timer)
                    continuation.resume(returning: immediate)
                }
            }
        } onCancel: {
            wake(id, with: .cancelled)
        }
        return try result.get()
    }

    private func nextWaiterID() -> UInt64 {
        condition.lock()
        defer { condition.unlock() }
        state.nextWaiterID += 1
        return state.nextWaiterID
    }

    /// Takes the next element, blocking this thread at most until `deadline`: for a thread of its own (a reader
    /// thread waiting for a task's answer), never a task of the concurrency pool.
    /// - Returns: The element, or `nil` when the deadline passed or the mailbox is closed and drained.
    package func take(until deadline: Deadline = .never) -> Element? {
        condition.lock()
        var wake: WireTimer.Handle?
        defer {
            condition.unlock()
            if let wake { WireTimer.shared.cancel(wake) }
        }
        while true {
            if let element = takeLocked() { return element }
            guard state.end == nil, waitLocked(until: deadline, wake: &wake) else { return nil }
        }
    }

    /// Waits on the condition, which the caller holds, until it is signalled or `deadline` passes on its clock.
    /// - Parameter wake: The timer that signals the condition at the deadline, scheduled by the first wait.
    /// - Returns: `false` when the deadline has passed (without waiting), `true` after a wake-up.
    private func waitLocked(until deadline: Deadline, wake: inout WireTimer.Handle?) -> Bool {
        guard deadline.instant != nil else {
            condition.wait()
            return true
        }
        guard !deadline.hasPassed else { return false }
        if wake == nil {
            // The timer needs the lock to signal, so it cannot slip in between this check and the wait.
            wake = WireTimer.shared.schedule(at: deadline) { [condition] in
                condition.lock()
                condition.broadcast()
                condition.unlock()
            }
        }
        condition.wait()
        return true
    }

    /// Takes the next element without waiting, or `nil`.
    package func poll() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        return takeLocked()
    }

    private func takeLocked() -> Element? {
        guard state.head < state.queue.count else { return nil }
        let (element, cost) = state.queue[state.head]
        state.queue[state.head].element = nil
        state.head += 1
        state.queuedCost -= cost
        if state.head == state.queue.count {
            state.queue.removeAll(keepingCapacity: true)
            state.head = 0
        } else if state.head >= 1024 && state.head * 2 >= state.queue.count {
            state.queue.removeFirst(state.head)
            state.head = 0
        }
        condition.broadcast()
        return element
    }

    private func wake(_ id: UInt64, with failure: ReceiveFailure) {
        condition.lock()
        guard let waiter = state.waiter, waiter.id == id else {
            condition.unlock()
            return
        }
        state.waiter = nil
        condition.unlock()
        WireTimer.shared.cancel(waiter.timer)
        waiter.continuation.resume(returning: .failure(failure))
    }
}
