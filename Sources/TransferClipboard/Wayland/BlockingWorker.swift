import Dispatch
import Foundation
import TransferKitPlatform

/// A dedicated thread that runs blocking jobs (poll, read, write) one at a time, in order, so that they never
/// block a thread of Swift's concurrency pool.
final class BlockingWorker: Sendable {
    private struct Queue {
        var jobs: [@Sendable () -> Void] = []
        var stopping = false
    }

    private let queue = SanitizedMutex(Queue())
    private let wakeUp = DispatchSemaphore(value: 0)

    /// Starts the thread, named `name` for debuggers; it keeps the worker alive until ``stop(after:)``.
    init(name: String) {
        let thread = Thread { [self] in
            while true {
                wakeUp.wait()
                let job: (@Sendable () -> Void)? = queue.withLock { queue in
                    queue.jobs.isEmpty ? nil : queue.jobs.removeFirst()
                }
                guard let job else { return }  // only a stop wakes the thread with nothing queued
                job()
            }
        }
        thread.name = name
        thread.start()
    }

    /// Queues `job` without waiting for it; jobs run in the order they were queued. Does nothing once stopped.
    func enqueue(_ job: @escaping @Sendable () -> Void) {
        let accepted = queue.withLock { queue in
            guard !queue.stopping else { return false }
            queue.jobs.append(job)
            return true
        }
        if accepted { wakeUp.signal() }
    }

    /// Runs `body` on the thread and returns its result.
    ///
    /// - Throws: What `body` throws; ``ClipboardError`` with `cancelled` if the worker stopped first.
    func run<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, any Error>) in
            let accepted = queue.withLock { queue in
                guard !queue.stopping else { return false }
                queue.jobs.append { continuation.resume(with: Swift.Result { try body() }) }
                return true
            }
            if accepted {
                wakeUp.signal()
            } else {
                continuation.resume(throwing: ClipboardError(code: .cancelled, message: "The transfer was closed."))
            }
        }
    }

    /// Runs `last` after the jobs already queued, then ends the thread; later jobs are refused.
    func stop(after last: @escaping @Sendable () -> Void = {}) {
        let accepted = queue.withLock { queue in
            guard !queue.stopping else { return false }
            queue.jobs.append(last)
            queue.stopping = true
            return true
        }
        if accepted {
            wakeUp.signal()
            wakeUp.signal()  // one for `last`, one to find the queue empty and end
        }
    }
}
