import TransferKitPlatform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The application and process a drag starts in or a drop happens in: what decides whether a move is allowed.
///
/// **Which application a process belongs to** — by default (``defaultApplicationIdentifier``) the executables of
/// one installation are one application, so the processes of an app made of several executables can move items
/// between each other without configuration; set ``applicationIdentifier`` (or the environment variable
/// `TRANSFERKIT_APPLICATION_ID`) to name it yourself.
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

    /// This process, in the application ``defaultApplicationIdentifier`` names.
    public static var current: TransferSessionOrigin {
        TransferSessionOrigin(
            applicationIdentifier: defaultApplicationIdentifier,
            processIdentifier: ProcessInfo.processInfo.processIdentifier)
    }

    /// The application this process belongs to unless it says otherwise, the first of:
    /// 1. the environment variable `TRANSFERKIT_APPLICATION_ID`, when set and not empty;
    /// 2. the sandbox's application identity: Flatpak's `FLATPAK_ID`, Snap's `SNAP_INSTANCE_NAME`;
    /// 3. the folder of the executable, as an absolute path (`/opt/notes`, `/home/me/notes/.build/debug`): the
    ///    executables of one installation, or the products of one Swift package built together, are one
    ///    application — the same rule a ``DragSessionPublication`` applies when a peer claims to be this
    ///    application;
    /// 4. the executable's name, when its folder holds unrelated programs: a folder named `bin` or `sbin`, or one
    ///    listed in `PATH` (`/usr/bin/notes` is `notes`).
    ///
    /// Computed once per process.
    public static var defaultApplicationIdentifier: String { defaultApplication }

    private static let defaultApplication: String = {
        for name in ["TRANSFERKIT_APPLICATION_ID", "FLATPAK_ID", "SNAP_INSTANCE_NAME"] {
            if let value = Syscall.environmentValue(name), !value.isEmpty {
                return value
            }
        }
        let name = ProcessInfo.processInfo.processName
        guard let executable = Syscall.readLink("/proc/self/exe"), let slash = executable.lastIndex(of: "/") else {
            return name
        }
        let folder = slash == executable.startIndex ? "/" : String(executable[..<slash])
        let path = (Syscall.environmentValue("PATH") ?? "").split(separator: ":").map {
            $0.hasSuffix("/") ? $0.dropLast() : $0
        }
        let last = folder.split(separator: "/").last.map(String.init) ?? ""
        if folder == "/" || last == "bin" || last == "sbin" || path.contains(where: { $0 == folder }) {
            return name
        }
        return folder
    }()

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
