import Foundation
import Testing
import TransferKit
import UniformTypes

/// A card with a Codable representation, a plain-text proxy (exported only for a non-empty title), a file
/// export with its own name, and an own-process-only data representation.
private struct TitleCard: Codable, Equatable, TransferRepresentable {
    var title: String

    static let cardType = UniformType(exportedAs: "com.example.representable-card", conformingTo: .json)
    static let privateType = UniformType(exportedAs: "com.example.representable-card.private")

    static var transferRepresentations: RepresentationList<TitleCard> {
        RepresentationList.codable(cardType).suggestedFileName { "\($0.title).card" }
        RepresentationList.data(privateType, exporting: { Data($0.title.utf8) }).visibility(.ownProcess)
        RepresentationList.proxy(
            exporting: { (card: TitleCard) in card.title }, importing: { TitleCard(title: $0) }
        )
        .exportingCondition { !$0.title.isEmpty }
    }
}

@Suite("TransferRepresentable", .timeLimit(.minutes(5)))
struct RepresentableTests {
    @Test("A provider offers the representations in order, with conditions, visibility and file names")
    func exportOrder() async throws {
        let provider = TransferProvider(object: TitleCard(title: "Luke"))
        #expect(provider.registeredTypes == [TitleCard.cardType, TitleCard.privateType, .utf8PlainText])
        #expect(provider.registeredTypes(visibleTo: .otherProcesses) == [TitleCard.cardType, .utf8PlainText])
        #expect(provider.suggestedName == "Luke.card")
        #expect(
            TransferProvider(object: TitleCard(title: "")).registeredTypes == [
                TitleCard.cardType, TitleCard.privateType,
            ])
        provider.loadOptions.allowsInProcessFastPath = false
        #expect(try await provider.loadDataRepresentation(for: .plainText) == Data("Luke".utf8))
        let name = try await provider.loadFileRepresentation(for: TitleCard.cardType) { $0.lastPathComponent }
        #expect(name == "Luke.card")
    }

    @Test("Plain text alone loads as a TitleCard through the String proxy")
    func proxyImport() async throws {
        let provider = TransferProvider(data: Data("Leia".utf8), type: .plainText)
        #expect(provider.canLoadObject(ofClass: TitleCard.self))
        #expect(try await provider.loadObject(ofClass: TitleCard.self) == TitleCard(title: "Leia"))
        #expect(TitleCard.readableTypes == [TitleCard.cardType] + String.readableTypes)
    }

    @Test("The Codable representation wins over the proxy when both are offered, in reader order")
    func readerOrder() async throws {
        let provider = TransferProvider()
        provider.registerDataRepresentation(for: .utf8PlainText) { _ in Data("text".utf8) }
        provider.registerDataRepresentation(for: TitleCard.cardType) { _ in Data(#"{"title":"json"}"#.utf8) }
        #expect(try await provider.loadObject(ofClass: TitleCard.self) == TitleCard(title: "json"))
    }

    @Test("Synchronous object(from:type:) refuses an asynchronous importer; a type no one imports fails")
    func synchronousImport() throws {
        let asynchronous = #expect(throws: TransferError.self) {
            try TitleCard.object(from: Data("x".utf8), type: .utf8PlainText)
        }
        #expect(asynchronous?.code == .decodingFailed)
        let unknown = #expect(throws: TransferError.self) { try TitleCard.object(from: Data(), type: .png) }
        #expect(unknown?.code == .decodingFailed)
        #expect(
            try TitleCard.object(from: Data(#"{"title":"a"}"#.utf8), type: TitleCard.cardType) == TitleCard(title: "a"))
    }

    @Test("Bad bytes through the Codable representation are decodingFailed; an unexported type is unavailable")
    func errors() async throws {
        let provider = TransferProvider(data: Data("{".utf8), type: TitleCard.cardType)
        let error = await #expect(throws: TransferError.self) { try await provider.loadObject(ofClass: TitleCard.self) }
        #expect(error?.code == .decodingFailed)
        let unexported = await #expect(throws: TransferError.self) {
            try await TitleCard(title: "").loadData(for: .utf8PlainText, progress: TransferProgress())
        }
        #expect(unexported?.code == .unavailableRepresentation)
    }

    @Test("A file representation exports by reading its file and imports through a temporary file")
    func fileRepresentation() async throws {
        struct Note: TransferRepresentable, Equatable {
            var text: String
            static var transferRepresentations: RepresentationList<Note> {
                RepresentationList.file(
                    .plainText,
                    exporting: { note in
                        let url = FileManager.default.temporaryDirectory.appendingPathComponent("note-\(UUID()).txt")
                        try Data(note.text.utf8).write(to: url)
                        return url
                    },
                    importing: { url in Note(text: try String(contentsOf: url, encoding: .utf8)) })
            }
        }
        let provider = TransferProvider(object: Note(text: "file"))
        provider.loadOptions.allowsInProcessFastPath = false
        #expect(try await provider.loadDataRepresentation(for: .plainText) == Data("file".utf8))
        #expect(try await provider.loadObject(ofClass: Note.self) == Note(text: "file"))
    }

    @Test("TransferCodable is the one-line case: one Codable representation of its content type")
    func transferCodableIsTheOneLineCase() {
        let representations = CustomModule.transferRepresentations.elements
        #expect(representations.map(\.kind) == [.codable])
        #expect(representations.map(\.exportedTypes) == [[CustomModule.contentType]])
        #expect(representations.map(\.importedTypes) == [[CustomModule.contentType]])
        #expect(!CustomModule.importsAsynchronously)
        #expect(TitleCard.importsAsynchronously)
    }

    @Test("A value the Codable representation cannot encode is encodingFailed")
    func encodingFailure() async throws {
        struct Infinite: Codable, TransferRepresentable {
            var value: Double
            static var transferRepresentations: RepresentationList<Infinite> {
                RepresentationList.codable(.json)
            }
        }
        let provider = TransferProvider(object: Infinite(value: .infinity))
        provider.loadOptions.allowsInProcessFastPath = false
        let error = await #expect(throws: TransferError.self) { try await provider.loadDataRepresentation(for: .json) }
        #expect(error?.code == .encodingFailed)
    }
}
