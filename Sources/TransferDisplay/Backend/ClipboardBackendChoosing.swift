/// The clipboard's backend for `choice`, and why it is that one (for `transferkit doctor`): the one place that knows
/// which backends this build has.
///
/// `.automatic` tries Wayland when `WAYLAND_DISPLAY` is set and falls back to X11 (XWayland) when the compositor
/// cannot be reached or lacks data control and `DISPLAY` is set too; it takes X11 when only `DISPLAY` is set.
///
/// - Throws: ``ClipboardError`` with `noDisplay` when `.automatic` finds neither `WAYLAND_DISPLAY` nor `DISPLAY`;
///   when both were tried and failed, X11's error, with Wayland's in its message.
package func chooseClipboardBackend(
    choice: ClipboardBackendChoice, environment: [String: String], timeout: Duration
) async throws -> (backend: any ClipboardBackend, reason: String) {
    try await chooseDisplayBackend(
        choice: choice, environment: environment,
        x11: { try await X11Backend.connect(environment: environment, timeout: timeout) },
        wayland: { focusSurface in
            try await WaylandBackend.connect(
                environment: environment, timeout: timeout, binding: focusSurface ? .focusSurface : .dataControl)
        })
}

/// The one rule that picks a display server for `choice` (the clipboard's and drag and drop's): `x11` or `wayland`
/// (told whether the focus-surface fallback was asked for) connects, and `.automatic` tries Wayland first and falls
/// back to X11 as ``ClipboardBackendChoice/automatic`` says.
///
/// - Returns: The backend, and why it is that one.
/// - Throws: ``ClipboardError`` with `noDisplay` when `.automatic` finds neither `WAYLAND_DISPLAY` nor `DISPLAY`;
///   when both were tried and failed, X11's error, with Wayland's in its message.
package func chooseDisplayBackend<Backend>(
    choice: ClipboardBackendChoice, environment: [String: String],
    x11: () async throws -> Backend, wayland: (_ focusSurface: Bool) async throws -> Backend
) async throws -> (backend: Backend, reason: String) {
    func isSet(_ name: String) -> Bool { !(environment[name] ?? "").isEmpty }
    switch choice {
    case .x11:
        return (try await x11(), "X11 was asked for")
    case .wayland:
        return (try await wayland(false), "Wayland was asked for")
    case .waylandFocusSurface:
        return (try await wayland(true), "the focus-surface fallback was asked for")
    case .automatic:
        guard isSet("WAYLAND_DISPLAY") || isSet("DISPLAY") else {
            throw ClipboardError(
                code: .noDisplay,
                message: "Neither WAYLAND_DISPLAY nor DISPLAY is set, so there is no clipboard to use; run inside a "
                    + "desktop session, or set one of them (for example DISPLAY=:0).")
        }
        guard isSet("WAYLAND_DISPLAY") else {
            return (try await x11(), "only DISPLAY is set")
        }
        let waylandError: ClipboardError
        do {
            return (try await wayland(false), "WAYLAND_DISPLAY names a compositor with data control")
        } catch let error as ClipboardError
            where isSet("DISPLAY") && [.noDisplay, .connectionFailed, .protocolUnavailable].contains(error.code)
        {
            waylandError = error
        }
        let display = environment["DISPLAY"] ?? ""
        do {
            let backend = try await x11()
            let compositor =
                waylandError.code == .protocolUnavailable
                ? "has no data-control protocol" : "cannot be used (\(waylandError.code))"
            return (backend, "the Wayland compositor \(compositor), and DISPLAY=\(display) answers: X11 (XWayland)")
        } catch let error as ClipboardError {
            // The compositor's X server (XWayland) may start on demand and fail to, or DISPLAY may be left over
            // from another session: the two messages together say which.
            throw ClipboardError(
                code: error.code,
                message: "\(error.message) (Wayland was tried first and failed: \(waylandError.message)) X11 at "
                    + "DISPLAY=\(display) was the fallback: if the compositor starts XWayland on demand, it did not "
                    + "start or answer (see the compositor's log); otherwise DISPLAY is stale.",
                cause: error, source: error.source)
        }
    }
}
