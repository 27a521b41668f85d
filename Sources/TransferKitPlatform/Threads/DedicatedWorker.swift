/// One thread of its own that runs blocking jobs one after another, for as long as a transfer lasts: the writes of
/// one paste, chunk after chunk, take one thread instead of one each (``DedicatedThread/run(_:)`` starts a thread
/// per call).
///
/// ```swift
/// let writer = DedicatedWorker()
/// defer { writer.close() }
/// for chunk in chunks { try await writer.run { try write(chunk) } }
/// ```
///
/// The thread ends when the worker is closed (or released) and its queued jobs have run.
package final class DedicatedWorker: Sendable {
    private let jobs = Mailbox<@Sendable () -> Void, Never>(capacity: Int.max)

    /// Starts the worker's thread.
    package init() {
        let jobs = jobs
        DedicatedThread.start {
            while let job = jobs.take(until: .never) { job() }
        }
    }

    deinit {
        jobs.close(nil)
    }

    /// Runs `body` on the worker's thread, after the jobs handed over before it, and returns its result. The wait is
    /// not cut short by cancellation: what `body` touches (a descriptor, a buffer) stays in use until it returns, so
    /// give it a deadline of its own. A closed worker runs `body` on a new thread instead.
    package func run<Value: Sendable, Failure: Error>(
        _ body: @escaping @Sendable () throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<Value, Failure>, Never>) in
            let job: @Sendable () -> Void = {
                continuation.resume(returning: Result { () throws(Failure) in try body() })
            }
            if jobs.post(job) != .posted { DedicatedThread.start(job) }
        }
        return try result.get()
    }

    /// Lets the thread end once the jobs handed over so far have run.
    package func close() {
        jobs.close(nil)
    }
}
