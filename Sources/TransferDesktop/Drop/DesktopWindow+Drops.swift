package import TransferDisplay
public import TransferSessions
package import UniformTypes

extension DesktopWindow {
    /// The proposal a window makes when given none: a copy of whatever is offered.
    public static let copyProposal: @Sendable (DesktopDropContext) -> DropProposal? = { _ in
        DropProposal(operation: .copy)
    }

    /// Makes the window a drop target and delivers every drop on it, in order, until the window closes.
    ///
    /// `proposal` is asked as a drag enters and moves over the window: its operation becomes the display protocol's
    /// accepted action (`nil`, `DropOperation/cancel` or `DropOperation/forbidden` refuse the drop: the source
    /// shows a refusal, and a drop released there never arrives). It is asked once more when the drop comes, and
    /// that answer is the ``DesktopDrop/proposal``. A move proposed to a source that allows none is accepted as a
    /// copy from a TransferKit session (whose own rule decides the move when the drop comes) and refused otherwise.
    /// `proposal` never runs on the display connection's reader thread: on X11 it runs on the window's task, on
    /// Wayland on a thread of the stream's own, once at a time and in the order the drag moved (on Wayland, a slow
    /// one is asked next about the newest position only); a slow one delays only this window's answer to the drag.
    ///
    /// ```swift
    /// for try await drop in window.drops() {
    ///     _ = try await drop.perform { session, _ in
    ///         print(try await session.loadObjects(ofClass: String.self))
    ///     }
    /// }
    /// ```
    ///
    /// - Parameter proposal: What a drop would do, given what the drag offers; a copy of anything by default.
    /// - Returns: The drops; the sequence throws `ClipboardError` when the display server goes away, and ends when
    ///   the window closes or the task iterating it is cancelled.
    public func drops(
        _ proposal: @escaping @Sendable (DesktopDropContext) -> DropProposal? = DesktopWindow.copyProposal
    ) -> AsyncThrowingStream<DesktopDrop, any Error> {
        let catalog = options.catalog
        let timeout = options.timeout
        let observer = options.sessionObserver
        let maximumSize = options.maximumDropSize
        let handles = handle.drops { targets, actions in
            let context = Self.context(targets: targets, actions: actions, catalog: catalog)
            return Self.action(for: proposal(context), in: context, actions: actions)
        }
        return mapStream(handles) { [self] (handle: any DesktopDropHandle) -> DesktopDrop in
            _ = self  // The stream keeps the window open while it is iterated.
            let context = Self.context(targets: handle.targets, actions: handle.sourceActions, catalog: catalog)
            let answer = proposal(context) ?? DropProposal(operation: .cancel)
            return DesktopDrop(
                handle: handle, context: context, proposal: answer, catalog: catalog, timeout: timeout,
                maximumSize: maximumSize, observer: observer)
        }
    }

    /// The context of a drag that offers `targets` with `actions`.
    package static func context(
        targets: [String], actions: [DesktopDragAction], catalog: TypeCatalog
    ) -> DesktopDropContext {
        var operations: [DropOperation] = []
        for action in actions {
            let operation: DropOperation = action == .move ? .move : .copy
            if !operations.contains(operation) { operations.append(operation) }
        }
        return DesktopDropContext(
            offeredTypes: targets.filter { !DesktopSessionOffer.isOfferName($0) }.map {
                ClipboardOfferedType(name: $0, type: ClipboardTypeMapping.type(forOffered: $0, catalog: catalog))
            },
            allowedOperations: operations, isFromTransferKit: targets.contains(where: DesktopSessionOffer.isOfferName))
    }

    /// The display protocol's action for `proposal` of a drag that allows `actions`; `nil` refuses.
    package static func action(
        for proposal: DropProposal?, in context: DesktopDropContext, actions: [DesktopDragAction]
    ) -> DesktopDragAction? {
        switch proposal?.operation {
        case .move?:
            if actions.contains(.move) { return .move }
            return context.isFromTransferKit && actions.contains(.copy) ? .copy : nil
        case .copy?:
            if actions.contains(.copy) { return .copy }
            // A source that offers only a link or ask still gives the bytes; a copy is what this target does.
            return actions.first { $0 != .move }
        case .cancel?, .forbidden?, nil:
            return nil
        }
    }
}
