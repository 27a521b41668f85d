import TransferKitPlatform

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The document portal as one process's clipboard, drags and drops use it: one session-bus connection, made on first
/// use and kept for the life of the process, the keys this process made (one per file list, made when a receiver
/// first asks for ``DocumentPortal/keyMIMEType``), and the check of what a receiver's portal answers.
///
/// ## Lifetime of a key
/// A transfer lives as long as the connection that started it: the portal ends it when this process leaves the bus.
/// So a key offered by `transferkit copy` works while its background server owns the clipboard, one offered by a
/// drag while the drag's process runs, and one offered by the clipboard keeper while the keeper runs: the keeper
/// keeps the file list's paths (read through the portal or the list), not the original owner's key, and makes a key
/// of its own when a receiver asks, so a kept file list is still retrievable after its app has exited. Keys are made
/// with `autostop` off (a clipboard may be pasted many times) and read-only: a sandboxed receiver gets a copy it
/// cannot change or delete, so a cut through the portal leaves the source's file in place (the receiver copies).
///
/// ## What a receiver accepts
/// The paths the portal returns are used only when each lies under the portal's mount (`$XDG_RUNTIME_DIR/doc`,
/// which is what a sandboxed receiver gets) or is one of the paths the source's own `text/uri-list` names (what an
/// unsandboxed receiver gets). Anything else — a bus name taken by a process that is not the portal, answering with
/// `/etc/passwd` — is `protocolViolation`, and the reader falls back to the source's list.
package actor DocumentPortalTransfers {
    /// The process's portal, on the session bus of its environment.
    package static var shared: DocumentPortalTransfers { serving(ProcessInfo.processInfo.environment) }

    private static let bySessionBus = SanitizedMutex<[String: DocumentPortalTransfers]>([:])

    /// The portal of the session bus that `environment` names: one per bus (and runtime folder) in the process, so
    /// that every clipboard and drag on that bus shares its connection and keys.
    package static func serving(_ environment: [String: String]) -> DocumentPortalTransfers {
        let address = (try? DBusConnection.sessionBusAddress(environment: environment)) ?? ""
        let name = address + "\n" + (environment["XDG_RUNTIME_DIR"] ?? "")
        return bySessionBus.withLock { portals in
            if let portal = portals[name] { return portal }
            let portal = DocumentPortalTransfers(environment: environment)
            portals[name] = portal
            return portal
        }
    }

    private let environment: [String: String]
    private let timeout: Duration
    private var connecting: Task<Result<DBusConnection, ClipboardError>, Never>?
    private var keys: [[String]: Task<Result<String, ClipboardError>, Never>] = [:]

    /// Whether file lists offer the portal's key: a session bus is named by the environment
    /// (``DBusConnection/sessionBusAddress(environment:)``), worked out once, without connecting. A peer asks for the
    /// key only when its portal runs (GTK 4 and Qt 6 check), so a bus without the portal costs nothing.
    package nonisolated let offersKeys: Bool

    /// A portal on the session bus of `environment`, each call allowed `timeout`.
    package init(environment: [String: String], timeout: Duration = .seconds(10)) {
        self.environment = environment
        self.timeout = timeout
        offersKeys = (try? DBusConnection.sessionBusAddress(environment: environment)) != nil
    }

    /// The folder the portal mounts its documents at: `$XDG_RUNTIME_DIR/doc`, else `/run/user/UID/doc`.
    package nonisolated var mountPoint: String {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return (runtime.hasSuffix("/") ? String(runtime.dropLast()) : runtime) + "/doc"
        }
        return "/run/user/\(Syscall.userID)/doc"
    }

    /// The key of a transfer of `paths`, made on the first request and the same for every later one.
    /// - Throws: ``ClipboardError``, as ``DocumentPortal/startTransfer(paths:writable:autostop:)`` and
    ///   ``DBusConnection/connect(to:timeout:clock:)``, and `protocolUnavailable` when no session bus is named.
    package func key(for paths: [String]) async throws(ClipboardError) -> String {
        await dropEndedConnection()
        if let made = keys[paths], case .success(let key) = await made.value { return key }
        let task = Task { () async -> Result<String, ClipboardError> in
            do throws(ClipboardError) {
                let portal = DocumentPortal(connection: try await self.connection(), timeout: self.timeout)
                return .success(try await portal.startTransfer(paths: paths, writable: false, autostop: false))
            } catch {
                return .failure(error)
            }
        }
        keys[paths] = task
        let result = await task.value
        if case .failure(let error) = result {
            keys[paths] = nil
            if error.code == .connectionFailed { forgetConnection() }
        }
        return try result.get()
    }

    /// The paths a transfer's `key` stands for, checked (see "What a receiver accepts").
    /// - Parameters:
    ///   - key: The key, as the source offered it (trailing NUL and white space are ignored).
    ///   - listed: The paths of the source's own file list, read only when the portal answers with a path outside
    ///     its mount; empty when the source offers no list.
    /// - Throws: ``ClipboardError``: as ``DocumentPortal/retrieveFiles(key:)``; `protocolViolation` for a path
    ///   outside the mount that the source's list does not name, or an empty key.
    package nonisolated func retrieveFiles(
        key: String, listed: () async throws -> [String]
    ) async throws -> [String] {
        let key = Self.trimmedKey(key)
        guard !key.isEmpty else {
            throw DBusWire.violation("the source offered an empty document-portal key")
        }
        let paths: [String]
        do throws(ClipboardError) {
            paths = try await DocumentPortal(connection: try await connection(), timeout: timeout)
                .retrieveFiles(key: key)
        } catch {
            if error.code == .connectionFailed { await forgetConnection() }
            throw error
        }
        let outside = Self.pathsOutside(paths, mountPoint: mountPoint)
        if !outside.isEmpty {
            let named = Set(try await listed())
            if let stray = outside.first(where: { !named.contains($0) }) {
                throw ClipboardError(
                    code: .protocolViolation,
                    message: "The document portal answered with \(stray), which is neither under its mount "
                        + "(\(mountPoint)) nor among the files the source offered; it is not read.",
                    source: stray)
            }
        }
        return paths
    }

    /// A key as offered: GTK writes it with a terminating NUL.
    package static func trimmedKey(_ key: String) -> String {
        key.trimming(ScalarSet("\0").union(.whitespacesAndNewlines))
    }

    /// The paths among `paths` that do not lie under `mountPoint`: not beginning with it and a `/`, or naming a `.`
    /// or `..` component, or an empty one, that could lead out of it.
    package static func pathsOutside(_ paths: [String], mountPoint: String) -> [String] {
        paths.filter { path in
            guard path.hasPrefix(mountPoint + "/") else { return true }
            let components = path.dropFirst(mountPoint.count + 1).split(
                separator: "/", omittingEmptySubsequences: false)
            return components.contains { $0.isEmpty || $0 == "." || $0 == ".." }
        }
    }

    /// The process's bus connection, made on first use (and again after the bus ended it).
    private func connection() async throws(ClipboardError) -> DBusConnection {
        await dropEndedConnection()
        if let connecting, case .success(let connection) = await connecting.value {
            return connection
        }
        let environment = environment
        let timeout = timeout
        let task = Task { () async -> Result<DBusConnection, ClipboardError> in
            do throws(ClipboardError) {
                let address = try DBusConnection.sessionBusAddress(environment: environment)
                return .success(try await DBusConnection.connect(to: address, timeout: timeout))
            } catch {
                return .failure(error)
            }
        }
        connecting = task
        let result = await task.value
        if case .failure = result { connecting = nil }
        return try result.get()
    }

    /// Forgets the connection when it has ended (see ``forgetConnection()``).
    private func dropEndedConnection() async {
        if let connecting, case .success(let connection) = await connecting.value, connection.isEnded {
            forgetConnection()
        }
    }

    /// Forgets a connection the bus ended, and the keys made on it (the portal ended their transfers with it).
    private func forgetConnection() {
        connecting = nil
        keys = [:]
    }
}
