import Foundation
import Synchronization
import Testing
import TransferKit
import UniformTypes

@testable import TransferDisplay

/// The document portal's key among a file list's offered names, and how a reader trades it (no bus here: the
/// portal is absent, so every trade falls back; the real portal is in the integration tests).
@Suite("File lists and the document portal's key", .timeLimit(.minutes(2)))
struct DocumentPortalMappingTests {
    let keyNames = ["application/vnd.portal.filetransfer", "application/vnd.portal.files"]
    /// A portal on no bus at all.
    let noBus = DocumentPortalTransfers(environment: [:])

    @Test("A file and a URL list offer both key names after their own names, only when asked to; text offers none")
    func offers() throws {
        let file = TransferProvider(object: URL(fileURLWithPath: "/tmp/a.txt"))
        let names = ClipboardTypeMapping.offers(
            for: [file], options: ClipboardWriteOptions(), includeX11Names: true, portalKeys: true, catalog: .shared
        ).map(\.target)
        let list = try #require(names.firstIndex(of: "text/uri-list"))
        let key = try #require(names.firstIndex(of: keyNames[0]))
        #expect(list < key && names[key + 1] == keyNames[1], "\(names)")
        let without = ClipboardTypeMapping.offers(
            for: [file], options: ClipboardWriteOptions(), includeX11Names: true, catalog: .shared
        ).map(\.target)
        #expect(without == names.filter { !keyNames.contains($0) })

        let urls = TransferProvider(object: [URL(fileURLWithPath: "/tmp/a.txt"), URL(fileURLWithPath: "/tmp/b")])
        let listOffers = ClipboardTypeMapping.offers(
            for: [urls], options: ClipboardWriteOptions(), includeX11Names: false, portalKeys: true, catalog: .shared)
        #expect(listOffers.filter { keyNames.contains($0.target) }.map(\.conversion) == [.portalKey, .portalKey])
        #expect(
            try #require(listOffers.firstIndex { $0.target == "text/uri-list" })
                < #require(listOffers.firstIndex { $0.target == keyNames[0] }))

        let text = TransferProvider(data: Data("x".utf8), type: .utf8PlainText)
        let textOffers = ClipboardTypeMapping.offers(
            for: [text], options: ClipboardWriteOptions(), includeX11Names: false, portalKeys: true, catalog: .shared)
        #expect(!textOffers.contains { keyNames.contains($0.target) })
    }

    @Test("A key for a list that names another host's file or a web page is typeUnavailable")
    func keyForNoLocalFiles() async throws {
        let mixed = TransferProvider(object: [URL(fileURLWithPath: "/tmp/a"), URL(string: "https://example.com/b")!])
        let offer = try #require(
            ClipboardTypeMapping.offers(
                for: [mixed], options: ClipboardWriteOptions(), includeX11Names: false, portalKeys: true,
                catalog: .shared
            ).first { $0.target == keyNames[0] })
        let error = await #expect(throws: ClipboardError.self) {
            _ = try await ClipboardTypeMapping.stream(for: offer, providers: [mixed], portal: noBus)
        }
        #expect(error?.code == .typeUnavailable)
        #expect(error?.source == keyNames[0])
    }

    @Test("A key asked for with no session bus is protocolUnavailable")
    func keyWithoutBus() async throws {
        let file = TransferProvider(object: URL(fileURLWithPath: "/tmp/a.txt"))
        let offer = try #require(
            ClipboardTypeMapping.offers(
                for: [file], options: ClipboardWriteOptions(), includeX11Names: false, portalKeys: true,
                catalog: .shared
            ).first { $0.target == keyNames[1] })
        #expect(!noBus.offersKeys)
        let error = await #expect(throws: ClipboardError.self) {
            _ = try await ClipboardTypeMapping.stream(for: offer, providers: [file], portal: noBus)
        }
        #expect(error?.code == .protocolUnavailable)
    }

    @Test("On reading, the key names are no representations; the file list tries the key, then the owner's list")
    func readingFallsBackToTheList() async throws {
        let list = URL.uriList([URL(fileURLWithPath: "/tmp/a.txt")])
        let asked = Asked()
        let provider = ClipboardTypeMapping.provider(
            offering: [keyNames[0], keyNames[1], "text/uri-list", "x-special/gnome-copied-files"], catalog: .shared,
            portal: noBus
        ) { name, _ in
            asked.add(name)
            return TransferByteStream(data: name == "text/uri-list" ? list : Data("12\0".utf8))
        }
        #expect(provider.registeredTypes.first == .uriList)
        #expect(
            !provider.registeredTypes.contains { $0.identifier.hasPrefix("org.transferkit.portal") },
            "\(provider.registeredTypes)")
        let urls = try await provider.loadObject(ofClass: [URL].self)
        #expect(urls == [URL(fileURLWithPath: "/tmp/a.txt")])
        #expect(asked.names == [keyNames[0], "text/uri-list"])
    }

    @Test("A key with no list of its own is a file list read through the portal alone: its error, with no bus")
    func keyAlone() async throws {
        let provider = ClipboardTypeMapping.provider(offering: [keyNames[1]], catalog: .shared, portal: noBus) {
            _, _ in TransferByteStream(data: Data("12".utf8))
        }
        #expect(provider.registeredTypes == [.uriList])
        let error = await #expect(throws: TransferError.self) {
            _ = try await provider.loadObject(ofClass: [URL].self)
        }
        #expect(error?.code == .loaderFailed)
        #expect((error?.cause as? ClipboardError)?.code == .protocolUnavailable, "\(String(describing: error))")
    }

    @Test("Only paths under the portal's mount pass without the owner's list; no component may lead out of it")
    func pathsOutside() {
        let mount = "/run/user/1000/doc"
        let inside = ["/run/user/1000/doc/abc/a.txt", "/run/user/1000/doc/abc/b c.txt"]
        let outside = [
            "/etc/passwd", "/run/user/1000/doc", "/run/user/1000/docs/x", "/run/user/1000/doc/../../etc/passwd",
            "/run/user/1000/doc/abc/./a", "/run/user/1000/doc//a", "relative/a",
        ]
        #expect(DocumentPortalTransfers.pathsOutside(inside + outside, mountPoint: mount) == outside)
        #expect(
            DocumentPortalTransfers(environment: ["XDG_RUNTIME_DIR": "/run/user/7/"]).mountPoint == "/run/user/7/doc")
        #expect(DocumentPortalTransfers.trimmedKey("1234\0") == "1234")
        #expect(DocumentPortalTransfers.trimmedKey(" 1234\n") == "1234")
    }

    @Test("An empty key is protocolViolation, before any bus is asked")
    func emptyKey() async {
        let error = await #expect(throws: ClipboardError.self) {
            _ = try await noBus.retrieveFiles(key: "\0") { [] }
        }
        #expect(error?.code == .protocolViolation)
    }
}

/// The names a reader asked for, in order.
private final class Asked: Sendable {
    private let state = Mutex<[String]>([])
    func add(_ name: String) { state.withLock { $0.append(name) } }
    var names: [String] { state.withLock { $0 } }
}
