#if GTK
    public import CGtk4
    import Foundation
    import TransferClipboard
    public import TransferDesktop
    import TransferKit
    import TransferKitPlatform
    public import TransferSessions

    /// Makes a widget of your own a drop target that delivers each drop as a `DesktopDrop`: a `GtkDropTargetAsync`
    /// controller that asks your proposal while a drag hovers, and hands you the drop to take with
    /// `DesktopDrop.perform(decisions:commit:)` or `TransferList.drop(_:at:operation:)`.
    ///
    /// A drag from a ``GTKDragSource`` or a `DesktopWindow` of this process is dropped as its `DragSession` itself;
    /// one from another TransferKit process through the session protocol (a move is then exactly once); any other
    /// program's as one item whose representations are its offered MIME types, each read from it only when loaded
    /// (at most ``GTKDragAndDropOptions/maximumDropSize`` bytes in all). GTK's main loop must run meanwhile.
    ///
    /// ```swift
    /// let target = GTKDropTarget.attach(to: listWidget) { context, location in
    ///     context.offers(conformingTo: .text) || context.isFromTransferKit ? DropProposal(operation: .move) : nil
    /// }
    /// Task {
    ///     for await drop in target.drops {
    ///         _ = try? await cards.drop(drop, at: 0, operation: drop.proposal.operation)
    ///     }
    /// }
    /// ```
    ///
    /// Attach it on GTK's main context; the widget owns the controller and keeps it, with this object, until the
    /// widget is destroyed, and the stream of drops ends then.
    public final class GTKDropTarget: Sendable {
        /// The drops on the widget, in order, each with the proposal's answer when it came. A drop nobody takes is
        /// declined when it is released.
        public let drops: AsyncStream<DesktopDrop>
        /// The widget the drops land on, for the tasks that take them (``GTKListRows/dropIndex(at:in:count:)``).
        public let widget: GTKWidget

        private let continuation: AsyncStream<DesktopDrop>.Continuation
        private let options: GTKDragAndDropOptions
        private let proposal: @Sendable (DesktopDropContext, DesktopDropLocation) -> DropProposal?

        private init(
            widget: GTKWidget, options: GTKDragAndDropOptions,
            proposal: @escaping @Sendable (DesktopDropContext, DesktopDropLocation) -> DropProposal?
        ) {
            (drops, continuation) = AsyncStream.makeStream(of: DesktopDrop.self)
            self.widget = widget
            self.options = options
            self.proposal = proposal
        }

        deinit { continuation.finish() }

        /// Attaches a drop target to `widget`.
        ///
        /// - Parameters:
        ///   - widget: The widget drops land on.
        ///   - options: The deadlines, the catalogue and the most bytes one drop may carry.
        ///   - proposal: Called on GTK's main context as a drag enters and moves over the widget, with what it offers
        ///     and where the pointer is (in the widget's pixels): what a drop there would do. `nil`, `cancel` or
        ///     `forbidden` refuse (GTK shows a refusal, and a drop released there never arrives); a `move` is
        ///     accepted as a copy where the source allows no move and is not TransferKit's. Asked once more when the
        ///     drop comes: that answer is the drop's `proposal`.
        /// - Returns: The drop target, whose ``drops`` deliver the drops; the widget keeps it.
        public static func attach(
            to widget: UnsafeMutablePointer<GtkWidget>, options: GTKDragAndDropOptions = GTKDragAndDropOptions(),
            proposal: @escaping @Sendable (DesktopDropContext, DesktopDropLocation) -> DropProposal?
        ) -> GTKDropTarget {
            let target = GTKDropTarget(widget: GTKWidget(widget), options: options, proposal: proposal)
            let all = GdkDragAction([GDK_ACTION_COPY, GDK_ACTION_MOVE, GDK_ACTION_LINK, GDK_ACTION_ASK])
            guard let controller = gtk_drop_target_async_new(nil, all) else { return target }
            let object = UnsafeMutableRawPointer(controller)
            let data = GTKSignals.keep(target, on: object, key: stateQuark)
            let accept: @convention(c) (OpaquePointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> gboolean = {
                _, drop, _ in
                // Any drag may come in: the proposal decides at each position.
                drop == nil ? 0 : 1
            }
            let hover:
                @convention(c) (OpaquePointer?, OpaquePointer?, Double, Double, UnsafeMutableRawPointer?) ->
                    GdkDragAction = { _, drop, x, y, data in
                        guard let drop, let target = GTKSignals.state(data, as: GTKDropTarget.self) else {
                            return GdkDragAction(rawValue: 0)
                        }
                        let start = ContinuousClock.now
                        let action = target.hover(drop, x: x, y: y).action
                        target.options.proposalTimer?(ContinuousClock.now - start)
                        return action
                    }
            let dropped:
                @convention(c) (OpaquePointer?, OpaquePointer?, Double, Double, UnsafeMutableRawPointer?) -> gboolean =
                    { _, drop, x, y, data in
                        guard let drop, let target = GTKSignals.state(data, as: GTKDropTarget.self) else { return 0 }
                        return target.drop(drop, x: x, y: y) ? 1 : 0
                    }
            GTKSignals.connect(object, "accept", accept, data: data)
            GTKSignals.connect(object, "drag-enter", hover, data: data)
            GTKSignals.connect(object, "drag-motion", hover, data: data)
            GTKSignals.connect(object, "drop", dropped, data: data)
            gtk_widget_add_controller(widget, controller)
            return target
        }

        /// What `drop` offers and allows, the proposal at `x`, `y`, and GTK's action for it (none: refused).
        private func hover(
            _ drop: OpaquePointer, x: Double, y: Double
        ) -> (
            context: DesktopDropContext, proposal: DropProposal?, action: GdkDragAction, accepted: DesktopDragAction?
        ) {
            let targets = Self.names(of: drop)
            let actions = Self.actions(gdk_drop_get_actions(drop))
            let context = DesktopWindow.context(targets: targets, actions: actions, catalog: options.catalog)
            let location = DesktopDropLocation(x: Int(x.rounded()), y: Int(y.rounded()))
            let answer = proposal(context, location)
            let accepted = DesktopWindow.action(for: answer, in: context, actions: actions)
            return (context, answer, accepted.map(Self.gdkAction) ?? GdkDragAction(rawValue: 0), accepted)
        }

        /// `drop`: delivers the drop when the proposal takes it; `false` refuses it (GTK finishes it so).
        private func drop(_ drop: OpaquePointer, x: Double, y: Double) -> Bool {
            let (context, answer, _, accepted) = hover(drop, x: x, y: y)
            guard let answer, let accepted else { return false }
            let handle = GTKDropHandle(
                drop: GObjectReference(retaining: UnsafeMutableRawPointer(drop)), targets: Self.names(of: drop),
                sourceActions: Self.actions(gdk_drop_get_actions(drop)),
                action: accepted, location: DesktopPoint(x: Int32(x.rounded()), y: Int32(y.rounded())))
            let delivered = DesktopDrop(
                handle: handle, context: context, proposal: answer, catalog: options.catalog, timeout: options.timeout,
                maximumSize: options.maximumDropSize, observer: options.sessionObserver)
            if case .terminated = continuation.yield(delivered) { return false }
            return true
        }

        /// The MIME types `drop` offers, in the source's order.
        static func names(of drop: OpaquePointer) -> [String] {
            guard let formats = gdk_drop_get_formats(drop) else { return [] }
            var count: gsize = 0
            guard let names = gdk_content_formats_get_mime_types(formats, &count) else { return [] }
            return (0..<Int(count)).compactMap { names[$0].map { String(cString: $0) } }
        }

        /// GTK's action mask as the display protocol's actions, copy first.
        static func actions(_ mask: GdkDragAction) -> [DesktopDragAction] {
            let pairs: [(GdkDragAction, DesktopDragAction)] = [
                (GDK_ACTION_COPY, .copy), (GDK_ACTION_MOVE, .move), (GDK_ACTION_LINK, .link), (GDK_ACTION_ASK, .ask),
            ]
            return pairs.filter { mask.contains($0.0) }.map(\.1)
        }

        /// The display protocol's action as GTK's.
        static func gdkAction(_ action: DesktopDragAction) -> GdkDragAction {
            switch action {
            case .copy: GDK_ACTION_COPY
            case .move: GDK_ACTION_MOVE
            case .link: GDK_ACTION_LINK
            case .ask: GDK_ACTION_ASK
            }
        }

        static let stateQuark = g_quark_from_string("transferkit-drop-target")
    }

    /// A drop on a ``GTKDropTarget``: its `GdkDrop`, read and finished on GTK's main context.
    struct GTKDropHandle: DesktopDropHandle {
        let drop: GObjectReference
        let targets: [String]
        let sourceActions: [DesktopDragAction]
        let action: DesktopDragAction
        let location: DesktopPoint
        var source: String? { nil }

        func receive(_ target: String) async throws -> TransferByteStream {
            guard targets.contains(target) else {
                throw ClipboardError(
                    code: .typeUnavailable, message: "The drop does not offer \(target).", source: target)
            }
            let drop = drop
            return try await GTKInputChunks.open(target) { pending, cancellable in
                gdk_drop_read_async(
                    drop.opaque, pending.mimeTypes, G_PRIORITY_DEFAULT, cancellable,
                    { source, result, data in
                        guard let data else { return }
                        var error: UnsafeMutablePointer<GError>?
                        let stream = gdk_drop_read_finish(source.map { OpaquePointer($0) }, result, nil, &error)
                        Unmanaged<PendingOpen>.fromOpaque(data).takeRetainedValue().finish(stream, error)
                    }, Unmanaged.passRetained(pending).toOpaque())
            }
        }

        func finish(performed: DesktopDragAction?) async {
            let drop = drop
            let action = performed.map(GTKDropTarget.gdkAction) ?? GdkDragAction(rawValue: 0)
            await GTKMainContext.perform {
                if performed == nil {
                    // GTK's X11 source takes a failed finish as done and deletes a moved item when the last status
                    // it heard said move: say no action first.
                    gdk_drop_status(drop.opaque, GdkDragAction(rawValue: 0), GdkDragAction(rawValue: 0))
                }
                gdk_drop_finish(drop.opaque, action)
            }
        }
    }
#endif
