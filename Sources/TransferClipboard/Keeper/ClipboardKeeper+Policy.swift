import Foundation

extension ClipboardKeeper {
    /// What the keeper never keeps, and how long it may keep the rest: decided from the names an owner offers, before
    /// any of its content is read.
    enum Policy {
        /// The names that mark an item as transient: a clipboard manager is not to record it (nspasteboard.org's
        /// `TransientType`, in the uniform-type and the MIME spelling).
        static let transientHints: Set<String> = [
            "org.nspasteboard.TransientType", "application/x-nspasteboard-transient-type",
        ]

        /// Why an owner offering `offered` is not kept, or `nil` when it may be.
        static func refusal(_ offered: [String]) -> SkipReason? {
            if offered.contains(where: ClipboardTypeMapping.concealedHints.contains) { return .concealed }
            if offered.contains(where: transientHints.contains) { return .transient }
            return nil
        }

        /// How long a snapshot of an owner offering `offered` may be kept and offered again, or `nil` for as long as
        /// the keeper runs.
        ///
        /// The one place an expiry hint is read. No name for one is defined yet (the clipboard's write options gain
        /// an expiry in the same release), so today every snapshot is kept until replaced.
        static func lifetime(_ offered: [String]) -> Duration? {
            nil
        }
    }
}
