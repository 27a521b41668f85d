/// Wayland's data-control protocols have no clipboard manager to hand a selection to: a keeper there reads every
/// selection as soon as it is set, so there is nothing for an owner to ask and nothing for a manager to answer.
extension WaylandBackend {
    /// Throws: Wayland has no `CLIPBOARD_MANAGER`.
    ///
    /// - Throws: ``ClipboardError`` with `protocolUnavailable`.
    package func becomeClipboardManager(
        save: @escaping @Sendable (ClipboardSaveRequest) async -> Bool
    ) async throws -> any ClipboardOwnership {
        throw ClipboardError(
            code: .protocolUnavailable,
            message: "\(protocolName) has no clipboard-manager protocol; a keeper on Wayland reads each selection "
                + "when it is set instead.")
    }

    /// Throws: Wayland has no clipboard manager to save to.
    ///
    /// - Throws: ``ClipboardError`` with `protocolUnavailable`.
    package func saveToClipboardManager(
        _ ownership: any ClipboardOwnership, timeout: Duration
    ) async throws -> ClipboardManagerSaveOutcome {
        throw ClipboardError(
            code: .protocolUnavailable,
            message: "\(protocolName) has no clipboard-manager protocol to hand the clipboard to; a keeper on "
                + "Wayland (transferkit keep) reads each selection when it is set, so keep serving until you exit.")
    }
}
