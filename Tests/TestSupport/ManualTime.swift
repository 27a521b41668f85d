package import TransferKitPlatform

/// Runs `body` while advancing `clock` by `step` every millisecond of real time, until `body` ends: for a waiter
/// whose deadline is taken at a moment the test cannot see (a connection's setup, say). Each step passes any
/// deadline taken before it, so `body` ends within a few steps of its wait starting.
/// - Returns: What `body` returned or threw, or a `CancellationError` (and `body`'s task cancelled) when it had not
///   ended after 30 s of real time.
package func advancing<Value: Sendable>(
    _ clock: WireClock, by step: Duration, while body: @escaping @Sendable () async throws -> Value
) async -> Result<Value, any Error> {
    let done = Latch<Result<Value, any Error>>()
    let task = Task {
        do {
            done.open(.success(try await body()))
        } catch {
            done.open(.failure(error))
        }
    }
    let limit = Deadline.after(.seconds(30))
    while !limit.hasPassed {
        if let result = try? await done.wait(until: .after(.milliseconds(1))) { return result }
        clock.advance(by: step)
    }
    task.cancel()
    return .failure(CancellationError())
}
