package import TransferKit

/// What the clipboard asks of a display-server protocol: the one seam between the public API and the X11 and
/// Wayland wire code.
///
/// A backend speaks in *wire targets*: the names the protocol carries (MIME types such as `text/plain;charset=utf-8`
/// and `image/png`, X11 target atoms such as `UTF8_STRING`, and TransferKit's own uniform type identifiers). Mapping
/// between them and uniform types is the layer above's job.
package protocol ClipboardBackend: Sendable {
    /// The protocol in use, for messages: `X11`, `Wayland (ext-data-control-v1)`, `Wayland (zwlr-data-control)`.
    var protocolName: String { get }

    /// Takes `selection`, offering `targets` in order of preference.
    ///
    /// Each time a client asks for one of the targets, the backend calls `serve` with its name, on a task of its
    /// own, and writes the stream it returns to that client (INCR on X11, the passed pipe on Wayland). A failing
    /// `serve` or stream ends that one transfer; the ownership stays.
    ///
    /// - Returns: The ownership, once the display server confirmed it.
    /// - Throws: ``ClipboardError`` when the selection could not be taken.
    func own(
        _ selection: ClipboardSelection, targets: [String],
        serve: @escaping @Sendable (String) async throws -> TransferByteStream
    ) async throws -> any ClipboardOwnership

    /// The targets `selection` offers now, in the owner's order (at most ``ClipboardLimits/maximumOfferedTypes``),
    /// and how many more the owner offered (ignored); no targets when nobody owns it.
    func offer(of selection: ClipboardSelection) async throws -> ClipboardBackendOffer

    /// The bytes of `target` on `selection`, streamed from its owner as they arrive.
    ///
    /// Cancelling the task that iterates the stream stops the transfer and tells the owner (the pipe closes, or
    /// the property is no longer read).
    ///
    /// - Throws: ``ClipboardError`` with `typeUnavailable` when `target` is not offered.
    func receive(_ target: String, from selection: ClipboardSelection) async throws -> TransferByteStream

    /// Every change of `selection`'s owner, as it happens: the targets the new owner offers (empty when cleared).
    func changes(of selection: ClipboardSelection) -> AsyncThrowingStream<[String], any Error>

    /// Every change of `selection`'s owner with the new owner's identity where the protocol names one (X11: its
    /// window); a backend without one keeps the default, which gives ``changes(of:)`` with no owner.
    func ownedChanges(of selection: ClipboardSelection) -> AsyncThrowingStream<ClipboardBackendChange, any Error>

    /// Closes the connection; ownerships end and pending transfers fail.
    func close()

    /// Becomes the desktop's clipboard manager: takes `CLIPBOARD_MANAGER` and, each time a clipboard owner asks it
    /// to save the clipboard (`SAVE_TARGETS`, as GTK does at exit), calls `save` and answers the owner with what
    /// it returns.
    ///
    /// `save` runs on a task of its own per request, while the owner waits and serves; it reads the clipboard
    /// (the owner is still there) and returns whether it kept the data. The answer goes only after `save`
    /// returns, since the owner exits on it. When the asking owner's window goes away first, the task running
    /// `save` is cancelled and no answer is sent. Requests from different owners may overlap.
    ///
    /// - Returns: The ownership of `CLIPBOARD_MANAGER`; it ends when another manager takes it or on `release()`.
    /// - Throws: ``ClipboardError``: `clipboardManagerRunning` when another client is the manager,
    ///   `protocolUnavailable` where the protocol has no clipboard manager (Wayland's data control).
    func becomeClipboardManager(
        save: @escaping @Sendable (ClipboardSaveRequest) async -> Bool
    ) async throws -> any ClipboardOwnership

    /// Asks the running clipboard manager to save the clipboard that `ownership` holds, serving its reads until
    /// it answers or `timeout` passes.
    ///
    /// - Throws: ``ClipboardError``: `protocolUnavailable` for the primary selection or where the protocol has
    ///   no clipboard manager (Wayland's data control), `timedOut`, `transferFailed` when the manager went away
    ///   before it answered.
    func saveToClipboardManager(
        _ ownership: any ClipboardOwnership, timeout: Duration
    ) async throws -> ClipboardManagerSaveOutcome
}

/// What a clipboard owner asks its clipboard manager to save.
package struct ClipboardSaveRequest: Sendable, Hashable {
    /// The offered names to save, in the owner's order; `nil` asks for every name the clipboard offers now.
    package var targets: [String]?

    /// A request for `targets` (`nil`: all).
    package init(targets: [String]?) {
        self.targets = targets
    }
}

/// What an owner offers, as a reader takes it: at most ``ClipboardLimits/maximumOfferedTypes`` names.
package struct ClipboardBackendOffer: Sendable, Hashable {
    /// The names taken, in the owner's order.
    package var targets: [String]
    /// How many more names the owner offered, ignored.
    package var omittedCount: Int

    package init(targets: [String], omittedCount: Int = 0) {
        self.targets = targets
        self.omittedCount = omittedCount
    }

    /// The first `limit` of `names` (each once), and how many distinct others there were.
    package init(capping names: some Sequence<String>, limit: Int = ClipboardLimits.maximumOfferedTypes) {
        var seen: Set<String> = []
        var targets: [String] = []
        var omitted = 0
        for name in names where seen.insert(name).inserted {
            if targets.count < limit { targets.append(name) } else { omitted += 1 }
        }
        self.init(targets: targets, omittedCount: omitted)
    }
}

/// One change of a selection's owner, as a backend sees it.
package struct ClipboardBackendChange: Sendable, Hashable {
    /// What the new owner offers (empty when cleared), at most ``ClipboardLimits/maximumOfferedTypes`` names.
    package var targets: [String]
    /// The new owner's identity, where the protocol gives one.
    package var owner: String?
    /// How many more names the new owner offered, ignored.
    package var omittedCount: Int

    package init(targets: [String], owner: String?, omittedCount: Int = 0) {
        self.targets = targets
        self.owner = owner
        self.omittedCount = omittedCount
    }
}

extension ClipboardBackend {
    /// The targets `selection` offers now (``offer(of:)``'s names).
    package func targets(of selection: ClipboardSelection) async throws -> [String] {
        try await offer(of: selection).targets
    }

    package func ownedChanges(
        of selection: ClipboardSelection
    ) -> AsyncThrowingStream<ClipboardBackendChange, any Error> {
        mapStream(changes(of: selection)) { ClipboardBackendChange(targets: $0, owner: nil) }
    }
}

/// `base`'s elements through `transform`, iterated on a task of its own that ends when the result's consumer stops.
package func mapStream<Element: Sendable, Result: Sendable>(
    _ base: AsyncThrowingStream<Element, any Error>, _ transform: @escaping @Sendable (Element) -> Result
) -> AsyncThrowingStream<Result, any Error> {
    AsyncThrowingStream { continuation in
        let task = Task {
            do {
                for try await element in base {
                    continuation.yield(transform(element))
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
    }
}

/// A selection this process owns through a ``ClipboardBackend``.
package protocol ClipboardOwnership: Sendable {
    /// Waits until the ownership ends: another client took the selection, or ``release()`` was called.
    func ended() async

    /// Gives the selection up (the selection is cleared if this process still owns it).
    func release() async
}
