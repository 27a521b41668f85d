/// A point in time by which a wait must end: what every wait of the wire layer takes.
///
/// Measured on the continuous clock, so a suspended machine or a changed wall clock does not move it.
package struct Deadline: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The instant, or `nil` for a wait without end.
    package let instant: ContinuousClock.Instant?

    private init(instant: ContinuousClock.Instant?) {
        self.instant = instant
    }

    /// The deadline `duration` from now; `nil` waits without end.
    package static func after(_ duration: Duration?) -> Deadline {
        Deadline(instant: duration.map { ContinuousClock.now.advanced(by: $0) })
    }

    /// The deadline at `instant` of the continuous clock.
    package static func at(_ instant: ContinuousClock.Instant) -> Deadline {
        Deadline(instant: instant)
    }

    /// A deadline that never passes.
    package static let never = Deadline(instant: nil)

    /// The time left, never negative; `nil` for ``never``.
    package var remaining: Duration? {
        instant.map { max(.zero, ContinuousClock.now.duration(to: $0)) }
    }

    /// Whether the deadline has passed.
    package var hasPassed: Bool {
        instant.map { $0 <= ContinuousClock.now } ?? false
    }

    /// Earlier deadlines first; ``never`` last.
    package static func < (lhs: Deadline, rhs: Deadline) -> Bool {
        switch (lhs.instant, rhs.instant) {
        case (let left?, let right?): left < right
        case (.some, nil): true
        default: false
        }
    }

    /// The time left, for messages.
    package var description: String { remaining.map { "in \($0)" } ?? "never" }
}
