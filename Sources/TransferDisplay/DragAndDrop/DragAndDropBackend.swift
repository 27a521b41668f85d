package import TransferKit

#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// An action a desktop drag offers and a drop performs, as XDND (`XdndActionCopy`, …) and `wl_data_device_manager`
/// (`dnd_action`) name them.
package enum DesktopDragAction: String, Sendable, Hashable, CaseIterable {
    /// The target gets a copy; the source keeps its item.
    case copy
    /// The target takes the item; the source deletes it, but only after a finished drop that performed `move`.
    case move
    /// The target makes a link (a reference) to the item.
    case link
    /// The target asks the user which action to perform (XDND's `XdndActionAsk`, Wayland's `ask`).
    case ask
}

/// A point in a window's own coordinates, in pixels from its top-left corner.
package struct DesktopPoint: Sendable, Hashable {
    /// Pixels from the left edge.
    package var x: Int32
    /// Pixels from the top edge.
    package var y: Int32

    /// The point at `x`, `y`.
    package init(x: Int32, y: Int32) {
        self.x = x
        self.y = y
    }
}

/// A file a drag promises besides its targets, as the display protocols carry it (X11: XDS, `XdndDirectSave0`): the
/// package's side of TransferDesktop's public `DesktopFilePromise`, which makes one.
package struct PromisedFile: Sendable {
    /// The file name the source suggests (a plain name, no folder).
    package var suggestedName: String
    /// Writes the file at the URL, which does not exist yet (see `DesktopFilePromise.write` for the rules).
    package var write: @Sendable (_ url: URL, _ progress: TransferProgress) async throws -> Void

    /// A promise of a file named `suggestedName`, written by `write`.
    package init(
        suggestedName: String,
        write: @escaping @Sendable (_ url: URL, _ progress: TransferProgress) async throws -> Void
    ) {
        self.suggestedName = suggestedName
        self.write = write
    }
}

/// What a drag offers: the same wire targets, in the same order, that a clipboard write of the same providers
/// offers (`ClipboardTypeMapping`), the actions it allows, and how to serve one target.
package struct DesktopDragOffer: Sendable {
    /// The offered wire targets (MIME types, X11 text targets, TransferKit's own identifiers), preferred first.
    package var targets: [String]
    /// The actions the source allows, preferred first (the first is the one proposed while no modifier is held).
    package var actions: [DesktopDragAction]
    /// Serves one target when the target window asks for it, on a task of its own (as ``ClipboardBackend/own(_:targets:serve:)``'s
    /// `serve`): lazily, each time it is asked.
    package var serve: @Sendable (String) async throws -> TransferByteStream
    /// A file the drag promises besides its targets (X11: XDS, `XdndDirectSave0`), or `nil`.
    package var filePromise: PromisedFile?

    /// An offer of `targets` with `actions`, served by `serve`, and promising `filePromise`.
    package init(
        targets: [String], actions: [DesktopDragAction], filePromise: PromisedFile? = nil,
        serve: @escaping @Sendable (String) async throws -> TransferByteStream
    ) {
        self.targets = targets
        self.actions = actions
        self.filePromise = filePromise
        self.serve = serve
    }
}

/// How a desktop drag ended, as its source sees it.
package enum DesktopDragOutcome: Sendable, Hashable {
    /// The target window took the drop and said it finished: `performed` is the action it performed (XDND v5's
    /// `XdndFinished` action, Wayland's last `action` event before `dnd_finished`). A source deletes a moved item
    /// only on `.dropped(performed: .move, …)`.
    case dropped(performed: DesktopDragAction, target: String?)
    /// The drop was released on a window that refused it, or on no drop target at all.
    case refused(target: String?)
    /// The drag was cancelled: the user pressed Escape, the pointer grab was lost, the target failed (XDND v5
    /// `XdndFinished` without success), or the target went away before finishing.
    case cancelled(reason: String)
}

/// A drop that arrived on a window of TransferKit's own, from any program: what it offers and how to take it.
///
/// The target must call ``finish(performed:)`` exactly once, after it took the data (or decided not to); until then
/// the source waits (with its own deadline). Dropping the handle without finishing finishes with `nil`.
package protocol DesktopDropHandle: Sendable {
    /// The offered wire targets, in the source's order.
    var targets: [String] { get }
    /// The actions the source allows.
    var sourceActions: [DesktopDragAction] { get }
    /// The action the target accepted for this drop (what `decide` returned last).
    var action: DesktopDragAction { get }
    /// Where on the window the drop landed.
    var location: DesktopPoint { get }
    /// The source's identity where the protocol names one (X11: its window, `0x…`; Wayland: nil).
    var source: String? { get }

    /// The bytes of one offered target, streamed from the source as they arrive (INCR on X11, a pipe on Wayland).
    ///
    /// - Throws: ``ClipboardError``: `typeUnavailable` for a target not offered, `ownerGone` when the source died,
    ///   `timedOut` when it stayed silent past the backend's timeout.
    func receive(_ target: String) async throws -> TransferByteStream

    /// Tells the source the drop is over: `performed` is the action done (`nil`: the drop failed or was declined,
    /// XDND v5 `XdndFinished` without success; Wayland: the offer is destroyed without `finish`).
    func finish(performed: DesktopDragAction?) async

    /// The file name the source suggests for the file it promises, or `nil` when the drop promises none (X11 reads
    /// it from the source's window, hence `async`).
    var promisedFileName: String? { get async }

    /// Asks the source to write the file it promises into `directory` (which must exist), under its suggested name,
    /// and returns where it is. Call it before ``finish(performed:)``. When the source cannot save it (XDS `F`), the
    /// target streams another offered type into the file itself, at most `limit` bytes.
    ///
    /// - Throws: ``ClipboardError``: `typeUnavailable` when the drop promises no file, `invalidOptions` when the
    ///   suggested name is not a plain file name, `transferFailed` when the source reported that it could not write
    ///   it, `limitExceeded` when the fallback passed `limit` (the file is removed), `ownerGone`/`timedOut` as
    ///   ``receive(_:)``.
    func receivePromisedFile(into directory: URL, limit: Int64) async throws -> URL
}

extension DesktopDropHandle {
    /// `nil`: a drop of a protocol without file promises promises none.
    package var promisedFileName: String? {
        get async { nil }
    }

    /// Throws `typeUnavailable`: a drop of a protocol without file promises promises none.
    package func receivePromisedFile(into directory: URL, limit: Int64) async throws -> URL {
        throw ClipboardError(
            code: .typeUnavailable,
            message: "The drop from \(source ?? "another program") promises no file; receive one of its types instead.")
    }
}

/// A window that TransferKit opened for drag and drop: a small top-level window showing a few lines of text, drawn
/// without a toolkit (core X11 text, or a plain `wl_shm` buffer on Wayland).
package protocol DesktopWindowHandle: AnyObject, Sendable {
    /// The window's identity for tests and messages: X11 `0x…` window id; Wayland `wl_surface@N`.
    var identifier: String { get }

    /// Replaces the text lines the window shows.
    func show(lines: [String]) async throws

    /// Waits until the user presses the first button on the window and moves the pointer past the drag threshold,
    /// then drags `offer` until the button is released, the user presses Escape, or the target finished.
    ///
    /// - Throws: ``ClipboardError``: `timedOut` when the target accepted the drop but never finished within the
    ///   backend's timeout (the outcome is then unknown), `connectionFailed`/`protocolViolation` when the
    ///   display server went away. Cancelling the calling task cancels the drag (the target gets a leave).
    func drag(_ offer: DesktopDragOffer) async throws -> DesktopDragOutcome

    /// Makes the window a drop target and delivers each drop on it, in order, until the window closes.
    ///
    /// `decide` is called on every enter and position with the offered targets and the source's actions, and
    /// returns the action to accept (`nil` refuses: the source shows a refusal and, if released there, gets
    /// `.refused`).
    func drops(
        decide: @escaping @Sendable (_ targets: [String], _ actions: [DesktopDragAction]) -> DesktopDragAction?
    ) -> AsyncThrowingStream<any DesktopDropHandle, any Error>

    /// Closes the window; a drag from it is cancelled and the stream of drops ends.
    func close()
}

/// The drag-and-drop half of a display-server protocol: opens TransferKit's own windows, on the same connection the
/// clipboard uses.
package protocol DragAndDropBackend: Sendable {
    /// The protocol in use, for messages: `X11 (XDND 5)`, `Wayland (wl_data_device)`.
    var dragAndDropProtocolName: String { get }

    /// Opens a top-level window titled `title` that shows `lines`.
    ///
    /// - Throws: ``ClipboardError``: `protocolUnavailable` when the display server lacks what a window needs
    ///   (Wayland: `wl_compositor`, `wl_shm`, `xdg_wm_base`, `wl_seat`, `wl_data_device_manager`), `timedOut`.
    func openWindow(title: String, lines: [String]) async throws -> any DesktopWindowHandle
}
