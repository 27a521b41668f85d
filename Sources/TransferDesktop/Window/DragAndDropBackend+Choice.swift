import TransferDisplay

/// The drag-and-drop backend for `choice`, on a connection of its own: X11 (XDND) or Wayland (`wl_data_device`),
/// chosen by the clipboard's rule (`chooseDisplayBackend`), so `.automatic` tries Wayland first and falls back to
/// X11 (XWayland) where the compositor cannot be used. `.waylandFocusSurface` is Wayland: drag and drop always uses
/// `wl_data_device` on a window of TransferKit's own.
///
/// The backend is also a ``ClipboardBackend``, whose `close()` ends the connection.
///
/// - Throws: ``ClipboardError``: `noDisplay`, `connectionFailed`, `timedOut`, `protocolViolation` as the clipboard's
///   backends throw them; `protocolUnavailable` when the display server lacks what drag and drop needs.
package func makeDragAndDropBackend(
    choice: ClipboardBackendChoice, environment: [String: String], timeout: Duration
) async throws -> any ClipboardBackend & DragAndDropBackend {
    try await chooseDisplayBackend(
        choice: choice, environment: environment,
        x11: { try await X11Backend.connect(environment: environment, timeout: timeout) },
        wayland: { _ in
            // `wl_data_device` and a window's globals; the focus surface has no part in drag and drop.
            try await WaylandBackend.connectForDragAndDrop(environment: environment, timeout: timeout)
        }
    ).backend
}
