import Foundation

/// The application and process a drag starts in or a drop happens in: what decides whether a move is allowed.
public struct TransferSessionOrigin: Hashable, Sendable, CustomStringConvertible {
    /// The application's identifier, such as `com.example.notes`; processes of one application share it.
    public var applicationIdentifier: String
    /// The process's identifier.
    public var processIdentifier: Int32

    /// An origin.
    public init(applicationIdentifier: String, processIdentifier: Int32) {
        self.applicationIdentifier = applicationIdentifier
        self.processIdentifier = processIdentifier
    }

    /// This process, named by its executable: set ``applicationIdentifier`` yourself when several executables
    /// make up one application.
    public static var current: TransferSessionOrigin {
        TransferSessionOrigin(
            applicationIdentifier: ProcessInfo.processInfo.processName,
            processIdentifier: ProcessInfo.processInfo.processIdentifier)
    }

    /// Whether `other` is the same application (any of its processes).
    public func isSameApplication(as other: TransferSessionOrigin) -> Bool {
        applicationIdentifier == other.applicationIdentifier
    }

    /// Whether `other` is this very process, where local objects can be handed over without encoding.
    public func isSameProcess(as other: TransferSessionOrigin) -> Bool {
        self == other
    }

    /// `application[pid]`.
    public var description: String { "\(applicationIdentifier)[\(processIdentifier)]" }
}
