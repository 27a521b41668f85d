// Seed 000's two tables of character cards as a GTK 4 app, in Swift, on TransferGTK (issue 36): see README.md.
#if GTK
    import CGtk4
    import Foundation
    import TransferDesktop
    import TransferGTK
    import TransferKit
    import TransferSessions
    import Synchronization
    import UniformTypes

    /// Writes one line and flushes it at once: scripts and tests read the lines while the app runs.
    func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    var arguments = Array(CommandLine.arguments.dropFirst())
    /// Removes the option `name` and its value from `arguments`; the value.
    func option(_ name: String, in arguments: inout [String]) -> String? {
        guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
        defer { arguments.removeSubrange(index...(index + 1)) }
        return arguments[index + 1]
    }

    let cards = option("--cards", in: &arguments) ?? "Luke,Leia|Han"
    // Seed 002's category tabs: show only the cards of one category (each list keeps every card, and its order).
    let tab = option("--tab", in: &arguments)
    // Seed 003's pinned add row, first in each list (a pinned element keeps its index: nothing is dropped above it).
    let addRow = arguments.contains("--add-row")
    // Timings for the latency figures: each proposal's time on GTK's thread, each drop's from GTK's drop to the list.
    let timing = arguments.contains("--timing")
    arguments.removeAll { $0 == "--add-row" || $0 == "--timing" }
    let store = option("--store", in: &arguments).map { URL(fileURLWithPath: $0) }
    let pause = option("--pause-at", in: &arguments).flatMap(RemoteSessionEvent.init(rawValue:))
    let printOnly = arguments.first == "--print"
    guard arguments.isEmpty || (printOnly && arguments.count == 1 && store != nil) else {
        say(
            "usage: CharacterCardsGTK [--cards \"Luke,Leia|Han\"] [--store DIR] [--pause-at EVENT] | --store DIR --print"
        )
        exit(2)
    }
    if printOnly, let store {
        // Opening a stored list settles a move that a killed process left in flight.
        for name in ["left", "right"] {
            do {
                let list = try TransferList<Card>(storedIn: store.appendingPathComponent(name))
                say("\(name): \(list.elements.map(\.name).joined(separator: " "))")
            } catch {
                say("error: \(error)")
                exit(1)
            }
        }
        exit(0)
    }
    guard gtk_init_check() != 0 else {
        say("error: GTK cannot open a display (set DISPLAY or WAYLAND_DISPLAY)")
        exit(1)
    }

    // "Luke:jedi,Leia|Han": names, each with an optional category after a colon.
    let columns = cards.split(separator: "|", omittingEmptySubsequences: false).map { column in
        column.split(separator: ",").map { entry in
            let parts = entry.split(separator: ":", maxSplits: 1)
            return Card(name: String(parts[0]), category: parts.count > 1 ? String(parts[1]) : "")
        }
    }.map {
        (addRow ? [Card.addRow] : []) + $0
    }
    /// Whether a row shows `card`: every card, or the tab's (the add row always).
    let isShown: @Sendable (Card) -> Bool = { card in tab == nil || card.category == tab || card.isAddRow }
    let names = ["left", "right"]
    extension Duration {
        /// The duration in whole microseconds.
        var microseconds: Int64 { components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000 }
    }

    let printProposalTime: @Sendable (Duration) -> Void = { duration in
        say("timing proposal \(duration.microseconds) us")
    }
    let proposalTimer = timing ? printProposalTime : nil
    let options = GTKDragAndDropOptions(
        sessionObserver: { event in
            // A test kills the app at this step of a drop between two processes.
            guard event == pause else { return }
            say("paused at \(event.rawValue)")
            try? await Task.sleep(for: .seconds(3600))
        },
        proposalTimer: proposalTimer)
    let drags = AppDrags()

    /// One of the two tables: a stored or in-memory list, its GTK model and its list view.
    final class Table: Sendable {
        let name: String
        let list: TransferList<Card>
        let rows: GTKListModel<Card>
        let view: GTKWidget
        /// The list view's `GtkSingleSelection`, as a bit pattern (used on the main context only).
        let selection: UInt

        init(name: String, list: TransferList<Card>) {
            self.name = name
            self.list = list
            rows = GTKListModel(list, showing: isShown) { $0.name }
            let selection = gtk_single_selection_new(rows.retainedModel())
            self.selection = UInt(bitPattern: selection.map { Int(bitPattern: UnsafeMutableRawPointer($0)) } ?? 0)
            gtk_single_selection_set_autoselect(selection, 0)
            gtk_single_selection_set_can_unselect(selection, 1)
            // GTK aborts rather than return no widget; a missing one would be an empty label.
            view = GTKWidget(
                gtk_list_view_new(selection, GTKListModel<Card>.labelFactory(rowHeight: 40)) ?? gtk_label_new(nil))
        }
    }

    /// The drag this process has under way (one pointer, one drag): which table it left and which cards it carries,
    /// so a drop here tells a move between its own tables from a drop from elsewhere.
    final class AppDrags: Sendable {
        private let current = Mutex<(table: String, session: DragSession.ID, cards: [Card])?>(nil)
        private let local = Mutex(Set<DragSession.ID>())

        func began(_ table: String, _ session: DragSession, _ cards: [Card]) {
            current.withLock { $0 = (table, session.id, cards) }
        }
        /// The drag of this process, claimed by a drop on one of its own tables (a drag from a TransferKit app while
        /// this process drags is this process's: there is one pointer).
        func claim() -> (table: String, cards: [Card])? {
            current.withLock { current in
                guard let current else { return nil }
                local.withLock { _ = $0.insert(current.session) }
                return (current.table, current.cards)
            }
        }
        /// Whether the drag `session` was dropped on a table of this process (which said so itself).
        func ended(_ session: DragSession.ID) -> Bool {
            current.withLock { if $0?.session == session { $0 = nil } }
            return local.withLock { $0.remove(session) != nil }
        }
    }

    func open(_ name: String, _ cards: [Card]) throws -> TransferList<Card> {
        let pinned: @Sendable (Card) -> Bool = { $0.isAddRow }
        guard let store else { return TransferList(cards, isPinned: pinned, renumbering: \.order) }
        return try TransferList(
            storedIn: store.appendingPathComponent(name), initialElements: cards, isPinned: pinned,
            renumbering: \.order)
    }

    let tables: [Table]
    do {
        tables = try names.indices.map { Table(name: names[$0], list: try open(names[$0], columns[safe: $0] ?? [])) }
    } catch {
        say("error: \(error)")
        exit(1)
    }

    /// Makes `table`'s rows draggable and the table a drop target.
    func wire(_ table: Table) {
        let view = table.view
        GTKDragSource.attach(to: view.pointer, options: options) { view, location in
            guard let row = GTKListRows.row(at: location, in: view),
                let card = table.rows.element(at: row.position),
                let session = try? table.list.beginDrag(
                    [card.id], localContext: table.name, allowsMoveToOtherApplications: true)
            else { return nil }
            drags.began(table.name, session, [card])
            return session
        } ended: { session, result in
            let local = drags.ended(session.id)
            guard !local, case .success(let outcome) = result, outcome.operation == .move else { return }
            for item in session.items {
                say("removed \(item.id.rawValue) from \(table.name)")
            }
        }
        let target = GTKDropTarget.attach(to: view.pointer, options: options) { context, location in
            // Nothing goes above the pinned add row.
            if addRow, GTKListRows.dropIndex(at: location, in: view, count: table.rows.count) == 0 { return nil }
            // Cards move within this app and wherever the source allows a move; anything else is copied. (A
            // TransferKit drag from another program offers the display protocol's move only when its session allows
            // one.)
            guard
                context.isFromTransferKit || context.offers(conformingTo: .text)
                    || context.offers(conformingTo: .fileURL)
            else { return nil }
            let moves = drags.isDragging || context.allowedOperations.contains(.move)
            return DropProposal(operation: moves ? .move : .copy)
        }
        Task {
            for await drop in target.drops {
                let arrived = ContinuousClock.now
                let index = await GTKMainContext.perform {
                    GTKListRows.dropIndex(at: drop.location, in: target.widget, count: table.rows.count)
                }
                await take(drop, on: table, at: index, arrived: arrived)
            }
        }
    }

    /// Gives `table` Ctrl+C (copy the selected card to the clipboard) and Ctrl+V (paste a card at the end).
    func addClipboardShortcuts(_ table: Table) {
        guard let controller = gtk_shortcut_controller_new() else { return }
        let data = Unmanaged.passUnretained(table).toOpaque()
        let copy: GtkShortcutFunc = { _, _, data in
            guard let data else { return 0 }
            copySelected(Unmanaged<Table>.fromOpaque(data).takeUnretainedValue())
            return 1
        }
        let paste: GtkShortcutFunc = { _, _, data in
            guard let data else { return 0 }
            let table = Unmanaged<Table>.fromOpaque(data).takeUnretainedValue()
            Task { await pasteCard(into: table) }
            return 1
        }
        for (keys, action) in [("<Control>c", copy), ("<Control>v", paste)] {
            let shortcut = gtk_shortcut_new(
                gtk_shortcut_trigger_parse_string(keys), gtk_callback_action_new(action, data, nil))
            gtk_shortcut_controller_add_shortcut(controller, shortcut)
        }
        gtk_widget_add_controller(table.view.pointer, controller)
    }

    /// Puts the card selected in `table` on the clipboard (on the main context).
    func copySelected(_ table: Table) {
        guard let selection = OpaquePointer(bitPattern: table.selection),
            let card = table.rows.element(at: Int(gtk_single_selection_get_selected(selection))),
            let clipboard = GTKClipboard.default
        else { return }
        clipboard.write([TransferProvider(object: card)])
        say("copied \(card.name)")
    }

    /// Reads a card from the clipboard (a TransferKit card, or any text or file) and appends it to `table`.
    func pasteCard(into table: Table) async {
        guard let clipboard = await GTKMainContext.perform({ GTKClipboard.default }) else { return }
        do {
            guard let card = try await clipboard.read()?.loadObject(ofClass: Card.self) else {
                say("paste failed: the clipboard is empty")
                return
            }
            var index = 0
            _ = try table.list.edit { cards in
                cards.removeAll { $0.id == card.id }
                index = cards.count
                cards.append(card)
            }
            say("pasted \(card.name) into \(table.name) at \(index)")
        } catch {
            say("paste failed: \(error)")
        }
    }

    /// Drops `drop` on `table` at `index` and says what changed.
    func take(_ drop: DesktopDrop, on table: Table, at index: Int, arrived: ContinuousClock.Instant) async {
        let source = drop.context.isFromTransferKit ? drags.claim() : nil
        defer { if timing { say("timing drop \((ContinuousClock.now - arrived).microseconds) us") } }
        do {
            let before = table.list.elements.filter(isShown)
            let result = try await table.list.drop(
                drop, at: adjusted(index, on: table, before: before), inViewWhere: isShown,
                operation: drop.proposal.operation)
            for case .insert(let offset, let card, _) in result.value?.insertions ?? [] {
                if let source, source.cards.contains(where: { $0.id == card.id }) {
                    say("moved \(card.name) from \(source.table) to \(table.name) at \(offset)")
                } else {
                    say("dropped \(card.name) into \(table.name) at \(offset)")
                }
            }
        } catch {
            say("drop failed: \(error.code) \(error.message)")
        }
    }

    /// UIKit's index for a reorder: the rows above `index` (of the rows shown, `before`) that the drag takes out of
    /// this same table do not count.
    func adjusted(_ index: Int, on table: Table, before: [Card]) -> Int {
        guard let dragged = drags.draggedCards(from: table.name) else { return index }
        let above = before.prefix(index).filter { card in dragged.contains { $0.id == card.id } }.count
        return index - above
    }

    extension AppDrags {
        /// Whether this process is dragging a card now.
        var isDragging: Bool { current.withLock { $0 != nil } }

        /// The cards this process is dragging from `table`, if it is.
        func draggedCards(from table: String) -> [Card]? {
            current.withLock { $0?.table == table ? $0?.cards : nil }
        }
    }

    extension Array {
        subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
    }

    /// `widget` as the GTK type its functions take.
    func cast<T>(_ widget: UnsafeMutablePointer<GtkWidget>?, to type: T.Type) -> UnsafeMutablePointer<T>? {
        widget.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: type) }
    }

    // Rows exactly as high as the factory makes them (40 pixels), so scripts find row N at 40 × N.
    if let css = gtk_css_provider_new(), let display = gdk_display_get_default() {
        gtk_css_provider_load_from_data(css, "listview > row { padding: 0; margin: 0; min-height: 0; }", -1)
        gtk_style_context_add_provider_for_display(
            display, OpaquePointer(css), guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
    }
    let window = gtk_window_new()
    gtk_window_set_title(cast(window, to: GtkWindow.self), "Character Cards")
    gtk_window_set_default_size(cast(window, to: GtkWindow.self), 640, 400)
    let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)
    gtk_box_set_homogeneous(cast(box, to: GtkBox.self), 1)
    for table in tables {
        let scrolled = gtk_scrolled_window_new()
        gtk_scrolled_window_set_child(OpaquePointer(scrolled), table.view.pointer)
        gtk_widget_set_hexpand(scrolled, 1)
        gtk_widget_set_vexpand(scrolled, 1)
        gtk_box_append(cast(box, to: GtkBox.self), scrolled)
        wire(table)
        addClipboardShortcuts(table)
    }
    gtk_window_set_child(cast(window, to: GtkWindow.self), box)
    gtk_window_present(cast(window, to: GtkWindow.self))
    say("ready")
    let loop = g_main_loop_new(nil, 0)
    g_main_loop_run(loop)
#else
    import Foundation

    // Built without the trait GTK: nothing to show. Say how to build it, and fail.
    FileHandle.standardError.write(
        Data("CharacterCardsGTK needs GTK 4: swift run --traits GTK CharacterCardsGTK (Debian: libgtk-4-dev)\n".utf8))
    exit(1)
#endif
