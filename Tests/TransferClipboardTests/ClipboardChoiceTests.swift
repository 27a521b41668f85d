import Foundation
import Testing
import TransferKit
import UniformTypes

@testable import TransferClipboard
@testable import TransferDisplay

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

    /// The names browsers, toolkits and file managers commonly offer on the X11 and Wayland clipboards.
    static let commonOfferedNames = [
        "text/html", "text/uri-list", "image/png", "image/jpeg", "image/bmp", "image/gif", "image/svg+xml",
        "image/webp", "image/tiff", "UTF8_STRING", "STRING", "TEXT", "text/plain", "text/plain;charset=utf-8",
        "text/rtf", "application/rtf", "text/csv", "application/json", "application/xml", "application/pdf",
        "text/calendar", "text/vcard", "text/markdown", "application/x-kde4-urilist", "application/x-kde-cutselection",
        "application/x-kde-onlyReplaceEmpty", "x-special/gnome-copied-files", "x-special/nautilus-clipboard",
        "chromium/x-web-custom-data", "chromium/x-source-url", "chromium/x-renderer-taint", "text/x-moz-url",
        "text/x-moz-url-priv", "text/_moz_htmlcontext", "text/_moz_htmlinfo", "application/x-qt-image",
        "application/x-gtk-text-buffer-rich-text", "application/vnd.portal.files",
        "application/vnd.portal.filetransfer",
    ]

    @Test(
        "Common offered names map to declared types, never dyn.mime…, with or without the MIME database",
        arguments: commonOfferedNames)
    func commonNamesAreDeclared(name: String) throws {
        for catalog in [TypeCatalog.shared, TypeCatalog()] {
            let type = try #require(ClipboardTypeMapping.type(forOffered: name, catalog: catalog), "\(name)")
            #expect(!type.isDynamic, "\(name) maps to \(type)")
            #expect(catalog.declaration(for: type) != nil, "\(name) maps to \(type), which is not declared")
        }
    }

    @Test(
        "Other applications' file lists are URL lists that a reader of file URLs chooses",
        arguments: [
            "text/uri-list", "application/x-kde4-urilist",
        ])
    func fileListsAreFileURLs(name: String) throws {
        let type = try #require(ClipboardTypeMapping.type(forOffered: name))
        #expect(type == .uriList)
        #expect(type.conforms(to: .fileURL) && type.conforms(to: .url))
        #expect(TypeCatalog.shared.chooseRepresentation(offered: [.html, type], requested: [.fileURL]) == 1)
    }

    @Test("A URL list is offered as it is, and the file forms carry every URL of every provider")
    func urlListOffers() async throws {
        let files = [URL(fileURLWithPath: "/tmp/a.txt"), URL(fileURLWithPath: "/tmp/b.txt")]
        let providers = [TransferProvider(object: files), TransferProvider(object: URL(fileURLWithPath: "/tmp/c.txt"))]
        let offers = ClipboardTypeMapping.offers(
            for: providers, options: ClipboardWriteOptions(), includeX11Names: true, catalog: .shared)
        let list = try #require(offers.first { $0.target == "text/uri-list" })
        #expect(list.conversion == .identity && list.providerIndex == 0, "the list's own bytes")
        let gnome = try #require(offers.first { $0.target == "x-special/gnome-copied-files" })
        var bytes = Data()
        for try await chunk in try await ClipboardTypeMapping.stream(for: gnome, providers: providers) {
            bytes += chunk
        }
        #expect(
            String(decoding: bytes, as: UTF8.self) == "copy\nfile:///tmp/a.txt\nfile:///tmp/b.txt\nfile:///tmp/c.txt")
    }

    @Test(
        "Names without data map to nothing",
        arguments: [
            "TARGETS", "MULTIPLE", "SAVE_TARGETS", ClipboardTypeMapping.derivedName, ClipboardTypeMapping.expiresName,
            "application/x-nspasteboard-concealed-type", "x-kde-passwordManagerHint", "org.nspasteboard.TransientType",
        ])
    func metaTargets(name: String) {
        #expect(ClipboardTypeMapping.type(forOffered: name) == nil)
    }
}
