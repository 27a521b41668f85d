import Synchronization
import Testing
import TransferKitPlatform
import TransferKitTestSupport

/// `ThreadLocalReference`: one value per thread, released when replaced or when its thread ends.
@Suite("Per-thread references", .timeLimit(.minutes(1)))
struct ThreadLocalReferenceTests {
    /// Counts its own releases.
    final class Counted: Sendable {
        let name: String
        let releases: Counter

        init(_ name: String, releases: Counter) {
            self.name = name
            self.releases = releases
        }

        deinit {
            let count = releases.count.add(1, ordering: .relaxed).newValue
            if count == 3 {
                _ = releases.third.open(())
            }
        }
    }

    final class Counter: Sendable {
        let count = Atomic<Int>(0)
        /// Opened by the third release.
        let third = Latch<Void>()
    }

    /// The name of the value `slot` holds on the calling thread.
    private static func name(in slot: ThreadLocalReference) -> String? {
        slot.current()?._withUnsafeGuaranteedRef { ($0 as? Counted)?.name }
    }

    @Test("each thread sees only its own value")
    func perThread() async throws {
        let slot = try #require(ThreadLocalReference())
        let releases = Counter()
        let seen = try await onThreadOfItsOwn { () -> [String?] in
            let before = Self.name(in: slot)
            slot.set(Counted("first thread", releases: releases))
            return [before, Self.name(in: slot)]
        }
        #expect(seen == [nil, "first thread"])
        let other = try await onThreadOfItsOwn { Self.name(in: slot) }
        #expect(other == nil)
    }

    @Test("a value is released when it is replaced, cleared, or its thread ends")
    func releases() async throws {
        let slot = try #require(ThreadLocalReference())
        let releases = Counter()
        let afterReplacing = try await onThreadOfItsOwn { () -> [Int] in
            slot.set(Counted("one", releases: releases))
            slot.set(Counted("two", releases: releases))
            let replaced = releases.count.load(ordering: .relaxed)
            slot.set(nil)
            return [replaced, releases.count.load(ordering: .relaxed)]
        }
        #expect(afterReplacing == [1, 2])
        _ = try await onThreadOfItsOwn { slot.set(Counted("kept until the thread ends", releases: releases)) }
        // The thread's key destructor runs as it exits, after it has handed back its result.
        #expect(try await releases.third.wait(until: .after(.seconds(20))) != nil)
        #expect(releases.count.load(ordering: .relaxed) == 3)
    }
}
