#if GTK
    import Foundation
    import Testing
    import TransferKitPlatform
    import TransferKitTestSupport
    import TransferKitTesting
    import TransferSessions

    /// The example app did not do what a test waited for.
    struct AppError: Error {
        var message: String
    }

    /// Whether GTK 4 for Python is installed: the toolkit peer of the app's drags (Debian: python3-gi,
    /// gir1.2-gtk-4.0).
    let gtk4PythonPresent =
        FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/gi/__init__.py")
        && ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib"].contains {
            FileManager.default.fileExists(atPath: "\($0)/girepository-1.0/Gtk-4.0.typelib")
        }

    /// The example app `CharacterCardsGTK` (seed 000's two tables on GTK 4 through TransferGTK) driven as a user
    /// does: real pointer drags and key presses (xdotool) under a private Xvfb, with GTK on X11.
    @Suite(
        "Character Cards, a GTK 4 app: drags, drops and the clipboard", .serialized, .timeLimit(.minutes(5)),
        .enabled(if: x11ToolsPresent, "needs Xvfb, xdotool and xclip (Debian: xvfb, xdotool, xclip)"))
    final class CharacterCardsGTKTests {
        let directory: URL
        /// The apps' `XDG_RUNTIME_DIR`, where a drag publishes its session's socket: short enough for a socket
        /// address (107 bytes), which the test folder's path is not.
        let runtime: URL
        let server: PrivateXvfb
        var pointer: PointerDriver { PointerDriver(environment: environment) }
        static let app = TransferKitExecutable.product(named: "CharacterCardsGTK")

        init() async throws {
            directory = try makeTemporaryDirectory(prefix: "transferkit-gtk-app")
            runtime = try makeRuntimeDirectory(prefix: "tkg")
            server = try await PrivateXvfb(directory: directory)
        }

        deinit {
            try? FileManager.default.removeItem(at: directory)
            try? FileManager.default.removeItem(at: runtime)
        }

        /// GTK on this test's X server, sessions published in this test's folder.
        var environment: [String: String] {
            var environment = server.environment
            environment["GDK_BACKEND"] = "x11"
            environment["GSK_RENDERER"] = "cairo"
            environment["NO_AT_BRIDGE"] = "1"
            environment["GSETTINGS_BACKEND"] = "memory"
            environment["XDG_RUNTIME_DIR"] = runtime.path
            environment["XDG_STATE_HOME"] = directory.appendingPathComponent("state").path
            return environment
        }

        /// Starts the app with `arguments`, waits for its window and places it with its top-left corner at `corner`.
        func startApp(
            _ arguments: [String], at corner: ScreenPoint = ScreenPoint(x: 0, y: 0)
        ) async throws
            -> BackgroundChild
        {
            let app = try BackgroundChild(
                Self.app, arguments, output: directory.appendingPathComponent("app-\(UUID().uuidString).out"),
                environment: environment)
            #expect(try await app.wait(for: "ready"), "\(app.text)")
            try await pointer.place(try await window(of: app), at: corner)
            return app
        }

        /// The app's window: the one titled `Character Cards` whose process is `app`'s.
        func window(of app: BackgroundChild) async throws -> String {
            let deadline = ContinuousClock.now + .seconds(30)
            while ContinuousClock.now < deadline {
                let found = try await ChildProcess.run(
                    PointerDriver.xdotoolPath, arguments: ["search", "--name", "^Character Cards$"],
                    environment: environment)
                for window in String(decoding: found.standardOutput, as: UTF8.self).split(separator: "\n") {
                    let owner = try await ChildProcess.run(
                        PointerDriver.xdotoolPath, arguments: ["getwindowpid", String(window)], environment: environment
                    )
                    let pid = String(decoding: owner.standardOutput, as: UTF8.self)
                    if pid.trimmingCharacters(in: .whitespacesAndNewlines) == "\(app.pid)" { return String(window) }
                }
                try await Task.sleep(for: .milliseconds(100))
            }
            throw AppError(message: "no window of the app (process \(app.pid)):\n\(app.text)")
        }

        /// The middle of row `index` of the app's `list` (`left` or `right`), for an app whose window is at `corner`;
        /// `lower` picks a point in the row's lower half.
        func row(
            _ list: String, _ index: Int, lower: Bool = false, corner: ScreenPoint = ScreenPoint(x: 0, y: 0)
        ) -> ScreenPoint {
            ScreenPoint(x: corner.x + (list == "left" ? 100 : 420), y: corner.y + 40 * index + (lower ? 32 : 12))
        }

        /// Drags with the pointer from `start` to `end` as a user does, from the app (see
        /// `PointerDriver.dragPublishingSession`).
        func drag(from start: ScreenPoint, to end: ScreenPoint) async throws {
            try await pointer.dragPublishingSession(from: start, to: end, runtimeDirectory: runtime)
        }

        /// Clicks at `point` as a user does: the pointer rests over the row before the button goes down and after it
        /// comes up, so GTK has picked the row under it (a press in the same instant as the move can reach the list
        /// before GTK knows where the pointer is).
        func click(_ point: ScreenPoint) async throws {
            try await pointer.move(to: point)
            try await Task.sleep(for: .milliseconds(200))
            try await pointer.press()
            try await pointer.release()
            try await Task.sleep(for: .milliseconds(200))
        }

        /// Selects the card at `point` and presses Ctrl+C until `app` says it copied `name`. A click that a slow app
        /// (the thread sanitizer's) has not yet taken leaves another card selected; it is clicked again, at most three
        /// times. A copy of the wrong card after that is left for the caller's expectation to report.
        func copy(_ name: String, at point: ScreenPoint, in app: BackgroundChild) async throws {
            for _ in 0..<3 {
                try await click(point)
                let copies = app.text.components(separatedBy: "copied ").count
                _ = try await ChildProcess.run(
                    PointerDriver.xdotoolPath, arguments: ["key", "ctrl+c"], environment: environment)
                let deadline = ContinuousClock.now + .seconds(30)
                while app.text.components(separatedBy: "copied ").count == copies, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(50))
                }
                if app.text.split(separator: "\n").last(where: { $0.hasPrefix("copied ") }) == "copied \(name)" {
                    return
                }
            }
        }

        /// Waits until `app` has printed `line` (a whole line).
        func expectLine(
            _ line: String, from app: BackgroundChild, sourceLocation: SourceLocation = #_sourceLocation
        )
            async throws
        {
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
            try await drag(from: row("right", 0), to: ScreenPoint(x: 420, y: 600))
            // Then Han dropped at the top of the left list: it was still in the right one, at 0.
            try await drag(from: row("right", 0), to: row("left", 0))
            try await expectLine("moved Han from right to left at 0", from: app)
            #expect(
                changes(app) == [
                    "moved Luke from left to right at 1", "moved Leia from left to left at 1",
                    "moved Han from right to left at 0",
                ], "\(app.text)")
        }

        @Test("in seed 002's family tab, a reorder counts the rows shown; seed 003's pinned add row stays first")
        func tabAndPinnedRow() async throws {
            let app = try await startApp([
                "--cards", "a:family,b:work,c:family,d:family,e:work,f:family|", "--tab", "family", "--add-row",
            ])
            defer { app.kill() }
            // The tab shows + a c d f. The add row does not drag, and nothing is dropped above it.
            try await pointer.drag(from: row("left", 0), to: row("right", 1), steps: 6)
            try await drag(from: row("left", 1), to: row("left", 0))
            // a dropped on the upper half of d's row goes between c and d: + c a d f, which is + b c a d e f in all.
            try await drag(from: row("left", 1), to: row("left", 3))
            try await expectLine("moved a from left to left at 3", from: app)
            #expect(changes(app) == ["moved a from left to left at 3"], "\(app.text)")
        }

        @Test("copy puts a card's JSON and text on GTK's clipboard for xclip; paste makes a card of xclip's text")
        func clipboardBothWays() async throws {
            let app = try await startApp(["--cards", "Luke,Leia|Han"])
            defer { app.kill() }
            try await copy("Leia", at: row("left", 1), in: app)
            try await expectLine("copied Leia", from: app)
            let text = try await ChildProcess.run(
                SystemTool.path("xclip"), arguments: ["-selection", "clipboard", "-o", "-t", "UTF8_STRING"],
                environment: environment)
            #expect(String(decoding: text.standardOutput, as: UTF8.self) == "Leia")
            let json = try await ChildProcess.run(
                SystemTool.path("xclip"), arguments: ["-selection", "clipboard", "-o", "-t", "application/json"],
                environment: environment)
            let card = try JSONSerialization.jsonObject(with: Data(json.standardOutput)) as? [String: Any]
            #expect(card?["name"] as? String == "Leia")

            let owner = try BackgroundChild(
                "/bin/sh", ["-c", "printf 'Obi-Wan' | /usr/bin/xclip -selection clipboard -i -quiet"],
                output: directory.appendingPathComponent("xclip.out"), environment: environment)
            defer { owner.kill() }
            try await Task.sleep(for: .milliseconds(300))
            try await click(row("right", 0))
            _ = try await ChildProcess.run(
                PointerDriver.xdotoolPath, arguments: ["key", "ctrl+v"], environment: environment)
            try await expectLine("pasted Obi-Wan into right at 1", from: app)
        }

        @Test(
            "drags out to a GTK 4 peer give it the card's text; a GTK 4 peer's text dropped on a list becomes a card",
            .enabled(if: gtk4PythonPresent, "needs GTK 4 for Python (Debian: python3-gi, gir1.2-gtk-4.0)"))
        func dragsWithAGTKPeer() async throws {
            let app = try await startApp(["--cards", "Luke,Leia|Han"])
            defer { app.kill() }
            let out = directory.appendingPathComponent("peer-received.txt")
            let script = repositoryFile("Tests/Interop/gtk4_dnd_peer.py").path
            let target = try BackgroundChild(
                SystemTool.path("python3"),
                [
                    script, "target", "--title", "peer target", "--accept", "text/plain;charset=utf-8", "--out",
                    out.path,
                    "--prefer", "copy", "--width", "200", "--height", "150", "--timeout", "120",
                ],
                output: directory.appendingPathComponent("target.out"), environment: environment)
            defer { target.kill() }
            #expect(try await target.wait(for: "\"ready\""), "\(target.text)")
            try await pointer.place(try await pointer.window(titled: "peer target"), at: ScreenPoint(x: 700, y: 0))
            try await drag(from: row("left", 0), to: ScreenPoint(x: 800, y: 75))
            #expect(try await target.wait(for: "\"drop\""), "\(target.text)")
            #expect(FileManager.default.contents(atPath: out.path) == Data("Luke".utf8))
            // A copy: the app keeps Luke and says nothing.
            #expect(!app.text.contains("removed"), "\(app.text)")

            let offered = directory.appendingPathComponent("ben.txt")
            try Data("Ben".utf8).write(to: offered)
            let source = try BackgroundChild(
                SystemTool.path("python3"),
                [
                    script, "source", "--title", "peer source", "--offer", "text/plain;charset=utf-8", offered.path,
                    "--actions", "copy", "--width", "200", "--height", "150", "--timeout", "120",
                ],
                output: directory.appendingPathComponent("source.out"), environment: environment)
            defer { source.kill() }
            #expect(try await source.wait(for: "\"ready\""), "\(source.text)")
            try await pointer.place(try await pointer.window(titled: "peer source"), at: ScreenPoint(x: 700, y: 300))
            try await pointer.drag(from: ScreenPoint(x: 800, y: 375), to: row("right", 1), steps: 6)
            try await expectLine("dropped Ben into right at 1", from: app)
        }

        /// Starts the Python GTK 4 peer (`Tests/Interop/gtk4_dnd_peer.py`) with `arguments`, titled `title`, and places
        /// its window's top-left corner at `corner`.
        func startPeer(_ arguments: [String], title: String, at corner: ScreenPoint) async throws -> BackgroundChild {
            let peer = try BackgroundChild(
                SystemTool.path("python3"),
                [repositoryFile("Tests/Interop/gtk4_dnd_peer.py").path] + arguments + [
                    "--title", title, "--width", "200", "--height", "150", "--timeout", "120",
                ],
                output: directory.appendingPathComponent("\(title).out"), environment: environment)
            #expect(try await peer.wait(for: "\"ready\""), "\(peer.text)")
            try await pointer.place(try await pointer.window(titled: title), at: corner)
            return peer
        }

        @Test(
            "bytes that make no card, and a source that dies mid-transfer, fail that drop alone with a typed error",
            .enabled(if: gtk4PythonPresent, "needs GTK 4 for Python (Debian: python3-gi, gir1.2-gtk-4.0)"))
        func badDropsFailAlone() async throws {
            let app = try await startApp(["--cards", "Luke|Han"])
            defer { app.kill() }
            let blank = directory.appendingPathComponent("blank.txt")
            try Data("  \n".utf8).write(to: blank)
            let source = try await startPeer(
                ["source", "--offer", "text/plain;charset=utf-8", blank.path, "--actions", "copy,move"],
                title: "blank source", at: ScreenPoint(x: 700, y: 300))
            defer { source.kill() }
            try await pointer.drag(from: ScreenPoint(x: 800, y: 375), to: row("right", 1), steps: 6)
            try await expectLine(
                "drop failed: commitFailed The destination could not take the items: TransferError.decodingFailed: "
                    + "An empty text makes no card. (in public.utf8-plain-text). Nothing moved; the source keeps its "
                    + "items.", from: app)
            // The failed drop finished with no action, so GTK's source keeps its item although it offered a move.
            #expect(try await source.wait(for: "\"delete_data\": false"), "\(source.text)")
            source.kill()

            // 192 MiB of text, served by GTK in INCR chunks: the source is killed while the app reads it.
            let large = directory.appendingPathComponent("large.txt")
            try Data(repeating: UInt8(ascii: "x"), count: 192 << 20).write(to: large)
            let dying = try await startPeer(
                ["source", "--offer", "text/plain;charset=utf-8", large.path, "--actions", "copy"],
                title: "dying source", at: ScreenPoint(x: 700, y: 300))
            defer { dying.kill() }
            try await pointer.drag(from: ScreenPoint(x: 800, y: 375), to: row("left", 1), steps: 6)
            try await Task.sleep(for: .milliseconds(300))
            dying.kill()
            let failed = try await app.wait(for: "drop failed: ", within: .seconds(60))
            #expect(failed, "\(app.text)")
            #expect(!app.text.contains("dropped"), "\(app.text)")
            // The app goes on: its lists still hold Luke and Han, and a move between them works.
            try await drag(from: row("left", 0), to: row("right", 0))
            try await expectLine("moved Luke from left to right at 0", from: app)
        }

        @Test(
            "a GTK 4 target that dies while it reads a moved card leaves the card where it was",
            .enabled(if: gtk4PythonPresent, "needs GTK 4 for Python (Debian: python3-gi, gir1.2-gtk-4.0)"))
        func targetDiesMidMove() async throws {
            let app = try await startApp(["--cards", "Luke,Leia|Han"])
            defer { app.kill() }
            let target = try await startPeer(
                [
                    "target", "--accept", "application/json", "--out", directory.appendingPathComponent("t.json").path,
                    "--prefer", "move", "--chunk-delay", "3000",
                ], title: "dying target", at: ScreenPoint(x: 700, y: 0))
            defer { target.kill() }
            try await drag(from: row("left", 0), to: ScreenPoint(x: 800, y: 75))
            #expect(try await target.wait(for: "\"receiving\""), "\(target.text)")
            target.kill()
            try await Task.sleep(for: .seconds(2))
            #expect(!app.text.contains("removed"), "\(app.text)")
            // Luke is still the left list's first row: it moves to the right list.
            try await drag(from: row("left", 0), to: row("right", 0))
            try await expectLine("moved Luke from left to right at 0", from: app)
        }

        @Test("a card dragged to transferkit drop moves there through the session: its JSON is written, then removed")
        func dragToTransferkitDrop() async throws {
            let app = try await startApp(["--cards", "Luke,Leia|Han"])
            defer { app.kill() }
            let out = directory.appendingPathComponent("dropped", isDirectory: true)
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            let drop = try BackgroundChild(
                TransferKitExecutable.defaultPath, ["drop", "-o", out.path, "--backend", "x11"],
                output: directory.appendingPathComponent("drop.out"), environment: environment)
            defer { drop.kill() }
            try await pointer.place(try await pointer.window(titled: "transferkit drop"), at: ScreenPoint(x: 700, y: 0))
            try await drag(from: row("left", 0), to: ScreenPoint(x: 800, y: 60))
            let removed = try await app.wait(for: "removed Luke from left\n", within: .seconds(30))
            #expect(removed, "app:\n\(app.text)\ntransferkit drop:\n\(drop.text)")
            #expect(try await drop.wait(for: "com.example.character-card"), "\(drop.text)")
            let files = try FileManager.default.contentsOfDirectory(atPath: out.path)
            let written = try #require(files.first.map { out.appendingPathComponent($0) }, "\(drop.text)")
            let card = try JSONSerialization.jsonObject(with: Data(contentsOf: written)) as? [String: Any]
            #expect(card?["name"] as? String == "Luke")
        }

        @Test("transferkit drag of a file into the app makes a card named after it")
        func transferkitDragIntoTheApp() async throws {
            let app = try await startApp(["--cards", "Luke|Han"])
            defer { app.kill() }
            let file = directory.appendingPathComponent("Yoda.txt")
            try Data("Jedi master".utf8).write(to: file)
            let drag = try BackgroundChild(
                TransferKitExecutable.defaultPath, ["drag", "--and-exit", "--backend", "x11", file.path],
                output: directory.appendingPathComponent("drag.out"), environment: environment)
            defer { drag.kill() }
            try await pointer.place(try await pointer.window(titled: "transferkit drag"), at: ScreenPoint(x: 700, y: 0))
            try await pointer.drag(from: ScreenPoint(x: 800, y: 60), to: row("left", 0), steps: 6)
            try await expectLine("dropped Yoda into left at 0", from: app)
        }

        /// Drags Luke from the left list of one app to the right list of another (stored lists in `store`),
        /// `killing` one process at `event`; returns both processes' lists as they are when opened again.
        func moveBetweenProcesses(
            killing killed: String? = nil, at event: RemoteSessionEvent? = nil
        ) async throws
            -> (source: String, target: String, sourceOutput: String, targetOutput: String)
        {
            let pause = { (role: String) in killed == role ? ["--pause-at", event?.rawValue ?? ""] : [] }
            let sourceStore = directory.appendingPathComponent("source-store").path
            let targetStore = directory.appendingPathComponent("target-store").path
            let source = try await startApp(
                ["--cards", "Luke,Leia|", "--store", sourceStore] + pause("source"), at: ScreenPoint(x: 0, y: 0))
            defer { source.kill() }
            let target = try await startApp(
                ["--cards", "|Han", "--store", targetStore] + pause("target"), at: ScreenPoint(x: 0, y: 420))
            defer { target.kill() }
            try await drag(from: row("left", 0), to: row("right", 0, corner: ScreenPoint(x: 0, y: 420)))
            if let killed, let event {
                let victim = killed == "source" ? source : target
                #expect(try await victim.wait(for: "paused at \(event.rawValue)"), "\(victim.text)")
                victim.kill()
                try await Task.sleep(for: .seconds(1))
            } else {
                try await expectLine("dropped Luke into right at 0", from: target)
                try await expectLine("removed Luke from left", from: source)
            }
            let sourceText = source.text
            let targetText = target.text
            source.kill()
            target.kill()
            try await Task.sleep(for: .milliseconds(300))
            func open(_ store: String) async throws -> String {
                let opened = try await ChildProcess.run(
                    Self.app, arguments: ["--store", store, "--print"], input: [], environment: environment)
                return String(decoding: opened.standardOutput, as: UTF8.self)
            }
            return (try await open(sourceStore), try await open(targetStore), sourceText, targetText)
        }

        @Test("two processes of the app move a card exactly once")
        func twoProcessesMoveOnce() async throws {
            let lists = try await moveBetweenProcesses()
            #expect(lists.source == "left: Leia\nright: \n", "\(lists.sourceOutput)")
            #expect(lists.target == "left: \nright: Luke Han\n", "\(lists.targetOutput)")
        }

        /// Who is killed at which step of the drop, and which process's list must hold the card.
        static let killTable: [(String, RemoteSessionEvent, String)] = [
            ("source", .commitReceived, "target"),
            ("target", .committedLocally, "source"),
            ("target", .decided, "target"),
        ]

        @Test("killing either app at a step of the drop leaves the card in exactly one list", arguments: killTable)
        func killedMidDrop(process: String, event: RemoteSessionEvent, expected: String) async throws {
            let lists = try await moveBetweenProcesses(killing: process, at: event)
            let places = [
                lists.source.contains("Luke") ? "source" : nil, lists.target.contains("Luke") ? "target" : nil,
            ]
            .compactMap { $0 }
            #expect(
                places == [expected],
                "source \(lists.source), target \(lists.target)\n\(lists.sourceOutput)\n\(lists.targetOutput)")
        }
    }
#endif
