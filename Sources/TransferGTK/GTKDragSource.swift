#if GTK
    public import CGtk4
    import Foundation
    import TransferClipboard
    public import TransferDesktop
    import TransferKitPlatform
    public import TransferSessions

    /// Makes a widget of your own a drag source whose drags *are* `DragSession`s: a `GtkDragSource` controller that
    /// asks you for a session when the user starts dragging, offers its items to wherever they go, and tells you how
    /// the drag ended.
    ///
    /// The drag offers every representation of the items (the MIME types of the clipboard's mapping, in fidelity
    /// order), each written only when the target asks for it, and TransferKit's session offer
    /// (`application/x-transferkit-drag-session`). A ``GTKDropTarget`` or a `DesktopWindow` of this process drops the
    /// session itself (its local objects too); one of another TransferKit process drops through the session
    /// protocol, so a move is exactly once, whichever process dies. Any other program gets the bytes, and a move
    /// removes the items (through the session's `DragSource`) only when GTK reports a move and the target read each
    /// item's data, the rule of `DesktopWindow.drag(_:)`.
    ///
    /// ```swift
    /// GTKDragSource.attach(to: rowWidget) { _, _ in
    ///     try? cards.beginDrag([card.id])
    /// } ended: { session, result in
    ///     print((try? result.get())?.operation ?? .cancel)
    /// }
    /// ```
    ///
    /// Attach it on GTK's main context (inside a GTK callback, or through ``GTKMainContext``); the widget owns the
    /// controller and keeps it, with this object, until the widget is destroyed.
    public final class GTKDragSource: Sendable {
        private let options: GTKDragAndDropOptions
        private let widget: GTKWidget
        private let makeSession: @Sendable (GTKWidget, DesktopDropLocation) -> DragSession?
        private let ended: @Sendable (DragSession, Result<DesktopDragResult, any Error>) -> Void
        /// The drag under way: prepared for GTK, and the cancel reason GTK gave, until `drag-end`.
        private let current = SanitizedMutex<(drag: PreparedDrag, cancel: DesktopDragOutcome?)?>(nil)

        private init(
            widget: GTKWidget, options: GTKDragAndDropOptions,
            makeSession: @escaping @Sendable (GTKWidget, DesktopDropLocation) -> DragSession?,
            ended: @escaping @Sendable (DragSession, Result<DesktopDragResult, any Error>) -> Void
        ) {
            self.widget = widget
            self.options = options
            self.makeSession = makeSession
            self.ended = ended
        }

        /// Attaches a drag source to `widget`.
        ///
        /// - Parameters:
        ///   - widget: The widget the user drags from.
        ///   - options: The deadlines, the catalogue and where sessions are published.
        ///   - session: Called on GTK's main context when the user starts dragging, with the widget and where the press
        ///     was (in the widget's pixels): the session to drag, or `nil` for no drag there (a pinned row, empty
        ///     space). A session that is no longer active starts no drag either.
        ///   - ended: Called once per drag, off the main context, with the session and what the drop did
        ///     (`DesktopDragResult`), or the error that stopped it; the session has ended by then.
        /// - Returns: The drag source; the widget keeps it.
        @discardableResult
        public static func attach(
            to widget: UnsafeMutablePointer<GtkWidget>, options: GTKDragAndDropOptions = GTKDragAndDropOptions(),
            session: @escaping @Sendable (_ widget: GTKWidget, _ location: DesktopDropLocation) -> DragSession?,
            ended: @escaping @Sendable (DragSession, Result<DesktopDragResult, any Error>) -> Void = { _, _ in }
        ) -> GTKDragSource {
            let source = GTKDragSource(widget: GTKWidget(widget), options: options, makeSession: session, ended: ended)
            guard let controller = gtk_drag_source_new() else { return source }
            let object = UnsafeMutableRawPointer(controller)
            let data = GTKSignals.keep(source, on: object, key: stateQuark)
            let prepare:
                @convention(c) (OpaquePointer?, Double, Double, UnsafeMutableRawPointer?) -> UnsafeMutablePointer<
                    GdkContentProvider
                >? = { controller, x, y, data in
                    GTKSignals.state(data, as: GTKDragSource.self)?.prepare(controller, x: x, y: y)
                }
            let cancel:
                @convention(c) (OpaquePointer?, OpaquePointer?, GdkDragCancelReason, UnsafeMutableRawPointer?)
                    -> gboolean = { _, _, reason, data in
                        GTKSignals.state(data, as: GTKDragSource.self)?.cancelled(reason)
                        return 0
                    }
            let end: @convention(c) (OpaquePointer?, OpaquePointer?, gboolean, UnsafeMutableRawPointer?) -> Void = {
                _, drag, deleteData, data in
                GTKSignals.state(data, as: GTKDragSource.self)?.end(drag, deleteData: deleteData != 0)
            }
            GTKSignals.connect(object, "prepare", prepare, data: data)
            GTKSignals.connect(object, "drag-cancel", cancel, data: data)
            GTKSignals.connect(object, "drag-end", end, data: data)
            gtk_widget_add_controller(widget, controller)
            return source
        }

        /// `prepare`: the session's offer as GTK content, or `nil` for no drag.
        private func prepare(
            _ controller: OpaquePointer?, x: Double, y: Double
        ) -> UnsafeMutablePointer<
            GdkContentProvider
        >? {
            // A drag GTK never began (no drag-end came) is over now.
            abandon()
            guard let session = makeSession(widget, DesktopDropLocation(x: Int(x.rounded()), y: Int(y.rounded()))),
                let drag = try? PreparedDrag(
                    session, filePromise: nil, includeX11Names: false, catalog: options.catalog,
                    environment: options.environment, timeout: options.timeout, observer: options.sessionObserver)
            else { return nil }
            let offer = drag.offer
            guard
                let content = TransferContentProvider.make(
                    names: offer.targets, stallTimeout: options.stallTimeout, serve: offer.serve)
            else {
                finish(drag, .success(.cancelled(reason: "GTK made no content for the drag.")))
                return nil
            }
            let actions = GdkDragAction(offer.actions.map { $0 == .move ? GDK_ACTION_MOVE : GDK_ACTION_COPY })
            gtk_drag_source_set_actions(controller, actions)
            current.withLock { $0 = (drag, nil) }
            watch(drag, controller: controller)
            return content
        }

        /// `drag-cancel`: remembers why, for `drag-end`.
        private func cancelled(_ reason: GdkDragCancelReason) {
            let outcome: DesktopDragOutcome =
                switch reason {
                case GDK_DRAG_CANCEL_NO_TARGET: .refused(target: nil)
                case GDK_DRAG_CANCEL_USER_CANCELLED: .cancelled(reason: "The user cancelled the drag.")
                default: .cancelled(reason: "GTK cancelled the drag (the target failed or went away).")
                }
            current.withLock { $0?.cancel = outcome }
        }

        /// `drag-end`: how the drag ended, handed to the prepared drag.
        private func end(_ gdkDrag: OpaquePointer?, deleteData: Bool) {
            guard
                let (drag, cancel) = current.withLock({ current in
                    defer { current = nil }; return current
                })
            else {
                return
            }
            if let cancel {
                finish(drag, .success(cancel))
                return
            }
            let selected = gdkDrag.map { gdk_drag_get_selected_action($0) } ?? GdkDragAction(rawValue: 0)
            let performed: DesktopDragAction = deleteData || selected.contains(GDK_ACTION_MOVE) ? .move : .copy
            finish(drag, .success(.dropped(performed: performed, target: nil)))
        }

        /// Ends GTK's drag when a TransferKit target ended the session and GTK, a moment later, still has not: GTK 4.8's
        /// X11 source now and then misses the `XdndFinished` of a target that finished at once, and would hold its
        /// drag (and the pointer) for ever. The session's end decides the result either way.
        private func watch(_ drag: PreparedDrag, controller: OpaquePointer?) {
            guard let controller else { return }
            let controllerAddress = UInt(bitPattern: Int(bitPattern: UnsafeMutableRawPointer(controller)))
            Task { [weak self] in
                _ = await drag.session.ended()
                try? await WireTimer.sleep(for: .seconds(2))
                guard let source = self else { return }
                GTKMainContext.run {
                    guard source.current.withLock({ $0?.drag === drag }),
                        let controller = OpaquePointer(bitPattern: controllerAddress)
                    else { return }
                    gtk_drag_source_drag_cancel(controller)
                }
            }
        }

        /// Ends a drag that was prepared but never began.
        private func abandon() {
            if let (drag, _) = current.withLock({ current in
                defer { current = nil }; return current
            }) {
                finish(drag, .success(.cancelled(reason: "GTK did not begin the drag.")))
            }
        }

        private func finish(_ drag: PreparedDrag, _ outcome: Result<DesktopDragOutcome, any Error>) {
            let ended = ended
            Task {
                let result: Result<DesktopDragResult, any Error>
                do {
                    result = .success(try await drag.finish(outcome))
                } catch {
                    result = .failure(error)
                }
                ended(drag.session, result)
            }
        }

        static let stateQuark = g_quark_from_string("transferkit-drag-source")
    }
#endif
