/// A point in time by which a wait must end: what every wait of the wire layer takes.
///
/// Measured on a ``WireClock``: the continuous clock by default, so a suspended machine or a changed wall clock
/// does not move it, or a manual clock that a test advances.
package struct Deadline: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The time on ``clock``, or `nil` for a wait without end.
    package let instant: Duration?
    /// The clock the deadline is measured on.
    package let clock: WireClock

    private init(instant: Duration?, clock: WireClock) {
        self.instant = instant
        self.clock = clock
    }

    /// The deadline `duration` from now on `clock`; `nil` waits without end.
    package static func after(_ duration: Duration?, on clock: WireClock = .continuous) -> Deadline {
        Deadline(instant: duration.map { clock.now + $0 }, clock: clock)
    }

    /// The deadline at `instant` of the continuous clock.
    package static func at(_ instant: ContinuousClock.Instant) -> Deadline {
        Deadline(instant: WireClock.continuous.time(of: instant), clock: .continuous)
    }

    /// A deadline that never passes.
    package static let never = Deadline(instant: nil, clock: .continuous)

    /// The time left, never negative; `nil` for ``never``.
    package var remaining: Duration? {
        instant.map { max(.zero, $0 - clock.now) }
    }

    /// Whether the deadline has passed.
    package var hasPassed: Bool {
        instant.map { $0 <= clock.now } ?? false
    }

    /// Earlier deadlines first; ``never`` last. (Deadlines of different clocks do not compare meaningfully.)
    package static func < (lhs: Deadline, rhs: Deadline) -> Bool {
        switch (lhs.instant, rhs.instant) {
        case (let left?, let right?): left < right
        case (.some, nil): true
        default: false
        }
    }

    package static func == (lhs: Deadline, rhs: Deadline) -> Bool {
        lhs.instant == rhs.instant && lhs.clock === rhs.clock
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(instant)
        hasher.combine(ObjectIdentifier(clock))
    }

    /// The time left, for messages.
    package var description: String { remaining.map { "in \($0)" } ?? "never" }
}
