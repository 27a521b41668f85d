import Foundation
import Testing
import TransferKit
import TransferKitPlatform
import TransferKitTestSupport

@testable import TransferClipboard

extension WaylandCompositor {
    /// sway's IPC socket, found in its runtime folder.
    func ipcSocket() throws -> String {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        guard let name = names.first(where: { $0.hasPrefix("sway-ipc.") && $0.hasSuffix(".sock") }) else {
            throw XvfbError(message: "sway's IPC socket is not in \(directory.path): \(names)")
        }
        return directory.appendingPathComponent(name).path
    }

    /// Runs `swaymsg -s SOCKET arguments` and returns its standard output.
    @discardableResult
    func swaymsg(_ arguments: [String]) async throws -> String {
        let result = try await runTool(
            ["/usr/bin/swaymsg", "-s", try ipcSocket()] + arguments, environment: environment)
        guard result.status == 0 else {
            throw XvfbError(message: "swaymsg \(arguments) exited with \(result.status): \(result.error)")
        }
        return String(decoding: result.output, as: UTF8.self)
    }

    /// The rectangle (x, y, width, height, in the output's pixels) of the window titled `title`, or nil while sway
    /// shows none.
    func windowRect(titled title: String) async throws -> (x: Int, y: Int, width: Int, height: Int)? {
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
    func waitForWindow(
        titled title: String, seconds: Int = 30
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

extension WaylandState {
    /// A machine whose registry announced `interfaces`, each at `version`, and that has finished its first round
    /// trip: ready to bind.
    static func announcing(_ interfaces: [String], version: UInt32) throws(ClipboardError) -> WaylandState {
        var machine = WaylandState()
        _ = try machine.getRegistry()
        let (callback, _) = try machine.startRoundTrip()
        for (index, interface) in interfaces.enumerated() {
            _ = machine.handle(.global(name: UInt32(index + 1), interface: interface, version: version), live: true)
        }
        _ = machine.handle(.done(callback: callback), live: true)
        _ = machine.handle(.deleteID(callback), live: false)
        return machine
    }
}

/// A title no other test uses.
func uniqueWindowTitle(_ stem: String) -> String {
    "\(stem) \(UInt32.random(in: 0...UInt32.max))"
}
