/// The drag-and-drop backend for `choice`, on a connection of its own: X11 (XDND) or Wayland (`wl_data_device`),
/// chosen by the clipboard's rule (`chooseDisplayBackend`), so `.automatic` tries Wayland first and falls back to
/// X11 (XWayland) where the compositor cannot be used. `.waylandFocusSurface` is Wayland: drag and drop always uses
/// `wl_data_device` on a window of TransferKit's own.
///
/// The backend is also a ``ClipboardBackend``, whose `close()` ends the connection.
///
/// - Throws: ``ClipboardError``: `noDisplay`, `connectionFailed`, `timedOut`, `protocolViolation` as the clipboard's
///   backends throw them; `protocolUnavailable` when the display server lacks what drag and drop needs, or when this
///   build has no drag and drop for the chosen protocol yet.
package func makeDragAndDropBackend(
    choice: ClipboardBackendChoice, environment: [String: String], timeout: Duration
) async throws -> any ClipboardBackend & DragAndDropBackend {
    try await chooseDisplayBackend(
        choice: choice, environment: environment,
        x11: { try await X11Backend.connect(environment: environment, timeout: timeout) },
        wayland: { _ in
            // `WaylandBackend.Binding.dragAndDrop` binds `wl_data_device` and a window's globals; until the Wayland
            // drag-and-drop part lands, Wayland has no drag and drop here (and `.automatic` falls back to X11).
            let socket = try WaylandBackend.socketPath(environment: environment)
            throw ClipboardError(
                code: .protocolUnavailable,
                message: "Drag and drop on Wayland is not in this build yet; use X11 (XWayland: set DISPLAY).",
                source: socket)
        }
    ).backend
}
