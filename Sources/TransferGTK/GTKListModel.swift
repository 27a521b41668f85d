#if GTK
    public import CGtk4
    public import TransferDesktop
    import TransferKitPlatform
    public import TransferSessions

    /// A `TransferList` as a `GListModel` that a `GtkListView` shows: a `GtkStringList` of each element's title (of
    /// all elements, or of a filtered view's), kept equal to the list by applying every change the list reports (drops
    /// on it, moves away, reorders, undos, your edits) as GTK's `items-changed`, so the view updates only the rows that
    /// changed.
    ///
    /// The model follows the list on GTK's main context, a moment after each change; ``element(at:)`` answers for
    /// the rows the view shows now, so map a row to its element through it, not through `TransferList/elements`.
    /// Positions are UIKit's, as the list's: a drop at a row's position puts the first dropped element there.
    ///
    /// ```swift
    /// let rows = GTKListModel(cards) { $0.name }
    /// let selection = gtk_no_selection_new(rows.retainedModel())
    /// let view = gtk_list_view_new(selection, GTKListModel<Card>.labelFactory(rowHeight: 40))
    /// ```
    ///
    /// Make it on GTK's main context.
    public final class GTKListModel<Element>: Sendable
    where Element: Identifiable & Sendable, Element.ID: LosslessStringConvertible & Sendable {
        /// The list shown.
        public let list: TransferList<Element>
        private let strings: GObjectReference
        /// The elements the model shows, as of its last applied change (changed on the main context only).
        private let shown: ShownElements<Element>
        private let follower: Task<Void, Never>

        /// A model of `list`, or of the elements of it that `isShown` (a filtered view, such as seed 002's category
        /// tabs), each row showing `title` of its element.
        ///
        /// - Parameters:
        ///   - list: The list.
        ///   - isShown: Which elements the rows show; all by default. Pass the same closure to the list's
        ///     `drop(_:at:inViewWhere:operation:)`, whose index counts the rows shown.
        ///   - title: The text of an element's row.
        public init(
            _ list: TransferList<Element>, showing isShown: @escaping @Sendable (Element) -> Bool = { _ in true },
            title: @escaping @Sendable (Element) -> String
        ) {
            self.list = list
            let (elements, changes) = list.elementsAndChanges()
            let strings = GObjectReference(adopting: UnsafeMutableRawPointer(gtk_string_list_new(nil)))
            let visible = elements.filter(isShown)
            for element in visible {
                gtk_string_list_append(strings.opaque, title(element))
            }
            let shown = ShownElements(visible)
            self.strings = strings
            self.shown = shown
            follower = Task {
                for await change in changes {
                    let next = change.elements.filter(isShown)
                    await GTKMainContext.perform {
                        let difference = shown.elements.withLock { shown in
                            defer { shown = next }
                            return next.difference(from: shown) { $0.id == $1.id }
                        }
                        Self.apply(difference, to: strings, title: title)
                    }
                }
            }
        }

        deinit { follower.cancel() }

        /// The model (a `GListModel *`, a `GtkStringList`), with a new reference the caller owns: hand it to a
        /// selection model such as `gtk_no_selection_new`, which takes it.
        public func retainedModel() -> OpaquePointer {
            g_object_ref(strings.pointer)
            return strings.opaque
        }

        /// The number of rows the model shows now (on the main context).
        public var count: Int { shown.elements.withLock(\.count) }

        /// The element of the row at `position` as the model shows it now (on the main context); `nil` past the end.
        ///
        /// - Parameter position: A row's position.
        /// - Returns: Its element.
        public func element(at position: Int) -> Element? {
            shown.elements.withLock { $0.indices.contains(position) ? $0[position] : nil }
        }

        /// Applies `difference` to the strings, removals from the end, then insertions from the start.
        private static func apply(
            _ difference: CollectionDifference<Element>, to strings: GObjectReference,
            title: @Sendable (Element) -> String
        ) {
            for removal in difference.removals.reversed() {
                guard case .remove(let offset, _, _) = removal else { continue }
                gtk_string_list_splice(strings.opaque, guint(offset), 1, nil)
            }
            for insertion in difference.insertions {
                guard case .insert(let offset, let element, _) = insertion else { continue }
                let text = title(element)
                text.withCString { pointer in
                    var additions: [UnsafePointer<CChar>?] = [pointer, nil]
                    additions.withUnsafeMutableBufferPointer {
                        gtk_string_list_splice(strings.opaque, guint(offset), 0, $0.baseAddress)
                    }
                }
            }
        }
    }

    /// The elements a ``GTKListModel`` shows.
    final class ShownElements<Element: Sendable>: Sendable {
        let elements: SanitizedMutex<[Element]>
        init(_ elements: [Element]) { self.elements = SanitizedMutex(elements) }
    }

    extension GTKListModel {
        /// A factory for a `GtkListView` of a ``GTKListModel``: each row a label of its element's title, `rowHeight`
        /// pixels high, marked for ``row(at:in:)``. Returns a new reference the caller owns (a list view takes it).
        ///
        /// - Parameter rowHeight: Each row's height in pixels.
        /// - Returns: The `GtkListItemFactory *`.
        public static func labelFactory(rowHeight: Int32 = 40) -> OpaquePointer? {
            guard let factory = gtk_signal_list_item_factory_new() else { return nil }
            let setup: @convention(c) (OpaquePointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> Void = {
                _, item, data in
                guard let item, let label = gtk_label_new(nil) else { return }
                gtk_widget_set_size_request(label, -1, Int32(Int(bitPattern: data)))
                gtk_label_set_xalign(OpaquePointer(label), 0)
                gtk_widget_set_margin_start(label, 8)
                GTKListRows.mark(label, listItem: item)
                gtk_list_item_set_child(item, label)
            }
            let bind: @convention(c) (OpaquePointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> Void = {
                _, item, _ in
                guard let item, let label = gtk_list_item_get_child(item),
                    let object = gtk_list_item_get_item(item)
                else { return }
                gtk_label_set_text(OpaquePointer(label), gtk_string_object_get_string(OpaquePointer(object)))
            }
            let height = UnsafeMutableRawPointer(bitPattern: Int(max(rowHeight, 1)))
            let object = UnsafeMutableRawPointer(factory)
            if let height {
                GTKSignals.connect(object, "setup", setup, data: height)
                GTKSignals.connect(object, "bind", bind, data: height)
            }
            return factory
        }
    }

    /// Finding a `GtkListView`'s rows under the pointer, for drag sources and drop targets on a list view.
    public enum GTKListRows {
        /// Marks `row`, the widget a list item factory made for `listItem` (a `GtkListItem *`), so that
        /// ``row(at:in:)`` finds its position: call it in your factory's `setup`.
        ///
        /// - Parameters:
        ///   - row: The row's widget.
        ///   - listItem: The list item it shows.
        public static func mark(_ row: UnsafeMutablePointer<GtkWidget>, listItem: OpaquePointer) {
            // The list item outlives the widget it holds: no reference is taken.
            g_object_set_qdata(
                UnsafeMutableRawPointer(row).assumingMemoryBound(to: GObject.self), itemQuark,
                UnsafeMutableRawPointer(listItem))
        }

        /// The row of `listView` under `location` (in the list view's pixels): its position, and whether the point is
        /// in the row's lower half; `nil` over no row (empty space below the last).
        ///
        /// - Parameters:
        ///   - location: A point in the list view.
        ///   - listView: The `GtkListView` (or any widget whose rows were marked); use it on the main context.
        /// - Returns: The row's position, and whether the point is in its lower half.
        public static func row(
            at location: DesktopDropLocation, in listView: GTKWidget
        ) -> (position: Int, lowerHalf: Bool)? {
            let listView = listView.pointer
            var widget = gtk_widget_pick(listView, Double(location.x), Double(location.y), GTK_PICK_DEFAULT)
            while let current = widget, current != listView {
                if let item = g_object_get_qdata(
                    UnsafeMutableRawPointer(current).assumingMemoryBound(to: GObject.self), itemQuark)
                {
                    var y = 0.0
                    var x = 0.0
                    _ = gtk_widget_translate_coordinates(
                        listView, current, Double(location.x), Double(location.y), &x, &y)
                    let position = Int(gtk_list_item_get_position(OpaquePointer(item)))
                    return (position, y > Double(gtk_widget_get_height(current)) / 2)
                }
                widget = gtk_widget_get_parent(current)
            }
            return nil
        }

        /// UIKit's destination index for a drop at `location` on a list view of `count` rows: the position of the
        /// row under the pointer, or the one after it in the row's lower half; `count` below the last row.
        ///
        /// - Parameters:
        ///   - location: Where the drop is, in the list view's pixels.
        ///   - listView: The list view.
        ///   - count: The number of rows it shows.
        /// - Returns: The index the first dropped element gets.
        public static func dropIndex(at location: DesktopDropLocation, in listView: GTKWidget, count: Int) -> Int {
            guard let row = row(at: location, in: listView) else { return count }
            return min(row.position + (row.lowerHalf ? 1 : 0), count)
        }

        static let itemQuark = g_quark_from_string("transferkit-list-item")
    }
#endif
