import Foundation
import Testing
import TransferKit
import UniformTypes

/// A catalogue that declares `com.example.card` as JSON, as the writing program does.
private func writersCatalog() throws -> (TypeCatalog, UniformType) {
    let catalog = TypeCatalog()
    let card = try #require(UniformType("com.example.card"))
    try catalog.register(
        [UniformTypeDeclaration(identifier: card, conformsTo: [.json], tags: [.filenameExtension: ["card"]])],
        as: .exported)
    return (catalog, card)
}

private func cardProvider(catalog: TypeCatalog, card: UniformType) -> TransferProvider {
    let provider = TransferProvider(catalog: catalog)
    provider.registerDataRepresentation(for: card) { _ in Data(#"{"name":"Ryu"}"#.utf8) }
    provider.registerDataRepresentation(for: .utf8PlainText) { _ in Data("Ryu".utf8) }
    return provider
}

@Suite("Archives carry their types' declarations from providers to providers", .timeLimit(.minutes(5)))
struct ArchiveDeclarationProviderTests {
    @Test("TransferArchive(providers:) declares the provider's own types; a reader that never declared them loads JSON")
    func inMemory() async throws {
        let (catalog, card) = try writersCatalog()
        let archive = try await TransferArchive(providers: [cardProvider(catalog: catalog, card: card)])
        #expect(archive.declarations.map(\.identifier) == [card])
        for format in TransferArchiveFormat.allCases {
            let received = try TransferArchive(decoding: try archive.encoded(as: format))
            let reader = TypeCatalog()
            let providers = received.makeProviders(catalog: reader)
            let json = try await providers[0].loadDataRepresentation(for: .json)
            #expect(String(decoding: json, as: UTF8.self) == #"{"name":"Ryu"}"#)
            #expect(!reader.isDeclared(card))
        }
    }

    @Test("declaringTypes: false leaves them out")
    func optedOut() async throws {
        let (catalog, card) = try writersCatalog()
        let archive = try await TransferArchive(
            providers: [cardProvider(catalog: catalog, card: card)], declaringTypes: false)
        #expect(archive.declarations.isEmpty)
        let providers = archive.makeProviders(catalog: TypeCatalog())
        let error = await #expect(throws: TransferError.self) {
            _ = try await providers[0].loadDataRepresentation(for: .json)
        }
        #expect(error?.code == .unavailableRepresentation)
    }

    @Test("the streaming writer declares the same types as the in-memory archive")
    func streaming() async throws {
        let (catalog, card) = try writersCatalog()
        var bytes = Data()
        do {
            var writer = TransferArchiveWriter { bytes.append(contentsOf: $0) }
            try await writer.write(providers: [cardProvider(catalog: catalog, card: card)])
        }
        let inMemory = try await TransferArchive(providers: [cardProvider(catalog: catalog, card: card)])
        #expect(bytes == (try inMemory.encoded(as: .cbor)))
        #expect(try TransferArchive(decoding: bytes).declarations.map(\.identifier) == [card])
    }

    @Test("a registry over an archive's catalogue finds the JSON reader for a declared card")
    func registryUsingCarriedCatalog() async throws {
        let (catalog, card) = try writersCatalog()
        let archive = try await TransferArchive(providers: [cardProvider(catalog: catalog, card: card)])
        let registry = TransferRegistry(catalog: TypeCatalog())
        try registry.register(JSONObjectReader.self)
        #expect(registry.reader(for: card) == nil)
        let carried = registry.using(archive.carriedDeclarations(in: TypeCatalog()).catalog)
        #expect(carried.reader(for: card).map(ObjectIdentifier.init) == ObjectIdentifier(JSONObjectReader.self))
        #expect(registry.reader(for: card) == nil)
    }
}

/// Reads any JSON document, for the registry test.
private struct JSONObjectReader: TransferProviderReading {
    static var readableTypes: [UniformType] { [.json] }
    static func object(from data: Data, type: UniformType) throws -> JSONObjectReader { JSONObjectReader() }
}
