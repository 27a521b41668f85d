import Foundation
import Testing
import TransferKit

@testable import TransferDisplay
@testable import UniformTypes

/// The bytes `offer` serves, collected.
private func served(_ offer: ClipboardTypeMapping.Offer, _ providers: [TransferProvider]) async throws -> Data {
    var bytes = Data()
    for try await chunk in try await ClipboardTypeMapping.stream(for: offer, providers: providers) { bytes += chunk }
    return bytes
}

@Suite("Text of other types offered as plain text, and the cut marks", .timeLimit(.minutes(5)))
struct TextOfferTests {
    static let plainNames = ["text/plain;charset=utf-8", "UTF8_STRING", "text/plain", "TEXT"]

    @Test(
        "a representation whose type is text is offered under the plain-text names too, after the derived marker",
        arguments: [UniformType.json, .phpScript, .shellScript, .xml])
    func textTypesAreText(type: UniformType) async throws {
        let bytes = Data("{\"ok\": \"✓\"}".utf8)
        let providers = [TransferProvider(data: bytes, type: type)]
        let offers = ClipboardTypeMapping.offers(
            for: providers, options: ClipboardWriteOptions(), includeX11Names: true, catalog: .shared)
        let names = offers.map(\.target)
        let marker = try #require(names.firstIndex(of: ClipboardTypeMapping.derivedName), "\(names)")
        for name in Self.plainNames {
            let index = try #require(names.firstIndex(of: name), "\(name) in \(names)")
            #expect(index > marker)
            let offer = try #require(offers.first { $0.target == name })
            #expect(offer.conversion == .utf8Text)
            #expect(try await served(offer, providers) == bytes)
        }
        #expect(!names.contains("STRING"))
        #expect(ClipboardTypeMapping.derivedNames(offered: names).isSuperset(of: Self.plainNames))
        // Wayland has no X11 names.
        let wayland = ClipboardTypeMapping.offers(
            for: providers, options: ClipboardWriteOptions(), includeX11Names: false, catalog: .shared
        ).map(\.target)
        #expect(wayland.contains("text/plain;charset=utf-8") && !wayland.contains("UTF8_STRING"))
    }

    @Test("a provider that offers plain text of its own, or no text at all, gets no checked text names")
    func noTextNamesWhenNotNeeded() {
        let html = TransferProvider(data: Data("<b>hi</b>".utf8), type: .html)
        let htmlOffers = ClipboardTypeMapping.offers(
            for: [html], options: ClipboardWriteOptions(), includeX11Names: true, catalog: .shared)
        // HTML derives its plain text through its converter: that serves the plain-text names, not the markup.
        #expect(!htmlOffers.contains { $0.conversion == .utf8Text })
        let png = TransferProvider(data: Data([0x89, 0x50]), type: .png)
        let pngOffers = ClipboardTypeMapping.offers(
            for: [png], options: ClipboardWriteOptions(), includeX11Names: true, catalog: .shared)
        #expect(!pngOffers.contains { $0.target == "UTF8_STRING" || $0.target == "text/plain" })
    }

    /// A JSON provider that streams `chunks`, and its offer under the plain-text name `name` (X11's names included).
    static func jsonOffered(
        as name: String, streaming chunks: [Data]
    ) throws -> (TransferProvider, ClipboardTypeMapping.Offer) {
        let provider = TransferProvider()
        provider.registerStreamRepresentation(for: .json) { _ in TransferByteStream(chunks: chunks) }
        let offers = ClipboardTypeMapping.offers(
            for: [provider], options: ClipboardWriteOptions(), includeX11Names: true, catalog: .shared)
        return (provider, try #require(offers.first { $0.target == name }))
    }

    @Test(
        "the checked text is UTF-8 across chunk boundaries, and bytes that are not refuse the paste with notText",
        arguments: [
            ([Data("ab".utf8), Data([0xE2, 0x9C]), Data([0x93, 0x21])], true),
            ([Data([0xF0]), Data([0x9F, 0x98]), Data([0x80])], true),
            ([Data("ok".utf8), Data([0xFF])], false),
            ([Data("ok".utf8), Data([0xE2, 0x9C])], false),
            ([Data([0xC0, 0x80])], false),
        ])
    func checkedChunks(chunks: [Data], isUTF8: Bool) async throws {
        let (provider, offer) = try Self.jsonOffered(as: "UTF8_STRING", streaming: chunks)
        if isUTF8 {
            #expect(try await served(offer, [provider]) == chunks.reduce(Data(), +))
        } else {
            let error = await #expect(throws: ClipboardError.self) { try await served(offer, [provider]) }
            #expect(error?.code == .notText)
            #expect(error?.message.contains("application/json") == true, "\(error?.message ?? "")")
        }
    }

    /// Streams of text cut short or followed by bad bytes, and the whole characters before the fault.
    static let faultyText: [([Data], Data)] = [
        ([Data("ok".utf8), Data([0xE2])], Data("ok".utf8)),
        ([Data([0x61, 0xE2, 0x9C])], Data("a".utf8)),
        ([Data([0x61, 0xE2]), Data([0x9C, 0xFF])], Data("a".utf8)),
    ]

    @Test(
        "only whole, checked characters are handed on: a faulty text gives a reader the bytes before it, then notText",
        arguments: faultyText)
    func nothingUncheckedIsHandedOn(chunks: [Data], before: Data) async throws {
        let (provider, offer) = try Self.jsonOffered(as: "text/plain;charset=utf-8", streaming: chunks)
        var received = Data()
        let error = await #expect(throws: ClipboardError.self) {
            for try await chunk in try await ClipboardTypeMapping.stream(for: offer, providers: [provider]) {
                received += chunk
            }
        }
        #expect(error?.code == .notText)
        #expect(received == before)
    }

    @Test("a cut offers KDE's mark (1) beside GNOME's; a copy offers neither cut mark")
    func cutMarks() async throws {
        let providers = [TransferProvider(object: URL(fileURLWithPath: "/tmp/a.txt"))]
        let cut = ClipboardTypeMapping.offers(
            for: providers, options: ClipboardWriteOptions(isCut: true), includeX11Names: true, catalog: .shared)
        let kde = try #require(cut.first { $0.target == "application/x-kde-cutselection" })
        #expect(try await served(kde, providers) == Data("1".utf8))
        let gnome = try #require(cut.first { $0.target == "x-special/gnome-copied-files" })
        #expect(try await served(gnome, providers) == Data("cut\nfile:///tmp/a.txt".utf8))
        // A provider marked cut is offered so without the option.
        providers[0].isCut = true
        let marked = ClipboardTypeMapping.offers(
            for: providers, options: ClipboardWriteOptions(), includeX11Names: true, catalog: .shared)
        #expect(marked.contains { $0.target == "application/x-kde-cutselection" })
        providers[0].isCut = false
        let copied = ClipboardTypeMapping.offers(
            for: providers, options: ClipboardWriteOptions(), includeX11Names: true, catalog: .shared)
        #expect(!copied.contains { $0.target == "application/x-kde-cutselection" })
    }

    @Test(
        "the clipboard offers every MIME name the system database gives a type, the declared one first",
        .enabled(if: FileManager.default.fileExists(atPath: "/usr/share/mime/globs2"), "needs shared-mime-info"))
    func databaseNamesAreOffered() throws {
        let catalog = TypeCatalog(lazilyImportingMIMEDatabaseFrom: [URL(fileURLWithPath: "/usr/share/mime")])
        let providers = [TransferProvider(data: Data("<?php echo 1;".utf8), type: .phpScript)]
        let names = ClipboardTypeMapping.offers(
            for: providers, options: ClipboardWriteOptions(), includeX11Names: true, catalog: catalog
        ).map(\.target)
        let declared = try #require(names.firstIndex(of: "text/php"), "\(names)")
        let database = try #require(names.firstIndex(of: "application/x-php"), "\(names)")
        #expect(declared < database)
    }
}
