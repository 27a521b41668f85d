import Foundation
import Testing
import TransferKit
import UniformTypes

@testable import TransferClipboard

@Suite("Clipboard backend choice and type mapping")
struct ClipboardChoiceTests {
    @Test("No display variable is noDisplay, naming both")
    func noDisplay() async {
        let error = await #expect(throws: ClipboardError.self) { _ = try await Clipboard(environment: [:]) }
        #expect(error?.code == .noDisplay)
        #expect(error?.message.contains("WAYLAND_DISPLAY") == true)
        #expect(error?.message.contains("DISPLAY") == true)
    }

    @Test("Wayland in this build is protocolUnavailable")
    func wayland() async {
        let error = await #expect(throws: ClipboardError.self) {
            _ = try await Clipboard(backend: .wayland, environment: ["WAYLAND_DISPLAY": "wayland-0"])
        }
        #expect(error?.code == .protocolUnavailable)
    }

    @Test("Automatic prefers DISPLAY while Wayland is not in; WAYLAND_DISPLAY alone is protocolUnavailable")
    func automatic() async {
        let waylandOnly = await #expect(throws: ClipboardError.self) {
            _ = try await Clipboard(environment: ["WAYLAND_DISPLAY": "wayland-0"])
        }
        #expect(waylandOnly?.code == .protocolUnavailable)
        #expect(waylandOnly?.message.contains("DISPLAY") == true)
        // Both set: X11 is tried (and here fails to connect, which shows it was X11).
        let both = await #expect(throws: ClipboardError.self) {
            _ = try await Clipboard(environment: ["WAYLAND_DISPLAY": "wayland-0", "DISPLAY": "/nonexistent/socket:0"])
        }
        #expect(both?.code == .connectionFailed)
    }

    @Test("A DISPLAY with nothing behind it is connectionFailed")
    func deadDisplay() async {
        let error = await #expect(throws: ClipboardError.self) {
            _ = try await Clipboard(backend: .x11, environment: ["DISPLAY": "/nonexistent/socket:0"])
        }
        #expect(error?.code == .connectionFailed)
    }

    @Test(
        "Offered names map back to uniform types",
        arguments: [
            ("text/plain;charset=utf-8", "public.utf8-plain-text"), ("UTF8_STRING", "public.utf8-plain-text"),
            ("STRING", "public.plain-text"), ("image/png", "public.png"), ("com.example.card", "com.example.card"),
            ("text/uri-list", UniformType.uriList.identifier),
        ])
    func backMapping(name: String, identifier: String) {
        #expect(ClipboardTypeMapping.type(forOffered: name)?.identifier == identifier)
    }

    @Test("Names without data map to nothing", arguments: ["TARGETS", "MULTIPLE", "SAVE_TARGETS"])
    func metaTargets(name: String) {
        #expect(ClipboardTypeMapping.type(forOffered: name) == nil)
    }
}
