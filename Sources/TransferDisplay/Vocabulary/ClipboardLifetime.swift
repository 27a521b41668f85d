/// How long a ``Clipboard/write(_:to:options:)`` serves: until replaced (the default), for a number of pastes,
/// until a deadline, or both limits at once (whichever comes first); and whether its release hands the contents to
/// the clipboard manager (``handsOverOnRelease``), so that they outlive the process.
///
/// A *paste* is one request for a content type of the selection: one `xclip -o`, one `wl-paste`, one type an
/// application asks for when it pastes (an application that asks for HTML and then plain text pastes twice).
/// Requests that only ask about the selection are not pastes: the list of types (`TARGETS` on X11; Wayland sends
/// the list without a request), `TIMESTAMP` and `MULTIPLE` themselves (each type a `MULTIPLE` asks for is one
/// paste), and the hint names (``ClipboardTypeMapping`` lists them), which clipboard managers read to decide
/// whether to record the item. A paste that is refused (the limit was reached) does not count.
///
/// After the last allowed paste was served in full, or when the expiry comes, the selection is given up (cleared
/// if this process still owns it) and ``ClipboardWriteHandle/ended()`` reports why. A paste already under way at
/// expiry is served to its end; later requests are refused.
///
/// A limited write is transient by default (see ``ClipboardWriteOptions/isTransient``): a clipboard manager that
/// recorded it would use up a paste, or keep it past its expiry.
///
/// ```swift
/// let once = ClipboardLifetime.pastes(1)
/// let briefly = ClipboardLifetime.expiring(after: .seconds(30))
/// let both = ClipboardLifetime(pasteLimit: 1, expiry: .seconds(30))
/// ```
public struct ClipboardLifetime: Sendable, Hashable {
    /// How many pastes are served, or `nil` for no limit. A limit below 1 makes
    /// ``Clipboard/write(_:to:options:)`` throw `invalidOptions`.
    public var pasteLimit: Int?
    /// How long after the write the selection is given up, or `nil` for no deadline. A duration of zero or less
    /// gives it up at once.
    public var expiry: Duration?
    /// Whether ``ClipboardWriteHandle/release()`` first hands the contents to the desktop's clipboard manager
    /// (``ClipboardWriteHandle/saveToClipboardManager(timeout:)``), so that they outlive the write: what a process
    /// sets that releases its write as it exits. `false` by default: a released write empties the clipboard.
    ///
    /// Only a write that is neither concealed nor transient is handed over (a limited write is transient unless the
    /// options say otherwise), and only on X11, whose clipboard-manager protocol this is; on Wayland a keeper reads
    /// each selection when it is set, so there is nothing to hand over, and the release only gives the selection
    /// up. A release that cannot hand over (no manager, a refusal, an error) still gives the selection up.
    public var handsOverOnRelease: Bool

    /// A lifetime with the given limits; both `nil` (and no hand-over) is ``untilReplaced``.
    ///
    /// - Parameters:
    ///   - pasteLimit: See ``pasteLimit``.
    ///   - expiry: See ``expiry``.
    ///   - handsOverOnRelease: See ``handsOverOnRelease``.
    public init(pasteLimit: Int? = nil, expiry: Duration? = nil, handsOverOnRelease: Bool = false) {
        self.pasteLimit = pasteLimit
        self.expiry = expiry
        self.handsOverOnRelease = handsOverOnRelease
    }

    /// Serves until replaced, and hands the contents to the clipboard manager when the handle is released: see
    /// ``handsOverOnRelease``.
    public static var handedOverOnRelease: Self { Self(handsOverOnRelease: true) }

    /// Serves every paste until another application takes the selection or the handle is released: the default.
    public static var untilReplaced: Self { Self() }

    /// Serves `count` pastes, then gives the selection up. Paste-once is `.pastes(1)`.
    ///
    /// - Parameter count: The number of pastes, at least 1.
    public static func pastes(_ count: Int) -> Self { Self(pasteLimit: count) }

    /// Serves until `duration` has passed since the write, then gives the selection up if it is still this
    /// process's.
    ///
    /// - Parameter duration: How long the selection is served.
    public static func expiring(after duration: Duration) -> Self { Self(expiry: duration) }

    /// Whether the write has a paste limit or an expiry (and is then transient unless the options say otherwise).
    public var isLimited: Bool { pasteLimit != nil || expiry != nil }
}

/// Why a write's ownership of the selection ended, as ``ClipboardWriteHandle/ended()`` reports it.
public enum ClipboardWriteEnd: Sendable, Hashable {
    /// Another application took the selection, or the connection to the display server ended.
    case replaced
    /// The ``ClipboardLifetime/pasteLimit`` was reached and the last paste served.
    case pastesUsedUp
    /// The ``ClipboardLifetime/expiry`` came.
    case expired
    /// ``ClipboardWriteHandle/release()`` was called.
    case released
}
