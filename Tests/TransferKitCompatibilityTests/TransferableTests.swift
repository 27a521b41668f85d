import Foundation
import Testing
import TransferKitCompatibility
import TransferKitTesting

extension UTType {
    static let card = UTType(exportedAs: "com.example.compatibility.card", conformingTo: .json)
    static let cardPreview = UTType(exportedAs: "com.example.compatibility.card-preview")
}

/// A CoreTransferable-style card: Codable first, then plain text through a `String` proxy (only for a titled
/// card), and a preview only this process sees.
struct Card: Codable, Equatable, Transferable {
    var title: String

    static var transferRepresentation: some TransferRepresentation {
        CodableRepresentation(contentType: .card)
            .suggestedFileName { "\($0.title).card" }
        DataRepresentation(exportedContentType: .cardPreview) { Data("preview of \($0.title)".utf8) }
            .visibility(.ownProcess)
        ProxyRepresentation(exporting: \.title, importing: { Card(title: $0) })
            .exportingCondition { !$0.title.isEmpty }
    }
}

/// A note stored as a file.
struct Note: Equatable, Transferable {
    var text: String

    static var transferRepresentation: some TransferRepresentation {
        FileRepresentation(contentType: .plainText) { note in
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("note-\(UUID().uuidString).txt")
            try Data(note.text.utf8).write(to: url)
            return SentTransferredFile(url)
        } importing: { received in
            Note(text: try String(contentsOf: received.file, encoding: .utf8))
        }
    }
}

/// Settings stored as a binary property list, and read from a legacy text form.
struct Settings: Codable, Equatable, Transferable {
    var volume: Int

    static var transferRepresentation: some TransferRepresentation {
        CodableRepresentation(
            contentType: .binaryPropertyList, encoder: PropertyListEncoder(), decoder: PropertyListDecoder())
        DataRepresentation(importedContentType: .utf8PlainText) { data in
            Settings(volume: Int(String(decoding: data, as: UTF8.self)) ?? 0)
        }
    }
}

private func loadTransferable<T: Transferable>(
    _ type: T.Type, from provider: NSItemProvider
) async -> Result<T, any Error> {
    await withCheckedContinuation { continuation in
        _ = provider.loadTransferable(type: type) { continuation.resume(returning: $0) }
    }
}

@Suite("CoreTransferable", .timeLimit(.minutes(5)))
struct TransferableTests {
    @Test("The content types follow the declaration's order, visibility and import directions")
    func contentTypes() {
        #expect(Card.exportedContentTypes() == [.card, .utf8PlainText])
        #expect(Card.exportedContentTypes(visibility: .ownProcess) == [.card, .cardPreview, .utf8PlainText])
        #expect(Card.importedContentTypes() == [.card] + String.readableTypes)
    }

    @Test("A registered card offers its representations in order; the condition drops the proxy for an empty title")
    func register() async throws {
        let provider = NSItemProvider()
        provider.register(Card(title: "Luke"))
        #expect(provider.registeredTypeIdentifiers == [UTType.card, .cardPreview, .utf8PlainText].map(\.identifier))
        #expect(provider.suggestedName == "Luke.card")
        let (text, _) = await completion { provider.loadObject(ofClass: String.self, completionHandler: $0) }
        #expect(text == "Luke")
        let (preview, _) = await completion {
            provider.loadDataRepresentation(forTypeIdentifier: UTType.cardPreview.identifier, completionHandler: $0)
        }
        #expect(preview == Data("preview of Luke".utf8))
        let untitled = NSItemProvider()
        untitled.register(Card(title: ""))
        #expect(untitled.registeredTypeIdentifiers == [UTType.card, .cardPreview].map(\.identifier))
        let archive = try await TransferArchive(providers: [provider.transferProvider])
        #expect(archive.items[0].representations.map(\.type) == [.card, .utf8PlainText])
    }

    @Test("A card round trips through its Codable representation, which wins over the proxy")
    func roundTrip() async throws {
        let provider = NSItemProvider()
        provider.register(Card(title: "Leia"))
        #expect(try await loadTransferable(Card.self, from: provider).get() == Card(title: "Leia"))
        let both = NSItemProvider()
        both.registerDataRepresentation(forTypeIdentifier: kUTTypeUTF8PlainText, visibility: .all) { completion in
            completion(Data("from text".utf8), nil)
            return nil
        }
        both.registerDataRepresentation(forTypeIdentifier: UTType.card.identifier, visibility: .all) { completion in
            completion(Data(#"{"title":"from json"}"#.utf8), nil)
            return nil
        }
        #expect(try await loadTransferable(Card.self, from: both).get() == Card(title: "from json"))
    }

    @Test("Plain text alone imports as a card through the String proxy")
    func proxyImport() async throws {
        let provider = NSItemProvider(item: Data("Han".utf8) as NSData, typeIdentifier: kUTTypePlainText as String)
        #expect(try await loadTransferable(Card.self, from: provider).get() == Card(title: "Han"))
        #expect(try await loadTransferable(String.self, from: provider).get() == "Han")
    }

    @Test("A file representation exports its file's bytes and imports from a temporary file")
    func fileRepresentation() async throws {
        let provider = NSItemProvider()
        provider.register(Note(text: "file note"))
        let (data, _) = await completion {
            provider.loadDataRepresentation(forTypeIdentifier: kUTTypePlainText, completionHandler: $0)
        }
        #expect(data == Data("file note".utf8))
        #expect(try await loadTransferable(Note.self, from: provider).get() == Note(text: "file note"))
    }

    @Test("A card survives archives and a child process that re-encodes its JSON and its text")
    func crossProcess() async throws {
        let card = TransferableValue(Card(title: "Chewie"))
        try await roundTripped(card)
        let probe = TransferKitExecutable.product(named: "transferkit-compatibility-probe")
        #expect(try await crossProcessRoundTripped(card, executable: probe) == card)
    }

    @Test("A custom encoder and decoder are used; an import-only representation only imports")
    func customCoding() async throws {
        #expect(Settings.exportedContentTypes() == [.binaryPropertyList])
        #expect(Settings.importedContentTypes() == [.binaryPropertyList, .utf8PlainText])
        let provider = NSItemProvider()
        provider.register(Settings(volume: 11))
        let (data, _) = await completion {
            provider.loadDataRepresentation(forTypeIdentifier: kUTTypeBinaryPropertyList, completionHandler: $0)
        }
        #expect(data?.starts(with: Data("bplist".utf8)) == true)
        #expect(try await loadTransferable(Settings.self, from: provider).get() == Settings(volume: 11))
        let text = NSItemProvider(item: "7" as NSString, typeIdentifier: nil)
        #expect(try await loadTransferable(Settings.self, from: text).get() == Settings(volume: 7))
    }

    @Test("Bad bytes and missing types give Apple's codes")
    func errors() async {
        let bad = NSItemProvider(item: Data("{".utf8) as NSData, typeIdentifier: UTType.card.identifier)
        let decoding = await loadTransferable(Card.self, from: bad)
        #expect(domainAndCode(decoding.failure)! == (NSItemProviderErrorDomain, -1100))
        let png = NSItemProvider(item: Data([0x89]) as NSData, typeIdentifier: kUTTypePNG as String)
        let missing = await loadTransferable(Card.self, from: png)
        #expect(domainAndCode(missing.failure)! == (NSItemProviderErrorDomain, -1200))
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
