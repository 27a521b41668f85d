import TransferDisplayTestSupport

#if GTK
    import Foundation
    import Testing
    import TransferKitPlatform
    import TransferKitTestSupport
    import TransferKitTesting

    /// The example app `CharacterCardsGTK` (seed 000's two tables on GTK 4 through TransferGTK) driven as a user does
    /// under a private headless sway, with GTK on Wayland: the virtual pointer drags, the virtual keyboard types Ctrl+C
    /// and Ctrl+V. The same scenarios as `CharacterCardsGTKTests` under Xvfb.
    @Suite(
        "Character Cards, a GTK 4 app, on Wayland: drags, drops and the clipboard under headless sway", .serialized,
        .timeLimit(.minutes(5)),
        .enabled(
            if: waylandGTKDragPresent,
            "needs sway, setpriv, wl-clipboard, python3-gi, gir1.2-gtk-4.0 and xdotool (Debian: sway, util-linux, wl-clipboard, python3-gi, gir1.2-gtk-4.0, xdotool)"
        ))
    final class CharacterCardsWaylandTests {
        let compositor: WaylandCompositor
        let pointer: WaylandVirtualPointer
        let keyboard: WaylandVirtualKeyboard
        let directory: URL
        /// The apps' `XDG_RUNTIME_DIR`, where a drag publishes its session's socket: short enough for a socket
        /// address (107 bytes), which the test folder's path is not. sway's socket stays in the compositor's own
        /// runtime folder: `WAYLAND_DISPLAY` names it by its absolute path.
        let runtime: URL
        static let app = TransferKitExecutable.product(named: "CharacterCardsGTK")

        init() async throws {
            compositor = try await WaylandCompositor.start()
            directory = try makeTemporaryDirectory(prefix: "transferkit-gtk-app-wayland")
            runtime = try makeRuntimeDirectory(prefix: "tkw")
            // The app's windows float from the start, without a border: sway tiles a new window over the whole output
            // first otherwise, and a window floated afterwards may commit the tiled size after the float (seen: a
            // 1276x693 source app over the second app's window, the drop landing in its own right list).
            for rule in [["floating", "enable"], ["border", "none"]] {
                try await compositor.swaymsg(["for_window", "[title=\"^Character Cards$\"]"] + rule)
            }
            // Both before the apps start, so their seat has a pointer and a keyboard from the first.
            pointer = try WaylandVirtualPointer(socketPath: compositor.socketPath)
            keyboard = try WaylandVirtualKeyboard(
                socketPath: compositor.socketPath, keymapFile: directory.appendingPathComponent("keymap"))
        }

        deinit {
            compositor.stop()
            try? FileManager.default.removeItem(at: directory)
            try? FileManager.default.removeItem(at: runtime)
        }

        /// GTK on this test's sway, sessions published in this test's short runtime folder.
        var environment: [String: String] {
            var environment = compositor.environment
            environment["GDK_BACKEND"] = "wayland"
            environment["GSK_RENDERER"] = "cairo"
            environment["NO_AT_BRIDGE"] = "1"
            environment["GSETTINGS_BACKEND"] = "memory"
            environment["XDG_RUNTIME_DIR"] = runtime.path
            environment["XDG_STATE_HOME"] = directory.appendingPathComponent("state").path
            return environment
        }

        /// Starts the app with `arguments`, waits for its window (floating at its own size, 640x400) and places its
        /// top-left corner at `corner` of the output.
        func startApp(_ arguments: [String], at corner: (x: Int, y: Int) = (0, 0)) async throws -> BackgroundChild {
            let app = try BackgroundChild(
                Self.app, arguments, output: directory.appendingPathComponent("app-\(UUID().uuidString).out"),
                environment: environment)
            #expect(try await app.wait(for: "ready"), "\(app.text)")
            let pid = app.pid
            try await waitUntil("the app's window") { try await self.content(ofProcess: pid) != nil }
            try await compositor.swaymsg([
                "[pid=\(pid)]", "move", "absolute", "position", "\(corner.x)", "\(corner.y)",
            ])
            try await waitUntil("the app's window at \(corner), 640x400") {
                guard let content = try await self.content(ofProcess: pid) else { return false }
                return content == Content(x: corner.x, y: corner.y, width: 640, height: 400)
            }
            return app
        }

        /// Where a window's content is on the output, in pixels.
        struct Content: Equatable {
            var x: Int
            var y: Int
            var width: Int
            var height: Int
        }

        /// Where the content of the window of process `pid` is on the output (its size as the app last committed it),
        /// or nil while sway shows none.
        func content(ofProcess pid: Int32) async throws -> Content? {
            let tree = try await compositor.swaymsg(["-t", "get_tree", "-r"])
            guard let root = try JSONSerialization.jsonObject(with: Data(tree.utf8)) as? [String: Any] else {
                return nil
            }
            func find(_ node: [String: Any]) -> [String: Any]? {
                if node["pid"] as? Int == Int(pid) { return node }
                for key in ["nodes", "floating_nodes"] {
                    for child in node[key] as? [[String: Any]] ?? [] {
                        if let found = find(child) { return found }
                    }
                }
                return nil
            }
            guard let node = find(root), let rect = node["rect"] as? [String: Any],
                let content = node["window_rect"] as? [String: Any], let x = rect["x"] as? Int,
                let y = rect["y"] as? Int, let dx = content["x"] as? Int, let dy = content["y"] as? Int,
                let geometry = node["geometry"] as? [String: Any], let width = geometry["width"] as? Int,
                let height = geometry["height"] as? Int
            else { return nil }
            return Content(x: x + dx, y: y + dy, width: width, height: height)
        }

        /// The middle of row `index` of the app's `list` (`left` or `right`), for an app whose window is at `corner`;
        /// `lower` picks a point in the row's lower half.
        func row(
            _ list: String, _ index: Int, lower: Bool = false, corner: (x: Int, y: Int) = (0, 0)
        ) -> (
            x: Int, y: Int
        ) {
            (corner.x + (list == "left" ? 100 : 420), corner.y + 40 * index + (lower ? 32 : 12))
        }

        /// The drag sessions published in the runtime folder now.
        var sessions: Set<String> {
            Set(
                ((try? FileManager.default.contentsOfDirectory(atPath: runtime.path)) ?? []).filter {
                    $0.hasPrefix("transferkit-drag-")
                })
        }

        /// Waits `duration` from the first call on: a condition for a target whose answer the test cannot see.
        static func after(_ duration: Duration) -> () async throws -> Bool {
            let deadline = SanitizedMutex<ContinuousClock.Instant?>(nil)
            return {
                let end = deadline.withLock { end in
                    if end == nil { end = .now + duration }
                    return end ?? .now
                }
                return ContinuousClock.now >= end
            }
        }

        /// Drags from the app's `start` to `end` as a user does: the drag is known to have begun when its session's
        /// socket appears in the runtime folder; the pointer stays over `end` until `isOver` holds (by default a
        /// while, for GTK to answer), then releases.
        func drag(
            from start: (x: Int, y: Int), to end: (x: Int, y: Int),
            isOver: @escaping () async throws -> Bool = after(.milliseconds(700))
        ) async throws {
            let before = sessions
            try await pointer.drag(
                from: start, to: end, isPressable: Self.after(.milliseconds(300)),
                hasStarted: { !self.sessions.subtracting(before).isEmpty }, isOver: isOver)
            try pointer.sync()
        }

        /// Clicks at `point` (selecting the row there and focusing its list).
        func click(_ point: (x: Int, y: Int)) async throws {
            try pointer.move(to: point)
            try await Task.sleep(for: .milliseconds(200))
            try pointer.press()
            try pointer.release()
            try pointer.sync()
            try await Task.sleep(for: .milliseconds(200))
        }

        /// Waits until `app` has printed `line` (a whole line).
        func expectLine(
            _ line: String, from app: BackgroundChild, sourceLocation: SourceLocation = #_sourceLocation
        ) async throws {
            let found = try await app.wait(for: line + "\n", within: .seconds(30))
            #expect(found, "no line '\(line)' in:\n\(app.text)", sourceLocation: sourceLocation)
        }

        /// The lines the app printed after `ready`.
        func changes(_ app: BackgroundChild) -> [String] {
            app.text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("ready") && !$0.contains("Gtk-") }
                .filter { !$0.isEmpty && !$0.hasPrefix("(") }
        }

        @Test("a card moves between the two lists, reorders within one, and a drop outside the window changes nothing")
        func movesReordersAndCancels() async throws {
            let app = try await startApp(["--cards", "Luke,Leia,Rey|Han"])
            defer { app.kill() }
            try await drag(from: row("left", 0), to: row("right", 1))
            try await expectLine("moved Luke from left to right at 1", from: app)
            // Leia (now the left list's first row) dropped on the lower half of Rey's row: after Rey.
            try await drag(from: row("left", 0), to: row("left", 1, lower: true))
            try await expectLine("moved Leia from left to left at 1", from: app)
            // Han dropped below the window: nothing moves.
            try await drag(from: row("right", 0), to: (420, 600))
            // Then Han dropped at the top of the left list: it was still in the right one, at 0.
            try await drag(from: row("right", 0), to: row("left", 0))
            try await expectLine("moved Han from right to left at 0", from: app)
            #expect(
                changes(app) == [
                    "moved Luke from left to right at 1", "moved Leia from left to left at 1",
                    "moved Han from right to left at 0",
                ], "\(app.text)")
        }

        @Test("Ctrl+C puts a card's JSON and text on the clipboard for wl-paste; Ctrl+V makes a card of wl-copy's text")
        func clipboardBothWays() async throws {
            let app = try await startApp(["--cards", "Luke,Leia|Han"])
            defer { app.kill() }
            try await click(row("left", 1))
            try keyboard.type(WaylandVirtualKeyboard.c, modifiers: WaylandVirtualKeyboard.control)
            try await expectLine("copied Leia", from: app)
            let text = try await compositor.wlPaste(["--no-newline", "--type", "text/plain;charset=utf-8"])
            #expect(String(decoding: text.output, as: UTF8.self) == "Leia", "\(text.error)")
            let json = try await compositor.wlPaste(["--no-newline", "--type", "application/json"])
            let card = try JSONSerialization.jsonObject(with: json.output) as? [String: Any]
            #expect(card?["name"] as? String == "Leia", "\(json.error)")

            let file = directory.appendingPathComponent("obi-wan.txt")
            try Data("Obi-Wan".utf8).write(to: file)
            try await compositor.wlCopy(file, type: "text/plain;charset=utf-8")
            try await click(row("right", 0))
            try keyboard.type(WaylandVirtualKeyboard.v, modifiers: WaylandVirtualKeyboard.control)
            try await expectLine("pasted Obi-Wan into right at 1", from: app)
        }

        @Test("a drag out to a GTK 4 peer gives it the card's text; a GTK 4 peer's text dropped on a list is a card")
        func dragsWithAGTKPeer() async throws {
            let app = try await startApp(["--cards", "Luke,Leia|Han"])
            defer { app.kill() }
            var peerEnvironment = compositor.environment
            peerEnvironment["GDK_BACKEND"] = "wayland"
            let out = directory.appendingPathComponent("peer-received.txt")
            let target = try DragPeer.target(
                title: uniqueWindowTitle("peer target"), accepting: ["text/plain;charset=utf-8"], out: out,
                environment: peerEnvironment, directory: directory)
            defer { target.stop() }
            _ = try await target.waitForEvent(["ready"])
            try await compositor.place(titled: target.title, at: (700, 450))
            let targetCentre = try await centre(of: target.title)
            try await drag(from: row("left", 0), to: targetCentre) {
                target.events.contains { $0.event == "enter" }
            }
            let drop = try await target.waitForEvent(["drop", "drop-failed"])
            #expect(drop.event == "drop", "\(target.transcript)")
            #expect(FileManager.default.contents(atPath: out.path) == Data("Luke".utf8))
            // A copy: the app keeps Luke and says nothing.
            #expect(!app.text.contains("removed"), "\(app.text)")

            let offered = directory.appendingPathComponent("ben.txt")
            try Data("Ben".utf8).write(to: offered)
            let source = try DragPeer.source(
                title: uniqueWindowTitle("peer source"), offers: [("text/plain;charset=utf-8", offered)],
                actions: ["copy"], environment: peerEnvironment, directory: directory)
            defer { source.stop() }
            _ = try await source.waitForEvent(["ready"])
            try await compositor.place(titled: source.title, at: (950, 450))
            try await pointer.drag(
                from: try await centre(of: source.title), to: row("right", 1),
                isPressable: Self.after(.milliseconds(300)),
                hasStarted: { source.events.contains { $0.event == "drag-begin" } },
                isOver: Self.after(.milliseconds(700)))
            try await expectLine("dropped Ben into right at 1", from: app)
        }

        /// The centre of the window titled `title`, once sway shows it.
        func centre(of title: String) async throws -> (x: Int, y: Int) {
            let rect = try await compositor.waitForWindow(titled: title)
            return (rect.x + rect.width / 2, rect.y + rect.height / 2)
        }

        /// Starts `transferkit` with `arguments` on this sway (sessions in the apps' runtime folder), waits for its
        /// window titled `title` and places it at `corner`; the tool and where its output goes.
        func startTransferKit(
            _ arguments: [String], titled title: String, at corner: (x: Int, y: Int)
        ) async throws -> BackgroundChild {
            let tool = try BackgroundChild(
                TransferKitExecutable.defaultPath, arguments + ["--backend", "wayland"],
                output: directory.appendingPathComponent("transferkit-\(UUID().uuidString).out"),
                environment: environment)
            try await compositor.place(titled: title, at: corner)
            return tool
        }

        @Test("transferkit drag of a file into the app makes a card named after it")
        func transferkitDragIntoTheApp() async throws {
            let app = try await startApp(["--cards", "Luke|Han"])
            defer { app.kill() }
            let file = directory.appendingPathComponent("Yoda.txt")
            try Data("Jedi master".utf8).write(to: file)
            let drag = try await startTransferKit(
                ["drag", "--and-exit", file.path], titled: "transferkit drag", at: (700, 450))
            defer { drag.kill() }
            let from = try await centre(of: "transferkit drag")
            // TransferKit's window says nothing to the test: the press comes once the pointer has been over it a
            // while (wiggling, so that it sees motion), and the drag is taken as started at once.
            var over = 0
            try await pointer.drag(
                from: from, to: row("left", 0),
                isPressable: {
                    over += 1
                    try self.pointer.move(to: (from.x + over % 2, from.y))
                    return over > 10
                }, hasStarted: { true }, isOver: Self.after(.milliseconds(700)))
            try await expectLine("dropped Yoda into left at 0", from: app)
            #expect(try await drag.wait(for: "dropped copy"), "\(drag.text)")
        }

        @Test("a card dragged to transferkit drop is written as a file and moved: the app removes it once")
        func dragToTransferkitDrop() async throws {
            let app = try await startApp(["--cards", "Luke,Leia|Han"])
            defer { app.kill() }
            let out = directory.appendingPathComponent("dropped", isDirectory: true)
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            let drop = try await startTransferKit(["drop", "-o", out.path], titled: "transferkit drop", at: (700, 450))
            defer { drop.kill() }
            // A sanitizer-built transferkit answers a position many times slower, and nothing it shows says it has
            // accepted: a release before its answer is a cancel (seen under a loaded sanitizer run: nothing written,
            // nothing removed). The card then stays where it was, and the user drags it again, holding it twice as
            // long; two tries keep the wait before a failure under a minute.
            let target = try await centre(of: "transferkit drop")
            let hold: Duration = threadSanitizerIsActive ? .seconds(3) : .milliseconds(700)
            var dropped = false
            for attempt in 1...2 where !dropped {
                try await drag(from: row("left", 0), to: target, isOver: Self.after(hold * attempt))
                dropped = try await drop.wait(for: "\n", within: .seconds(20))
                #expect(dropped || !app.text.contains("removed"), "\(app.text)")
            }
            #expect(dropped, "\(drop.text)")
            let written = try FileManager.default.contentsOfDirectory(atPath: out.path)
            #expect(written.count == 1, "\(written) \(drop.text)")
            let bytes = written.first.flatMap {
                FileManager.default.contents(atPath: out.appendingPathComponent($0).path)
            }
            #expect(bytes.map { String(decoding: $0, as: UTF8.self).contains("Luke") } == true, "\(drop.text)")
            // The app's drags allow a move to other programs, and transferkit drop moves a TransferKit drag that
            // allows one, through its session: the card leaves the app's list, once.
            try await expectLine("removed Luke from left", from: app)
            #expect(changes(app) == ["removed Luke from left"], "\(app.text)")
        }

        /// Drags Luke from the left list of one app to the right list of another (stored lists, the second app's
        /// window beside the first), `killing` one process at `event` (a `RemoteSessionEvent`'s raw value, the app's
        /// `--pause-at`); returns both processes' lists as they are when
        /// opened again, and what the processes printed.
        func moveBetweenProcesses(
            killing killed: String? = nil, at event: String? = nil
        ) async throws -> (source: String, target: String, outputs: String) {
            let pause = { (role: String) in killed == role ? ["--pause-at", event ?? ""] : [] }
            let sourceStore = directory.appendingPathComponent("source-store").path
            let targetStore = directory.appendingPathComponent("target-store").path
            let source = try await startApp(
                ["--cards", "Luke,Leia|", "--store", sourceStore] + pause("source"), at: (0, 0))
            defer { source.kill() }
            let target = try await startApp(
                ["--cards", "|Han", "--store", targetStore] + pause("target"), at: (640, 0))
            defer { target.kill() }
            try await drag(from: row("left", 0), to: row("right", 0, corner: (640, 0)))
            if let killed, let event {
                let victim = killed == "source" ? source : target
                #expect(
                    try await victim.wait(for: "paused at \(event)"), "source:\n\(source.text)\ntarget:\n\(target.text)"
                )
                victim.kill()
                try await Task.sleep(for: .seconds(1))
            } else {
                try await expectLine("dropped Luke into right at 0", from: target)
                try await expectLine("removed Luke from left", from: source)
            }
            let outputs = "source:\n\(source.text)\ntarget:\n\(target.text)"
            source.kill()
            target.kill()
            try await Task.sleep(for: .milliseconds(300))
            func open(_ store: String) async throws -> String {
                let opened = try await ChildProcess.run(
                    Self.app, arguments: ["--store", store, "--print"], input: [], environment: environment)
                // A failure shows in the comparison: the status and what the app wrote to standard error.
                guard opened.status == 0 else { return "status \(opened.status): \(opened.errorText)" }
                return opened.outputText
            }
            return (try await open(sourceStore), try await open(targetStore), outputs)
        }

        @Test("two processes of the app move a card exactly once")
        func twoProcessesMoveOnce() async throws {
            let lists = try await moveBetweenProcesses()
            #expect(lists.source == "left: Leia\nright: \n", "\(lists.outputs)")
            #expect(lists.target == "left: \nright: Luke Han\n", "\(lists.outputs)")
        }

        /// Who is killed at which step of the drop, and which process's list must hold the card.
        static let killTable: [(String, String, String)] = [
            ("source", "commitReceived", "target"),
            ("target", "committedLocally", "source"),
            ("target", "decided", "target"),
        ]

        @Test("killing either app at a step of the drop leaves the card in exactly one list", arguments: killTable)
        func killedMidDrop(process: String, event: String, expected: String) async throws {
            let lists = try await moveBetweenProcesses(killing: process, at: event)
            let places = [
                lists.source.contains("Luke") ? "source" : nil, lists.target.contains("Luke") ? "target" : nil,
            ]
            .compactMap { $0 }
            #expect(places == [expected], "source \(lists.source), target \(lists.target)\n\(lists.outputs)")
        }
    }
#endif
