package import TransferKitPlatform

/// Runs `body` while advancing `clock` by `step` every millisecond of real time, until `body` ends: for a waiter
/// whose deadline is taken at a moment the test cannot see (a connection's setup, say). Each step passes any
/// deadline taken before it, so `body` ends within a few steps of its wait starting.
/// - Returns: What `body` returned or threw. A `body` that never ends is ended by its suite's time limit: a real-time
///   cap here failed under a whole-suite run, whose task pool can hold `body` for more than 30 s.
package func advancing<Value: Sendable>(
    _ clock: WireClock, by step: Duration, while body: @escaping @Sendable () async throws -> Value
) async -> Result<Value, any Error> {
    let done = Latch<Result<Value, any Error>>()
    Task {
        do {
            done.open(.success(try await body()))
        } catch {
            done.open(.failure(error))
        }
    }
    while true {
        if let result = try? await done.wait(until: .after(.milliseconds(1))) { return result }
        clock.advance(by: step)
    }
}
