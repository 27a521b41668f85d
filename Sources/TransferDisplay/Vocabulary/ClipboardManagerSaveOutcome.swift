/// What came of ``ClipboardWriteHandle/saveToClipboardManager(timeout:)``.
public enum ClipboardManagerSaveOutcome: Sendable, Hashable {
    /// The clipboard manager has read the data and keeps it: the clipboard outlives this process, which may exit.
    case saved
    /// No clipboard manager runs: the clipboard empties when this process stops serving it.
    case noManager
    /// The manager answered that it did not keep the data (it may decline secrets, large data, or be busy).
    case refused
    /// The handle no longer holds the clipboard (another application copied, or it was released): there is
    /// nothing to save.
    case selectionLost
}
