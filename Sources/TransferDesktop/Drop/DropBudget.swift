import TransferDisplay
import TransferKitPlatform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The bytes one drop may still carry, shared by all its representations' streams
/// (`DesktopWindow.Options.maximumDropSize`).
final class DropBudget: Sendable {
    /// The most bytes the drop may carry.
    let limit: Int64
    private let used = SanitizedMutex<Int64>(0)

    /// A budget of `limit` bytes.
    init(limit: Int64) {
        self.limit = limit
    }

    /// Takes `count` bytes of the budget.
    /// - Throws: `ClipboardError` `limitExceeded` when the drop would pass the limit.
    func take(_ count: Int, for name: String) throws(ClipboardError) {
        let total = used.withLock { used in
            used += Int64(count)
            return used
        }
        guard total <= limit else {
            throw ClipboardError(
                code: .limitExceeded,
                message: "The drop carried more than \(limit) bytes (reading \(name)); it was stopped there. Raise "
                    + "DesktopWindow.Options.maximumDropSize (transferkit drop --max-size) to take larger drops.",
                source: name)
        }
    }

    /// `chunks`, each drawn from the budget before it is handed on.
    func limiting<Base: AsyncSequence & Sendable>(_ chunks: Base, name: String) -> Limited<Base>
    where Base.Element == Data {
        Limited(base: chunks, budget: self, name: name)
    }

    /// Chunks drawn from a budget.
    struct Limited<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == Data {
        typealias Element = Data
        let base: Base
        let budget: DropBudget
        let name: String

        func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator(), budget: budget, name: name) }

        struct Iterator: AsyncIteratorProtocol {
            var base: Base.AsyncIterator
            let budget: DropBudget
            let name: String

            mutating func next() async throws -> Data? {
                guard let chunk = try await base.next() else { return nil }
                try budget.take(chunk.count, for: name)
                return chunk
            }
        }
    }
}
