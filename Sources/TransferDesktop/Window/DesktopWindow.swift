public import TransferDisplay
public import TransferSessions
public import UniformTypes

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A small window of TransferKit's own on the desktop, which the user drags items from and drops items on: drag
/// and drop with other programs (GTK and Qt applications, file managers) and with other TransferKit processes.
///
/// The window shows a few lines of text, drawn without a toolkit (core X11 text, or a plain `wl_shm` buffer on
/// Wayland). A drag from it *is* a `DragSession` (`drag(_:)`), and a drop on it delivers a `DropSession`
/// (`drops(_:)`, then ``DesktopDrop/perform(decisions:commit:)``): the headless session API with a desktop
/// backend, not a second API. Between two TransferKit processes a move is exactly-once through the session
/// protocol; with other programs it follows the display protocol's rule (see <doc:DragAndDropWithOtherApps>).
///
/// ```swift
/// let window = try await DesktopWindow.open(DesktopWindow.Options(title: "Cards", lines: ["Ada", "Grace"]))
/// let session = DragSession(items: [DragItem(card)], source: list)
/// let result = try await window.drag(session)   // waits for the user to drag from the window
/// print(result.operation)                         // move, copy or cancel
/// ```
///
/// A window keeps its own connection to the display server; it closes on `close()` or when the window is gone.
public final class DesktopWindow: Sendable {
    /// What window to open, on which display server.
    public struct Options: Sendable {
        /// The window's title (what window managers and `xdotool search --name` see).
        public var title: String
        /// The lines of text the window shows (one row each, from the top).
        public var lines: [String]
        /// The display-server protocol: `.automatic` picks Wayland, then X11, by `ClipboardBackendChoice`'s rule
        /// (drag and drop always uses `wl_data_device` on Wayland, so `.waylandFocusSurface` is `.wayland`).
        public var backend: ClipboardBackendChoice
        /// The variables to read (`WAYLAND_DISPLAY`, `DISPLAY`, `XAUTHORITY`, `XDG_RUNTIME_DIR`).
        public var environment: [String: String]
        /// The deadline of each wait (30 seconds by default; `transferkit drag` and `drop` give 60): for the display
        /// server's reply; for a drop target that accepted a drag to finish it, counted from the drop or from its
        /// last read of the data; on X11 for the target to take each chunk of an INCR transfer (deleting the
        /// property: changing it does not restart the wait); for a TransferKit peer at each step of the session
        /// protocol.
        public var timeout: Duration
        /// The catalogue for mapping uniform types to the names the display server carries, and back.
        public var catalog: TypeCatalog
        /// The most bytes one drop from another program may carry, all its representations together (and the file
        /// a promise's fallback writes): a load past it fails with `ClipboardError` `limitExceeded`, that drop alone,
        /// so a source that never ends cannot fill the disk. ``defaultMaximumDropSize`` (1 GiB) by default.
        public var maximumDropSize: Int64
        /// Told of each step of a drop between TransferKit processes, for logs and tests (a step waits until it
        /// returns): the source's steps on a drag from this window, the destination's on a drop on it.
        public var sessionObserver: (@Sendable (RemoteSessionEvent) async -> Void)?

        /// The default ``maximumDropSize``: 1 GiB.
        public static let defaultMaximumDropSize: Int64 = 1 << 30

        /// Options for a window titled `title` showing `lines`.
        ///
        /// - Parameters:
        ///   - title: The window's title.
        ///   - lines: The text lines it shows.
        ///   - backend: The display-server protocol.
        ///   - environment: The variables that name the display server.
        ///   - timeout: The longest wait at each step.
        ///   - catalog: The catalogue for type mapping.
        ///   - maximumDropSize: The most bytes one drop may carry.
        ///   - sessionObserver: Told of each step of a drop between TransferKit processes.
        public init(
            title: String, lines: [String] = [], backend: ClipboardBackendChoice = .automatic,
            environment: [String: String] = ProcessInfo.processInfo.environment,
            timeout: Duration = .seconds(30), catalog: TypeCatalog = .shared,
            maximumDropSize: Int64 = Options.defaultMaximumDropSize,
            sessionObserver: (@Sendable (RemoteSessionEvent) async -> Void)? = nil
        ) {
            self.title = title
            self.lines = lines
            self.backend = backend
            self.environment = environment
            self.timeout = timeout
            self.catalog = catalog
            self.maximumDropSize = maximumDropSize
            self.sessionObserver = sessionObserver
        }
    }

    /// The options the window was opened with (their `lines` as at opening).
    public let options: Options
    let backend: any DragAndDropBackend
    let handle: any DesktopWindowHandle
    private let closeConnection: @Sendable () -> Void

    /// A window shown by `handle` on `backend`; `closeConnection` ends the backend's connection.
    package init(
        options: Options, backend: any DragAndDropBackend, handle: any DesktopWindowHandle,
        closeConnection: @escaping @Sendable () -> Void
    ) {
        self.options = options
        self.backend = backend
        self.handle = handle
        self.closeConnection = closeConnection
    }

    deinit {
        handle.close()
        closeConnection()
    }

    /// Connects to the display server that `options` name and opens a window there.
    ///
    /// - Parameter options: The window's title and lines, the display server, the time limit and the catalogue.
    /// - Returns: The window, shown.
    /// - Throws: `ClipboardError`: `noDisplay` when neither `WAYLAND_DISPLAY` nor `DISPLAY` is set,
    ///   `connectionFailed`, `protocolUnavailable` when the display server lacks what a window or drag and drop
    ///   needs, `timedOut`, `protocolViolation`.
    public static func open(_ options: Options) async throws -> DesktopWindow {
        let backend = try await makeDragAndDropBackend(
            choice: options.backend, environment: options.environment, timeout: options.timeout)
        do {
            return try await open(options, on: backend, closeConnection: { backend.close() })
        } catch {
            backend.close()
            throw error
        }
    }

    /// Opens a window on `backend` (tests give a backend of their own).
    package static func open(
        _ options: Options, on backend: any DragAndDropBackend, closeConnection: @escaping @Sendable () -> Void
    ) async throws -> DesktopWindow {
        let handle = try await backend.openWindow(title: options.title, lines: options.lines)
        return DesktopWindow(options: options, backend: backend, handle: handle, closeConnection: closeConnection)
    }

    /// The window's identity, for tests and messages: the X11 window id (`0x…`), or the Wayland surface
    /// (`wl_surface@N`).
    public var identifier: String { handle.identifier }

    /// The drag-and-drop protocol in use: `X11 (XDND 5)` or `Wayland (wl_data_device)`.
    public var protocolName: String { backend.dragAndDropProtocolName }

    /// Replaces the lines the window shows.
    ///
    /// - Parameter lines: The new lines, one row each.
    /// - Throws: `ClipboardError` when the display server went away.
    public func show(lines: [String]) async throws {
        try await handle.show(lines: lines)
    }

    /// Closes the window and its connection: a drag from it is cancelled (the source keeps its items) and the stream
    /// of `drops(_:)` ends.
    public func close() {
        handle.close()
        closeConnection()
    }
}
