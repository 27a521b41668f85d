import Foundation
import Testing
import TransferDisplayTestSupport
import TransferKitTestSupport

@testable import TransferClipboard
@testable import TransferDesktop
@testable import TransferDisplay

/// Xvfb and xdotool, the tools of the X11 drag-and-drop tests.
let xdndToolsPresent = x11ToolsPresent && SystemTool.exists("xdotool")

/// TransferKit's own X11 window for drag and drop, under a private Xvfb.
@Suite(
    "X11 drag-and-drop window", .serialized, .timeLimit(.minutes(5)),
    .enabled(if: xdndToolsPresent, "needs Xvfb, xclip and xdotool (Debian: xvfb, xclip, xdotool)"))
final class X11DesktopWindowTests {
    let server: XvfbServer

    init() async throws {
        server = try await XvfbServer.start(screen: "1024x768x24")
    }

    deinit {
        server.stop()
    }

    /// The value of `property` on `window`, read through `backend`'s connection.
    static func property(
        _ name: String, of window: X11.ID, on backend: X11Backend
    ) async throws -> X11Reply.Property {
        let atom = try await backend.atom(name)
        return try X11Reply.property(
            try await backend.connection.request(
                X11RequestEncoder.getProperty(window, property: atom, delete: false, length: 1024)))
    }

    @Test("The window is mapped with its title, class and XdndAware 5, and close destroys it")
    func openAndClose() async throws {
        let backend = try await X11Backend.connect(environment: server.environment, timeout: patience)
        defer { backend.close() }
        let observer = try await X11Backend.connect(environment: server.environment, timeout: patience)
        defer { observer.close() }
        let title = "transferkit window \(UUID().uuidString.prefix(8)) ✓"
        let handle = try await backend.openWindow(title: title, lines: ["first line", "second line"])
        let window = try #require(handle as? X11DesktopWindow)
        #expect(handle.identifier == "0x" + String(window.window, radix: 16))
        #expect(backend.dragAndDropProtocolName == "X11 (XDND 5)")

        let aware = try await Self.property("XdndAware", of: window.window, on: observer)
        #expect(aware.type == X11.Atom.atom)
        #expect(aware.items32 == [5])
        let netName = try await Self.property("_NET_WM_NAME", of: window.window, on: observer)
        #expect(String(decoding: netName.value, as: UTF8.self) == title)
        let name = try await Self.property("WM_NAME", of: window.window, on: observer)
        #expect(name.type == X11.Atom.string)
        #expect(name.value == Data(title.replacingOccurrences(of: "✓", with: "?").utf8))
        let wmClass = try await Self.property("WM_CLASS", of: window.window, on: observer)
        #expect(wmClass.value == Data("transferkit\0TransferKit\0".utf8))

        // A stock tool finds it by its title among the visible windows.
        let found = try await runTool(
            [SystemTool.path("xdotool"), "search", "--onlyvisible", "--name", String(title.prefix(28))],
            environment: server.environment)
        #expect(found.status == 0)
        #expect(String(decoding: found.output, as: UTF8.self).split(separator: "\n") == ["\(window.window)"])

        try await handle.show(lines: ["a much longer line than before, which widens the window to fit it"])
        handle.close()
        // Another connection's requests may be handled before the destruction: poll, with a deadline.
        var gone = false
        let deadline = ContinuousClock.now + .seconds(30)
        while !gone, ContinuousClock.now < deadline {
            let search = try await runTool(
                [SystemTool.path("xdotool"), "search", "--name", String(title.prefix(28))],
                environment: server.environment)
            gone = search.status != 0
            if !gone { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(gone)
        let error = await #expect(throws: ClipboardError.self) { try await handle.show(lines: ["x"]) }
        #expect(error?.code == .cancelled)
    }
}
