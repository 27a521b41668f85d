import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs blocking work (a `waitpid`, a `poll` without end, a long read) on a thread of its own.
///
/// Never block a thread of Dispatch's global queues for long: on Linux, Swift's concurrency pool *is* those
/// queues, with about one thread per core, so a few blocked jobs stop every task of the process (a test run saw
/// all of its tasks wait 40 seconds behind child processes, and the time limits of unrelated sockets expire).
package enum DedicatedThread {
    /// Runs `body` on a new thread and returns its result.
    package static func run<Value: Sendable, Failure: Error>(
        _ body: @escaping @Sendable () throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<Value, Failure>, Never>) in
            start {
                continuation.resume(returning: Result { () throws(Failure) in try body() })
            }
        }
        return try result.get()
    }

    /// Starts `body` on a new, detached thread and returns at once.
    ///
    /// Should the system refuse a thread, `body` runs on Dispatch's global queue instead (late rather than never).
    package static func start(_ body: @escaping @Sendable () -> Void) {
        let job = Unmanaged.passRetained(Job(body: body)).toOpaque()
        #if canImport(Darwin)
            var thread: pthread_t?
        #else
            var thread = pthread_t()
        #endif
        let status = pthread_create(
            &thread, nil,
            { argument in
                guard let argument else { return nil }
                let job = Unmanaged<Job>.fromOpaque(argument).takeRetainedValue()
                job.body()
                return nil
            }, job)
        if status == 0 {
            #if canImport(Darwin)
                if let thread { pthread_detach(thread) }
            #else
                pthread_detach(thread)
            #endif
        } else {
            let job = Unmanaged<Job>.fromOpaque(job).takeRetainedValue()
            DispatchQueue.global().async { job.body() }
        }
    }

    private final class Job: Sendable {
        let body: @Sendable () -> Void

        init(body: @escaping @Sendable () -> Void) {
            self.body = body
        }
    }
}
