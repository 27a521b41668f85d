/// Which processes may see a representation.
///
/// An extensible set of values: new visibilities do not break `switch` statements of users. An archive writer
/// keeps only representations visible to ``Audience/otherProcesses``.
public struct TransferVisibility: Hashable, Sendable, CustomStringConvertible {
    private enum Wrapped: Int, Hashable, Sendable {
        case all = 0
        case ownProcess = 1
    }

    private let wrapped: Wrapped

    /// Visible to every process, including when archived or sent elsewhere.
    public static var all: Self { Self(wrapped: .all) }
    /// Visible only inside the process that registered it; never archived.
    public static var ownProcess: Self { Self(wrapped: .ownProcess) }

    /// The visibility's name, such as `ownProcess`.
    public var description: String {
        switch wrapped {
        case .all: "all"
        case .ownProcess: "ownProcess"
        }
    }

    /// Who asks to see a representation.
    public struct Audience: Hashable, Sendable, CustomStringConvertible {
        private let isOwnProcess: Bool

        /// Code in the process that registered the representation.
        public static var ownProcess: Self { Self(isOwnProcess: true) }
        /// Another process, or an archive that may be read by one.
        public static var otherProcesses: Self { Self(isOwnProcess: false) }

        /// The audience's name.
        public var description: String { isOwnProcess ? "ownProcess" : "otherProcesses" }

        var includesOtherProcesses: Bool { !isOwnProcess }
    }

    /// Whether a representation with this visibility may be shown to `audience`.
    ///
    /// - Parameter audience: Who asks.
    /// - Returns: `true` for the own process always; for other processes only with ``all``.
    public func isVisible(to audience: Audience) -> Bool {
        !audience.includesOtherProcesses || wrapped == .all
    }

    /// The narrower of two visibilities (``ownProcess`` wins over ``all``).
    ///
    /// - Parameter other: The other visibility.
    /// - Returns: The visibility that shows the representation to fewer processes.
    public func narrowed(by other: TransferVisibility) -> TransferVisibility {
        wrapped.rawValue >= other.wrapped.rawValue ? self : other
    }
}
