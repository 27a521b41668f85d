import Foundation
import Testing
import TransferKit
import UniformTypes

@testable import TransferClipboard

@Suite("Clipboard backend choice and type mapping", .timeLimit(.minutes(5)))
struct ClipboardChoiceTests {
    @Test("No display variable is noDisplay, naming both")
    func noDisplay() async {
        let error = await #expect(throws: ClipboardError.self) { _ = try await Clipboard(environment: [:]) }
        #expect(error?.code == .noDisplay)
        #expect(error?.message.contains("Neither WAYLAND_DISPLAY nor DISPLAY is set") == true)
        #expect(error?.message.contains("DISPLAY=:0") == true, "it says what to set")
    }

    @Test("Wayland without its socket is connectionFailed; a relative name without XDG_RUNTIME_DIR is noDisplay")
    func wayland() async {
        let missing = await #expect(throws: ClipboardError.self) {
            _ = try await Clipboard(backend: .wayland, environment: ["WAYLAND_DISPLAY": "/nonexistent/wayland-0"])
        }
        #expect(missing?.code == .connectionFailed)
        let relative = await #expect(throws: ClipboardError.self) {
            _ = try await Clipboard(backend: .wayland, environment: ["WAYLAND_DISPLAY": "wayland-0"])
        }
        #expect(relative?.code == .noDisplay)
        #expect(relative?.message.contains("XDG_RUNTIME_DIR") == true)
    }

    @Test("Automatic tries Wayland first, then X11, and says both when both fail")
    func automatic() async {
        let waylandOnly = await #expect(throws: ClipboardError.self) {
            _ = try await Clipboard(environment: ["WAYLAND_DISPLAY": "/nonexistent/wayland-0"])
        }
        #expect(waylandOnly?.code == .connectionFailed)
        #expect(waylandOnly?.message.contains("Wayland") == true)
        let both = await #expect(throws: ClipboardError.self) {
            _ = try await Clipboard(
                environment: ["WAYLAND_DISPLAY": "/nonexistent/wayland-0", "DISPLAY": "/nonexistent/socket:0"])
        }
        #expect(both?.code == .connectionFailed)
        #expect(both?.message.contains("Wayland was tried first") == true)
        let x11Only = await #expect(throws: ClipboardError.self) {
            _ = try await Clipboard(environment: ["DISPLAY": "/nonexistent/socket:0"])
        }
        #expect(x11Only?.code == .connectionFailed)
        #expect(x11Only?.message.contains("Wayland") == false)
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
