import TransferDisplay
import TransferKitPlatform

/// What a session offers the clipboard: its variables, whether each display server answers, the Wayland
/// compositor's relevant globals, and which backend ``ClipboardBackendChoice/automatic`` takes and why
/// (`transferkit doctor` prints it).
///
/// Every field is filled by connecting as the clipboard would, so the report and the clipboard agree: the choice is
/// `chooseClipboardBackend(choice:environment:timeout:)`'s own.
package struct ClipboardSessionReport: Sendable, Encodable {
    /// An error a step met: its code and message.
    package struct Problem: Sendable, Encodable, Equatable {
        /// The ``ClipboardError`` code, such as `protocolUnavailable`.
        package var code: String
        /// What went wrong and what to do.
        package var message: String

        init(_ error: any Error) {
            if let error = error as? ClipboardError {
                code = error.code.name
                message = error.message
            } else {
                code = "unknown"
                message = "\(error)"
            }
        }
    }

    /// The Wayland compositor `WAYLAND_DISPLAY` names.
    package struct Wayland: Sendable, Encodable {
        /// Its socket, when the variables name one.
        package var socket: String?
        /// Whether it answered the registry's round trip.
        package var isReachable: Bool
        /// Each of the diagnosed interfaces (data control, `wl_data_device_manager`, `wl_seat`, `xdg_wm_base`,
        /// `wl_shm`) with its version, or nil when the compositor does not announce it.
        package var globals: [(interface: String, version: UInt32?)]
        /// The data-control protocol the clipboard would use (`ext-data-control-v1`, `wlr-data-control`), if any.
        package var dataControl: String?
        /// Whether the compositor has every global the opt-in focus-surface fallback needs.
        package var hasFocusSurfaceGlobals: Bool
        /// Why it cannot be reached, if it cannot.
        package var problem: Problem?

        enum CodingKeys: String, CodingKey {
            case socket, reachable, globals, dataControl, focusSurfaceFallback, error
        }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(socket, forKey: .socket)
            try container.encode(isReachable, forKey: .reachable)
            var versions = container.nestedContainer(keyedBy: AnyKey.self, forKey: .globals)
            for global in globals { try versions.encode(global.version, forKey: AnyKey(global.interface)) }
            try container.encode(dataControl, forKey: .dataControl)
            try container.encode(hasFocusSurfaceGlobals, forKey: .focusSurfaceFallback)
            try container.encode(problem, forKey: .error)
        }
    }

    /// The X server `DISPLAY` names.
    package struct X11: Sendable, Encodable {
        /// `DISPLAY`, if set.
        package var display: String?
        /// Whether the server accepted a connection.
        package var isReachable: Bool
        /// Its vendor string (`The X.Org Foundation` for Xvfb and XWayland alike).
        package var vendor: String?
        /// Whether it has XFIXES (needed to watch the clipboard).
        package var hasXFixes: Bool?
        /// Why it cannot be reached, if it cannot.
        package var problem: Problem?

        enum CodingKeys: String, CodingKey {
            case display, reachable, vendor, xfixes, error
        }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(display, forKey: .display)
            try container.encode(isReachable, forKey: .reachable)
            try container.encode(vendor, forKey: .vendor)
            try container.encode(hasXFixes, forKey: .xfixes)
            try container.encode(problem, forKey: .error)
        }
    }

    /// What ``ClipboardBackendChoice/automatic`` does in this session.
    package struct Choice: Sendable, Encodable {
        /// The protocol it connects with (``Clipboard/protocolName``), or nil when it fails.
        package var backend: String?
        /// Why that one.
        package var reason: String?
        /// The error a ``Clipboard`` gets, when it fails.
        package var problem: Problem?

        enum CodingKeys: String, CodingKey {
            case backend, reason, error
        }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(backend, forKey: .backend)
            try container.encode(reason, forKey: .reason)
            try container.encode(problem, forKey: .error)
        }
    }

    /// The terminal's clipboard (OSC 52, `copy --terminal` and `paste --terminal`).
    package struct Terminal: Sendable, Encodable {
        /// Whether the session is a terminal one: `SSH_TTY` is set, or neither `DISPLAY` nor `WAYLAND_DISPLAY` is.
        package var isTerminalSession: Bool
        /// Whether the process has a controlling terminal (`/dev/tty` opens), which OSC 52 goes through.
        package var hasControllingTerminal: Bool
        /// The multiplexer between the process and the terminal (`none`, `tmux`, `screen`).
        package var multiplexer: TerminalMultiplexer

        /// The terminal side of the session `environment` describes.
        package static func examine(environment: [String: String]) -> Terminal {
            var hasControllingTerminal = false
            if let device = try? TerminalDevice.openControlling() {
                hasControllingTerminal = true
                device.close()
            }
            return Terminal(
                isTerminalSession: isTerminalSession(environment: environment),
                hasControllingTerminal: hasControllingTerminal,
                multiplexer: TerminalMultiplexer.detect(environment: environment))
        }

        /// Whether `environment` is a terminal session's: `SSH_TTY` is set, or neither display variable is.
        package static func isTerminalSession(environment: [String: String]) -> Bool {
            let isSet = { (name: String) in !(environment[name] ?? "").isEmpty }
            return isSet("SSH_TTY") || (!isSet("DISPLAY") && !isSet("WAYLAND_DISPLAY"))
        }

        enum CodingKeys: String, CodingKey {
            case terminalSession, controllingTerminal, multiplexer
        }

        /// Encodes the report's keys: `terminalSession`, `controllingTerminal`, `multiplexer`.
        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(isTerminalSession, forKey: .terminalSession)
            try container.encode(hasControllingTerminal, forKey: .controllingTerminal)
            try container.encode(multiplexer.rawValue, forKey: .multiplexer)
        }
    }

    /// The session bus and the portals on it (issue 40): file lists cross into sandboxed applications through the
    /// document portal.
    package struct DBus: Sendable, Encodable {
        /// The bus's address, when the environment names one.
        package var address: String?
        /// Whether it answered `Hello`.
        package var isReachable: Bool
        /// The document portal (`org.freedesktop.portal.Documents`): `running`, `activatable` (the bus starts it on
        /// first use) or `absent`; `nil` when the bus was not reached.
        package var documentPortal: String?
        /// Why the bus could not be reached.
        package var problem: Problem?

        enum CodingKeys: String, CodingKey {
            case address, reachable, documentPortal, error
        }

        /// Encodes the report's keys: `address`, `reachable`, `documentPortal`, `error`.
        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(address, forKey: .address)
            try container.encode(isReachable, forKey: .reachable)
            try container.encode(documentPortal, forKey: .documentPortal)
            try container.encode(problem, forKey: .error)
        }
    }

    /// The variables the clipboard reads, and those that say what the session is, in this order.
    package static let variableNames = [
        "WAYLAND_DISPLAY", "DISPLAY", "XDG_RUNTIME_DIR", "XAUTHORITY", "XDG_SESSION_TYPE", "XDG_CURRENT_DESKTOP",
        "SSH_TTY", "TMUX", "STY", "DBUS_SESSION_BUS_ADDRESS",
    ]

    /// ``variableNames`` with their values (nil when unset).
    package var variables: [(name: String, value: String?)]
    /// The Wayland side.
    package var wayland: Wayland
    /// The X11 side.
    package var x11: X11
    /// The automatic choice.
    package var automatic: Choice
    /// The terminal's clipboard.
    package var terminal: Terminal
    /// The session bus and its portals.
    package var dbus: DBus

    /// Whether a ``Clipboard`` with the automatic choice works here.
    package var isUsable: Bool { automatic.backend != nil }

    enum CodingKeys: String, CodingKey {
        case variables, wayland, x11, automatic, usable, terminal, dbus
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        var values = container.nestedContainer(keyedBy: AnyKey.self, forKey: .variables)
        for variable in variables { try values.encode(variable.value, forKey: AnyKey(variable.name)) }
        try container.encode(wayland, forKey: .wayland)
        try container.encode(x11, forKey: .x11)
        try container.encode(automatic, forKey: .automatic)
        try container.encode(isUsable, forKey: .usable)
        try container.encode(terminal, forKey: .terminal)
        try container.encode(dbus, forKey: .dbus)
    }

    /// A key spelled at run time (interface and variable names).
    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Examines the session `environment` describes, waiting at most `timeout` for each server.
    package static func examine(environment: [String: String], timeout: Duration) async -> Self {
        let variables = variableNames.map { name in (name, environment[name].flatMap { $0.isEmpty ? nil : $0 }) }
        return Self(
            variables: variables,
            wayland: await examineWayland(environment: environment, timeout: timeout),
            x11: await examineX11(environment: environment, timeout: timeout),
            automatic: await examineChoice(environment: environment, timeout: timeout),
            terminal: Terminal.examine(environment: environment),
            dbus: await examineDBus(environment: environment, timeout: timeout))
    }

    private static func examineDBus(environment: [String: String], timeout: Duration) async -> DBus {
        var report = DBus(address: nil, isReachable: false, documentPortal: nil, problem: nil)
        do {
            let address = try DBusConnection.sessionBusAddress(environment: environment)
            report.address = address
            let connection = try await DBusConnection.connect(to: address, timeout: timeout)
            defer { connection.close() }
            report.isReachable = true
            func ask(_ member: String, _ body: [DBusValue]) async throws(ClipboardError) -> DBusValue? {
                try await connection.call(
                    .call(
                        destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                        interface: "org.freedesktop.DBus", member: member, body: body), timeout: timeout
                ).returned().body.first
            }
            let name = DocumentPortal.busName
            if try await ask("NameHasOwner", [.string(name)]) == .boolean(true) {
                report.documentPortal = "running"
            } else if case .array(_, let names)? = try await ask("ListActivatableNames", []),
                names.contains(.string(name))
            {
                report.documentPortal = "activatable"
            } else {
                report.documentPortal = "absent"
            }
        } catch {
            report.problem = Problem(error)
        }
        return report
    }

    private static func examineWayland(environment: [String: String], timeout: Duration) async -> Wayland {
        var report = Wayland(
            socket: nil, isReachable: false,
            globals: WaylandState.diagnosedInterfaces.map { ($0, nil) }, dataControl: nil,
            hasFocusSurfaceGlobals: false, problem: nil)
        do {
            let socket = try WaylandBackend.socketPath(environment: environment)
            report.socket = socket
            let backend = try await WaylandBackend(socketPath: socket, timeout: timeout, binding: .none)
            let announced = backend.announcedGlobals
            backend.close()
            report.isReachable = true
            report.globals = WaylandState.diagnosedInterfaces.map { ($0, announced[$0]) }
            report.hasFocusSurfaceGlobals = WaylandState.focusSurfaceInterfaces.allSatisfy { announced[$0] != nil }
            report.dataControl =
                WaylandDataControlFlavor.allCases.first { announced[$0.managerInterface] != nil }
                .map { $0 == .ext ? "ext-data-control-v1" : "wlr-data-control" }
        } catch {
            report.problem = Problem(error)
        }
        return report
    }

    private static func examineX11(environment: [String: String], timeout: Duration) async -> X11 {
        var report = X11(display: environment["DISPLAY"], isReachable: false, vendor: nil, hasXFixes: nil, problem: nil)
        do {
            let backend = try await X11Backend.connect(environment: environment, timeout: timeout)
            report.isReachable = true
            report.vendor = backend.connection.info.vendor
            report.hasXFixes = backend.xfixesOpcode != nil
            backend.close()
        } catch {
            report.problem = Problem(error)
        }
        return report
    }

    private static func examineChoice(environment: [String: String], timeout: Duration) async -> Choice {
        do {
            let (backend, reason) = try await chooseClipboardBackend(
                choice: .automatic, environment: environment, timeout: timeout)
            defer { backend.close() }
            return Choice(backend: backend.protocolName, reason: reason, problem: nil)
        } catch {
            return Choice(backend: nil, reason: nil, problem: Problem(error))
        }
    }
}
