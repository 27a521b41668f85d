/// Which display-server protocol a ``Clipboard`` speaks.
public enum ClipboardBackendChoice: Sendable, Hashable {
    /// Wayland when `WAYLAND_DISPLAY` is set, falling back to X11 when the compositor cannot be reached or has no
    /// data-control protocol (GNOME's Mutter, for one) and `DISPLAY` is set too (XWayland); X11 when only `DISPLAY`
    /// is set.
    case automatic
    /// X11 through `DISPLAY` (also under XWayland).
    case x11
    /// Wayland through `WAYLAND_DISPLAY` (absolute, or relative to `XDG_RUNTIME_DIR`), with the compositor's
    /// data-control protocol: `ext-data-control-v1`, or `zwlr_data_control_manager_v1` where only that exists. A
    /// compositor with neither fails with `protocolUnavailable`.
    case wayland
    /// Wayland without data control, as wl-clipboard does it on GNOME's Mutter and weston: each read and write
    /// shows a 1×1 window (titled "TransferKit clipboard") for as long as it takes the compositor to give it
    /// keyboard focus, and uses `wl_data_device`, which serves only the focused client.
    ///
    /// Opt in knowingly: a window flashes and the focus is taken from the user's window for that moment (a key
    /// pressed then goes to it), a compositor may refuse focus to a window the user did not click (the operation
    /// then fails with `timedOut`), there is no primary selection, and ``Clipboard/changes(of:)`` fails with
    /// `protocolUnavailable` (only the focused client sees changes). A copy keeps serving after its window is
    /// gone. It needs `wl_compositor`, `wl_shm`, `xdg_wm_base`, `wl_seat` and `wl_data_device_manager`;
    /// `.automatic` never chooses it.
    case waylandFocusSurface
}
