// The GTK program of TransferGTK's clipboard tests (Tests/TransferGTKIntegrationTests): GTK needs its main loop running on the
// thread that initialized it, which a test process (whose main thread runs the test runner) cannot give it, so the
// tests drive this program as a child under Xvfb instead. It reports one line at a time on standard output:
//   write             puts a provider on GTK's clipboard (com.example.gtk-card conforming to public.json, UTF-8
//                     text, HTML whose loader throws, and with `large N` a PDF stream of N bytes, made as read),
//                     prints `ready`, then `loaded NAME` for each loader GTK's peers make run and `released large`
//                     when the large stream is let go; it runs until killed.
//   read NAME         waits for the clipboard to offer something, prints `offered A,B,…`, loads NAME's type
//                     through GTKClipboard's provider and prints `read ` and the bytes (or `failed CODE: …`).
//   read-size NAME    as `read`, but streams NAME and prints `read-size N` with the byte count and the peak
//                     resident memory as `peak-kib N`.
//   read-string NAME  as `read`, but loads a String (decoded as NAME's type says).
//   drag-source N     a window titled `gtk probe source` whose drag (TransferGTK's GTKDragSource) carries one item
//                     with a PDF stream of N bytes, made as read; prints `ready`, then `accepted ACTION` whenever
//                     a target's answer selects an action, and `drag OPERATION` (with the outcome) and `peak-kib K` when
//                     the drag ended.
//   drop-target       a window titled `gtk probe target` (TransferGTK's GTKDropTarget, proposing a copy) that streams
//                     the first drop's application/pdf and prints `dropped-size N` and `peak-kib K` (or
//                     `failed …`).
#if GTK
    import CGtk4
    import Foundation
    import TransferClipboard
    import TransferGTK
    import TransferDesktop
    import TransferKit
    import TransferSessions
    import UniformTypes

    /// Writes one line and flushes it at once: the test reads the lines while this process runs.
    func report(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Reports `accepted ACTION` whenever a target's answer selects an action for a drag from `widget`'s drag source (GDK's
    /// `selected-action` becomes an action): the tests release the pointer only then, since a target built with the
    /// thread sanitizer can answer the pointer's positions seconds late.
    func reportAcceptance(of widget: UnsafeMutablePointer<GtkWidget>) {
        guard let controllers = gtk_widget_observe_controllers(widget) else { return }
        let dragSourceType = gtk_drag_source_get_type()
        for index in 0..<g_list_model_get_n_items(controllers) {
            if let controller = g_list_model_get_item(controllers, index) {
                let instance = controller.assumingMemoryBound(to: GTypeInstance.self)
                if g_type_check_instance_is_a(instance, dragSourceType) != 0 {
                    g_signal_connect_data(
                        controller, "drag-begin", unsafeBitCast(Acceptance.begin, to: GCallback.self), nil, nil,
                        GConnectFlags(0))
                }
                g_object_unref(controller)
            }
        }
        g_object_unref(UnsafeMutableRawPointer(controllers))
    }

    /// The signal handlers of ``reportAcceptance(of:)``.
    enum Acceptance {
        /// `drag-begin`: follows the new drag's selected action.
        static let begin: @convention(c) (OpaquePointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> Void = {
            _, drag, _ in
            guard let drag else { return }
            g_signal_connect_data(
                UnsafeMutableRawPointer(drag), "notify::selected-action", unsafeBitCast(selected, to: GCallback.self),
                nil, nil, GConnectFlags(0))
        }

        /// `notify::selected-action`: reports an action a target's answer selected.
        static let selected: @convention(c) (OpaquePointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> Void = {
            drag, _, _ in
            guard let drag else { return }
            let action = gdk_drag_get_selected_action(drag)
            guard action.rawValue != 0 else { return }
            report("accepted \(action.rawValue & GDK_ACTION_MOVE.rawValue != 0 ? "move" : "copy")")
        }
    }

    /// This process's peak resident memory (`VmHWM`) in KiB, or 0 where `/proc` does not give it.
    func peakResidentKiB() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let fields = line.dropFirst("VmHWM:".count).split(whereSeparator: { $0 == " " || $0 == "\t" })
            return fields.first.flatMap { Int($0) } ?? 0
        }
        return 0
    }

    /// Reports `released large` when the last copy of a stream's iterator goes: GTK let the stream go.
    final class Release: Sendable {
        deinit { report("released large") }
    }

    /// The bytes of the large representation: `count` of them, made a chunk at a time as GTK asks.
    struct CountedChunks: AsyncSequence, Sendable {
        let count: Int
        func makeAsyncIterator() -> Iterator { Iterator(remaining: count) }
        struct Iterator: AsyncIteratorProtocol {
            var remaining: Int
            let release = Release()
            mutating func next() async -> Data? {
                guard remaining > 0 else { return nil }
                let size = Swift.min(remaining, 1 << 16)
                remaining -= size
                return Data(repeating: 0x4B, count: size)
            }
        }
    }

    let arguments = Array(CommandLine.arguments.dropFirst())
    guard gtk_init_check() != 0, let clipboard = GTKClipboard.default else {
        report("failed noDisplay: GTK cannot open a display")
        exit(2)
    }
    let loop = g_main_loop_new(nil, 0)
    let catalog = TypeCatalog.shared
    let card = UniformType(exportedAs: "com.example.gtk-card", conformingTo: .json)

    switch arguments.first {
    case "write":
        let provider = TransferProvider()
        provider.registerDataRepresentation(for: card) { _ in
            report("loaded card")
            return Data(#"{"name":"Luke"}"#.utf8)
        }
        provider.registerDataRepresentation(for: .utf8PlainText) { _ in
            report("loaded text")
            return Data("Luke Skywalker ✓".utf8)
        }
        // A representation whose loader fails: its error must reach the peer as a refusal, never cross into C.
        struct Broken: Error {}
        provider.registerDataRepresentation(for: .html) { _ in
            report("loaded html")
            throw Broken()
        }
        if arguments.count == 3, arguments[1] == "large", let size = Int(arguments[2]) {
            provider.registerStreamRepresentation(for: .pdf) { _ in
                report("loaded large")
                return TransferByteStream(length: UInt64(size), CountedChunks(count: size))
            }
        }
        // A short stall timeout, so that the test of a reader that dies mid-transfer sees the stream let go soon.
        clipboard.write([provider], stallTimeout: .seconds(3))
        GTKMainContext.run { report("ready") }
    case "read", "read-size", "read-string":
        guard arguments.count == 2 else {
            report("failed usage: read NAME")
            exit(2)
        }
        let name = arguments[1]
        let mode = arguments[0]
        Task.detached {
            let deadline = ContinuousClock.now + .seconds(30)
            var names = await clipboard.offeredNames()
            while names.isEmpty, ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(50))
                names = await clipboard.offeredNames()
            }
            report("offered " + names.joined(separator: ","))
            guard let provider = await clipboard.read(),
                let type = ClipboardTypeMapping.type(forOffered: name, catalog: catalog)
            else {
                report("failed empty: nothing offered as \(name)")
                exit(1)
            }
            do {
                if mode == "read-string" {
                    report("read " + (try await provider.loadObject(ofClass: String.self)))
                } else if mode == "read-size" {
                    var size = 0
                    for try await chunk in try await provider.loadStream(for: type) { size += chunk.count }
                    report("read-size \(size)")
                    report("peak-kib \(peakResidentKiB())")
                } else {
                    let data = try await provider.loadDataRepresentation(for: type)
                    report("read " + String(decoding: data, as: UTF8.self))
                }
                exit(0)
            } catch let error as TransferError {
                let cause = (error.cause as? ClipboardError).map { "\($0.code)" } ?? "none"
                report("failed \(error.code) cause \(cause): \(error.message)")
                exit(1)
            } catch {
                report("failed \(error)")
                exit(1)
            }
        }
    case "drag-source", "drop-target":
        let window = gtk_window_new()
        let label = gtk_label_new(arguments[0] == "drag-source" ? "drag me" : "drop here")
        window.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWindow.self) }.map { window in
            gtk_window_set_title(window, arguments[0] == "drag-source" ? "gtk probe source" : "gtk probe target")
            gtk_window_set_default_size(window, 200, 150)
            gtk_window_set_child(window, label)
            gtk_window_present(window)
        }
        guard let label else { exit(2) }
        if arguments[0] == "drag-source" {
            let size = arguments.count == 2 ? Int(arguments[1]) ?? 0 : 0
            GTKDragSource.attach(to: label) { _, _ in
                let provider = TransferProvider()
                provider.registerStreamRepresentation(for: .pdf) { _ in
                    report("loaded large")
                    return TransferByteStream(length: UInt64(size), CountedChunks(count: size))
                }
                return DragSession(items: [DragItem(id: TransferItemID("large"), provider: provider)], source: nil)
            } ended: { _, result in
                switch result {
                case .success(let result): report("drag \(result.operation.rawValue) (\(result.reason ?? "no reason"))")
                case .failure(let error): report("drag failed (\(error))")
                }
                report("peak-kib \(peakResidentKiB())")
            }
            reportAcceptance(of: label)
        } else {
            let target = GTKDropTarget.attach(to: label) { _, _ in DropProposal(operation: .copy) }
            Task.detached {
                for await drop in target.drops {
                    do {
                        let result = try await drop.perform { session, _ in
                            var size = 0
                            for try await chunk in try await session.items[0].provider.loadStream(for: .pdf) {
                                size += chunk.count
                            }
                            return size
                        }
                        report("dropped-size \(result.value ?? -1)")
                    } catch let error as TransferSessionError {
                        report("failed \(error.code): \(error.message)")
                    } catch {
                        report("failed \(error)")
                    }
                    report("peak-kib \(peakResidentKiB())")
                }
            }
        }
        GTKMainContext.run { report("ready") }
    default:
        report(
            "failed usage: write [large N] | read NAME | read-size NAME | read-string NAME | drag-source N | drop-target"
        )
        exit(2)
    }
    g_main_loop_run(loop)
#endif
