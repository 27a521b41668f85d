/// One of the desktop's two selections.
///
/// X11 calls them `CLIPBOARD` and `PRIMARY`; Wayland calls them the selection and the primary selection.
public enum ClipboardSelection: String, Sendable, CaseIterable, Hashable {
    /// The clipboard of copy and paste.
    case clipboard
    /// The primary selection: the text last selected, pasted with the middle mouse button.
    case primary
}
