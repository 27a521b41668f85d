import Synchronization
import TransferKit

/// A one-shot signal between tasks: `wait()` returns once `fire()` was called, before or after.
struct Signal: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream()
    }

    func fire() {
        continuation.yield()
        continuation.finish()
    }

    /// Waits for the signal; only one task may wait.
    func wait() async {
        for await _ in stream {
            return
        }
    }
}

/// A counter shared between tasks and handlers.
final class Counter: Sendable {
    private let storage = Atomic(0)

    var value: Int {
        storage.load(ordering: .relaxed)
    }

    func increment() {
        storage.add(1, ordering: .relaxed)
    }
}

/// Suspends until the current task is cancelled.
func suspendUntilCancelled() async {
    let (stream, continuation) = AsyncStream<Void>.makeStream()
    for await _ in stream {}
    withExtendedLifetime(continuation) {}
}
