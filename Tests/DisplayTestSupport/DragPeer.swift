package import Foundation
import Testing
import TransferKitPlatform
package import TransferKitTestSupport

/// GTK 4 through Python and xdotool: the real toolkit and the pointer of the drag-and-drop tests.
package let gtk4DragPeerPresent =
    FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/gi/__init__.py")
    && ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib"].contains {
        FileManager.default.fileExists(atPath: "\($0)/girepository-1.0/Gtk-4.0.typelib")
    } && PointerDriver.isAvailable

/// What every drag-and-drop test under X11 starts with: a private Xvfb with room for two windows side by side, the
/// pointer of that server, and the peers' environment.
package final class DragAndDropBed: Sendable {
    package let server: XvfbServer
    package let pointer: PointerDriver

    private init(server: XvfbServer) {
        self.server = server
        pointer = PointerDriver(environment: server.environment)
    }

    /// Starts the server.
    package static func start() async throws -> DragAndDropBed {
        DragAndDropBed(server: try await XvfbServer.start(screen: "640x480x24"))
    }

    /// The peers' environment: this bed's Xvfb, GDK's and Qt's X11 backends.
    package var peerEnvironment: [String: String] {
        var environment = server.environment
        environment["GDK_BACKEND"] = "x11"
        environment["QT_QPA_PLATFORM"] = "xcb"
        return environment
    }

    /// Stops the server.
    package func stop() {
        server.stop()
    }
}

/// sway, setpriv, and GTK 4 through Python: the Wayland drag tests against a real toolkit.
package let waylandGTKDragPresent = waylandToolsPresent && gtk4DragPeerPresent

/// Qt 5 through Python (PyQt5) and xdotool: the second toolkit of the drag-and-drop tests.
package let qt5DragPeerPresent =
    FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/PyQt5/QtWidgets.abi3.so")
    && PointerDriver.isAvailable

/// One JSON line that a drag peer (`Tests/Interop/gtk4_dnd_peer.py`, `qt5_dnd_peer.py`) printed (see the GTK
/// script for each event's fields).
package struct DragPeerEvent: Decodable, Sendable, Equatable {
    package var event: String
    package var title: String?
    package var mode: String?
    package var mime: String?
    package var length: Int?
    package var sha256: String?
    package var action: String?
    package var deleteData: Bool?
    package var reason: String?
    package var message: String?
    package var formats: [String]?
    package var actions: [String]?
    /// The files a file-list peer (`gtk4_files_peer.py`) pasted or took in a drop, and their first bytes as text.
    package var paths: [String]?
    package var texts: [String?]?
    /// Whether a file-list peer's GTK offers the document portal's key.
    package var portal: Bool?

    package enum CodingKeys: String, CodingKey {
        case event, title, mode, mime, length, sha256, action, reason, message, formats, actions, paths, texts, portal
        case deleteData = "delete_data"
    }
}

/// A running drag peer: a GTK 4 (`gtk4_dnd_peer.py`) or Qt 5 (`qt5_dnd_peer.py`) window that is a drag source or
/// a drop target, killed when released.
///
/// `environment` names the display (`DISPLAY` or `WAYLAND_DISPLAY`) and the toolkit's backend (`GDK_BACKEND`,
/// `QT_QPA_PLATFORM`); its events are read from its output file as they arrive.
package final class DragPeer: Sendable {
    /// The toolkit of a peer, and its script under `Tests/Interop`.
    package enum Toolkit: String, Sendable {
        case gtk4 = "gtk4_dnd_peer.py"
        case qt5 = "qt5_dnd_peer.py"
        /// GTK 4 with a `Gdk.FileList`: copies, pastes, drags or drops files, as GTK's own applications do.
        case gtk4Files = "gtk4_files_peer.py"
    }

    /// The window's title, unique per test (for `xdotool search --name`).
    package let title: String
    /// The peer's process.
    package let process: BackgroundProcess
    /// Where its standard output and error go.
    package let outputFile: URL
    /// The `drag-begin` events that ``dragBegan()`` reported.
    private let begunDrags = SanitizedMutex(0)

    /// The width and height of the peer's window, in pixels.
    package static let windowSize = ScreenPoint(x: 200, y: 150)

    private init(
        toolkit: Toolkit, title: String, arguments: [String], environment: [String: String], directory: URL,
        sandbox: [String]? = nil
    ) throws {
        self.title = title
        outputFile = directory.appendingPathComponent("\(toolkit)-peer-\(UUID().uuidString).out")
        var environment = environment
        environment["NO_AT_BRIDGE"] = "1"
        environment["GSETTINGS_BACKEND"] = "memory"
        let script = repositoryFile("Tests/Interop/\(toolkit.rawValue)").path
        // In a sandbox, the script is one of the few host files there.
        let command = sandbox.map { [SystemTool.path("bwrap")] + $0 + ["--ro-bind", script, script] } ?? []
        process = try BackgroundProcess(
            command + [SystemTool.path("python3"), script] + arguments + [
                "--title", title, "--width", "\(Self.windowSize.x)", "--height", "\(Self.windowSize.y)",
                "--timeout", "240",
            ], environment: environment, outputFile: outputFile.path)
    }

    /// Starts a source window offering each `(MIME type, file)` of `offers` with `actions`.
    package static func source(
        _ toolkit: Toolkit = .gtk4, title: String, offers: [(mime: String, file: URL)],
        actions: [String] = ["copy", "move"],
        environment: [String: String], directory: URL
    ) throws -> DragPeer {
        try DragPeer(
            toolkit: toolkit, title: title,
            arguments: ["source", "--actions", actions.joined(separator: ",")]
                + offers.flatMap { ["--offer", $0.mime, $0.file.path] },
            environment: environment, directory: directory)
    }

    /// Starts a target window accepting `mimeTypes` with `actions`, proposing `prefer`, writing what it reads to
    /// `out`; `refuse` refuses every drop; `chunkDelayMilliseconds` slows the reading after each 64 KiB (GTK only: Qt
    /// reads a drop in one piece).
    package static func target(
        _ toolkit: Toolkit = .gtk4, title: String, accepting mimeTypes: [String], out: URL,
        actions: [String] = ["copy", "move"],
        prefer: String = "copy", refuse: Bool = false, chunkDelayMilliseconds: Int? = nil,
        environment: [String: String], directory: URL
    ) throws -> DragPeer {
        var arguments = [
            "target", "--accept", mimeTypes.joined(separator: ","), "--out", out.path, "--actions",
            actions.joined(separator: ","), "--prefer", prefer,
        ]
        if refuse { arguments.append("--refuse") }
        if let chunkDelayMilliseconds { arguments += ["--chunk-delay", "\(chunkDelayMilliseconds)"] }
        return try DragPeer(
            toolkit: toolkit, title: title, arguments: arguments, environment: environment, directory: directory)
    }

    /// Starts a GTK 4 file-list peer (`gtk4_files_peer.py`) in `mode` (`copy`, `paste`, `drag-source`,
    /// `drop-target`) with `files`, in a `bwrap` sandbox when `sandbox` gives its arguments.
    package static func files(
        _ mode: String, files: [URL] = [], title: String, environment: [String: String], directory: URL,
        sandbox: [String]? = nil
    ) throws -> DragPeer {
        try DragPeer(
            toolkit: .gtk4Files, title: title,
            arguments: [mode] + (files.isEmpty ? [] : ["--files"] + files.map(\.path)), environment: environment,
            directory: directory, sandbox: sandbox)
    }

    /// Every event printed so far, in order.
    package var events: [DragPeerEvent] {
        let text = String(decoding: FileManager.default.contents(atPath: outputFile.path) ?? Data(), as: UTF8.self)
        return text.split(whereSeparator: \.isNewline).compactMap { line in
            guard line.hasPrefix("{") else { return nil }
            return try? JSONDecoder().decode(DragPeerEvent.self, from: Data(line.utf8))
        }
    }

    /// Everything the peer printed (its events and the toolkit's warnings), for failure messages.
    package var transcript: String {
        String(decoding: FileManager.default.contents(atPath: outputFile.path) ?? Data(), as: UTF8.self)
    }

    /// The first event named one of `names`, polled until it is printed.
    ///
    /// - Throws: when the peer ends or `limit` passes first.
    package func waitForEvent(_ names: Set<String>, within limit: Duration = .seconds(45)) async throws -> DragPeerEvent
    {
        let deadline = ContinuousClock.now + limit
        while true {
            if let event = events.first(where: { names.contains($0.event) }) { return event }
            guard process.isRunning, ContinuousClock.now < deadline else {
                throw DragPeerError(
                    message:
                        "the drag peer '\(title)' printed none of \(names.sorted()) within \(limit):\n\(transcript)"
                )
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Whether a source peer said that another drag began (one more `drag-begin` than at the last call that said
    /// yes), waiting up to 15 seconds: the `started` of ``PointerDriver/drag(from:to:steps:interval:started:)``.
    @Sendable package func dragBegan() async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(15)
        while true {
            let begun = events.filter { $0.event == "drag-begin" }.count
            if begunDrags.withLock({ counted in
                defer { counted = max(counted, begun) }
                return begun > counted
            }) {
                return true
            }
            guard process.isRunning, ContinuousClock.now < deadline else { return false }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Waits for the window to be mapped, finds it and places its top-left corner at `corner`.
    package func place(at corner: ScreenPoint, with pointer: PointerDriver) async throws {
        _ = try await waitForEvent(["ready"])
        let window = try await pointer.window(titled: title)
        try await pointer.place(window, at: corner)
    }

    /// Kills the peer.
    package func stop() {
        process.stop()
    }
}

/// A drag peer that ended, or never printed what a test waited for.
package struct DragPeerError: Error {
    package var message: String

    /// An error that says `message`.
    package init(message: String) { self.message = message }
}
