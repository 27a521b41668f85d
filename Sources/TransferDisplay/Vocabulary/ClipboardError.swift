@_exported public import TransferKitErrors

/// An error of the Linux clipboard: a `DomainError` in ``ClipboardErrorDomain``.
public typealias ClipboardError = DomainError<ClipboardErrorDomain>

/// The domain of ``ClipboardError``.
public enum ClipboardErrorDomain: ErrorDomain {}

extension ErrorCode where Domain == ClipboardErrorDomain {
    /// Neither `WAYLAND_DISPLAY` nor `DISPLAY` names a display server this process can reach.
    public static var noDisplay: Self { Self("noDisplay") }
    /// The display server does not offer the protocol the clipboard needs (a Wayland compositor without
    /// `ext-data-control-v1` or `zwlr_data_control_manager_v1`, an X server without XFIXES for watching).
    public static var protocolUnavailable: Self { Self("protocolUnavailable") }
    /// The connection to the display server could not be made or was refused (authentication included).
    public static var connectionFailed: Self { Self("connectionFailed") }
    /// The peer sent a message that breaks the wire protocol: malformed, truncated or over a limit.
    public static var protocolViolation: Self { Self("protocolViolation") }
    /// The peer did not answer or read within the time limit.
    public static var timedOut: Self { Self("timedOut") }
    /// The selection does not offer the requested type, or nobody owns it.
    public static var typeUnavailable: Self { Self("typeUnavailable") }
    /// The owner refused or failed the transfer.
    public static var transferFailed: Self { Self("transferFailed") }
    /// The owner went away before the transfer ended: on X11 its window was destroyed or its client closed (seen
    /// through XFIXES) while its answer or the next chunk of an `INCR` transfer was awaited, so the bytes read so far
    /// are not the whole value. On Wayland a source that dies closes its pipe, which reads as the end of the data:
    /// there the protocol does not tell a death from the end, and this code is not reported.
    public static var ownerGone: Self { Self("ownerGone") }
    /// Another client already is the desktop's clipboard manager (it owns X11's `CLIPBOARD_MANAGER`).
    public static var clipboardManagerRunning: Self { Self("clipboardManagerRunning") }
    /// The clipboard keeper's spool folder (or its history folder) cannot be created, is not a folder, or cannot be
    /// written.
    public static var spoolUnavailable: Self { Self("spoolUnavailable") }
    /// The options of a write cannot be honoured: a paste limit below 1.
    public static var invalidOptions: Self { Self("invalidOptions") }
    /// A transfer carried more than its limit allows (a drop over `DesktopWindow.Options.maximumDropSize`); what it
    /// wrote was removed.
    public static var limitExceeded: Self { Self("limitExceeded") }
    /// A representation offered under the plain-text names because its type is text (`application/json` as
    /// `UTF8_STRING`) turned out not to be UTF-8 when it was pasted: that paste is refused (see "Text of other
    /// types" in ``ClipboardTypeMapping``). Its own type still pastes its bytes as they are.
    public static var notText: Self { Self("notText") }
    /// The process has no terminal to carry OSC 52 (`/dev/tty` cannot be opened: no controlling terminal), or
    /// what it has is no terminal.
    public static var noTerminal: Self { Self("noTerminal") }
    // A cancelled transfer has the code every domain shares, `cancelled`.
}
