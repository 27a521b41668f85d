import TransferDisplay
import TransferKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension ClipboardKeeper {
    /// What the keeper never keeps: decided from the names an owner offers (its hints, ``ClipboardTypeMapping``),
    /// before any of its content is read.
    enum Policy {
        /// Why an owner offering `offered` is not kept, or `nil` when it may be.
        static func refusal(_ offered: [String]) -> SkipReason? {
            let hints = ClipboardTypeMapping.hints(offered: offered)
            if hints.contains(.concealed) { return .concealed }
            if hints.contains(.transient) { return .transient }
            return nil
        }

        /// Why the item read from an owner is not kept (its flags, read from the hints it offers now, and its
        /// expiry), or `nil` when it may be.
        static func refusal(_ item: TransferProvider) -> SkipReason? {
            if item.isConcealed { return .concealed }
            if item.isTransient { return .transient }
            if let expiry = item.expirationDate, expiry <= Date() { return .expired }
            return nil
        }

        /// The moment on the keeper's clock that `date` stands for.
        static func deadline(_ date: Date) -> ContinuousClock.Instant {
            .now + .milliseconds(Int64((date.timeIntervalSinceNow * 1000).rounded(.up)))
        }
    }
}
