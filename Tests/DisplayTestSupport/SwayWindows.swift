import Foundation
import TransferKitPlatform
import TransferKitTestSupport

extension WaylandCompositor {
    /// sway's IPC socket, found in its runtime folder.
    package func ipcSocket() throws -> String {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        guard let name = names.first(where: { $0.hasPrefix("sway-ipc.") && $0.hasSuffix(".sock") }) else {
            throw XvfbError(message: "sway's IPC socket is not in \(directory.path): \(names)")
        }
        return directory.appendingPathComponent(name).path
    }

    /// Runs `swaymsg -s SOCKET arguments` and returns its standard output.
    @discardableResult
    package func swaymsg(_ arguments: [String]) async throws -> String {
        let result = try await runTool(
            [SystemTool.path("swaymsg"), "-s", try ipcSocket()] + arguments, environment: environment)
        guard result.status == 0 else {
            throw XvfbError(message: "swaymsg \(arguments) exited with \(result.status): \(result.error)")
        }
        return String(decoding: result.output, as: UTF8.self)
    }

    /// The rectangle (x, y, width, height, in the output's pixels) of the window titled `title`, or nil while sway
    /// shows none.
    package func windowRect(titled title: String) async throws -> (x: Int, y: Int, width: Int, height: Int)? {
        let tree = try await swaymsg(["-t", "get_tree", "-r"])
        guard let root = try JSONSerialization.jsonObject(with: Data(tree.utf8)) as? [String: Any] else { return nil }
        func find(_ node: [String: Any]) -> [String: Any]? {
            if node["name"] as? String == title { return node }
            for key in ["nodes", "floating_nodes"] {
                for child in node[key] as? [[String: Any]] ?? [] {
                    if let found = find(child) { return found }
                }
            }
            return nil
        }
        guard let node = find(root), let rect = node["rect"] as? [String: Any],
            let x = rect["x"] as? Int, let y = rect["y"] as? Int, let width = rect["width"] as? Int,
            let height = rect["height"] as? Int
        else { return nil }
        return (x, y, width, height)
    }

    /// Waits (polling, at most `seconds`) until sway shows a window titled `title`, and returns its rectangle.
    ///
    /// 60 s by default: in a whole-suite run on a loaded two-core machine, `transferkit drag`'s window once took more
    /// than 30 s to appear (each of that suite's tests then took over 100 s), and alone it appears within a second.
    package func waitForWindow(
        titled title: String, seconds: Int = 60
    ) async throws -> (x: Int, y: Int, width: Int, height: Int) {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if let rect = try await windowRect(titled: title) { return rect }
            try await Task.sleep(for: .milliseconds(50))
        }
        let tree = try await swaymsg(["-t", "get_tree", "-r"])
        throw XvfbError(message: "sway shows no window titled \(title) after \(seconds) s: \(tree)")
    }
}

extension WaylandCompositor {
    /// Makes the window titled `title` float with its top-left corner at (`x`, `y`) of the output, and waits until
    /// sway shows it there: sway floats a window of fixed size (GTK's unresizable ones) over the middle of the
    /// output, where it would cover a tiled one.
    package func place(titled title: String, at corner: (x: Int, y: Int)) async throws {
        _ = try await waitForWindow(titled: title)
        try await swaymsg([
            "[title=\"^\(title)$\"]", "floating", "enable,", "move", "absolute", "position",
            "\(corner.x)", "\(corner.y)",
        ])
        try await waitUntil("the window \(title) at \(corner)") {
            guard let rect = try await windowRect(titled: title) else { return false }
            return abs(rect.x - corner.x) <= 4 && abs(rect.y - corner.y) <= 40
        }
    }
}

/// A title no other test uses.
package func uniqueWindowTitle(_ stem: String) -> String {
    "\(stem) \(UInt32.random(in: 0...UInt32.max))"
}

/// Waits (polling, at most `seconds`) until `condition` holds; throws naming `what` when it does not.
package func waitUntil(_ what: String, seconds: Int = 30, _ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw XvfbError(message: "\(what) did not happen in \(seconds) s") }
        try await Task.sleep(for: .milliseconds(20))
    }
}
