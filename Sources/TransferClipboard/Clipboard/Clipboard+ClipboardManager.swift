import TransferDisplay

extension ClipboardWriteHandle {
    /// Hands the clipboard's contents to the desktop's clipboard manager, so they outlive this process, as GTK's
    /// `gtk_clipboard_store` does at exit (the freedesktop clipboard-manager protocol on X11).
    ///
    /// The manager reads the representations it wants while this waits, and this process serves those reads as
    /// it serves any paste; it answers once it has them all. Whether it keeps secrets is the manager's choice:
    /// TransferKit's keeper declines content marked ``ClipboardWriteOptions/isConcealed``.
    ///
    /// ```swift
    /// let handle = try await clipboard.write([provider])
    /// // … at exit:
    /// if try await handle.saveToClipboardManager() != .saved {
    ///     await handle.ownershipLost()  // nobody keeps it: serve until another application copies
    /// }
    /// ```
    ///
    /// - Parameter timeout: The longest wait for the manager's answer, its reads included.
    /// - Returns: Whether the manager kept the data; see ``ClipboardManagerSaveOutcome``.
    /// - Throws: ``ClipboardError``: `protocolUnavailable` on Wayland, whose data-control protocols have no
    ///   clipboard manager (a keeper there reads each selection when it is set), and for the primary selection;
    ///   `timedOut` when the manager does not answer in time; `transferFailed` when it goes away before it
    ///   answers; `connectionFailed` when the connection ends.
    public func saveToClipboardManager(timeout: Duration = .seconds(10)) async throws -> ClipboardManagerSaveOutcome {
        try await connection.backend.saveToClipboardManager(ownership, timeout: timeout)
    }
}

extension Clipboard {
    /// Becomes the desktop's clipboard manager: owns X11's `CLIPBOARD_MANAGER` and answers the `SAVE_TARGETS`
    /// requests of clipboard owners that are about to exit.
    ///
    /// For each request, `save` is called on a task of its own with the names the owner asked to keep (`nil`: all
    /// that the clipboard offers); the owner keeps serving the clipboard until `save` returns, so `save` reads them
    /// from it (``read(from:)``, ``stream(of:from:)``) and returns whether it kept them. Only then does the owner
    /// hear the answer. When the owner's window goes away first, the task running `save` is cancelled and nothing
    /// is answered. Taking over the clipboard afterwards (when the owner is gone) is the caller's business.
    ///
    /// - Returns: The ownership of `CLIPBOARD_MANAGER`: `ended()` returns when another manager takes it over or
    ///   the connection ends; `release()` gives it up.
    /// - Throws: ``ClipboardError``: `clipboardManagerRunning` when another client is the manager;
    ///   `protocolUnavailable` on Wayland, which has no clipboard-manager protocol.
    package func becomeClipboardManager(
        save: @escaping @Sendable (ClipboardSaveRequest) async -> Bool
    ) async throws -> any ClipboardOwnership {
        try await connection.backend.becomeClipboardManager(save: save)
    }
}
