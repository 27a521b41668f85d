import Foundation
import Testing
import TransferKit
import UniformTypes

@Suite("Archive and providers: archived items load like the originals", .timeLimit(.minutes(5)))
struct ArchiveProviderTests {
    @Test("Providers → archive → both forms → providers → loadObject gives the original object")
    func roundTrip() async throws {
        let card = Card(title: "Panther", score: 9.5)
        let provider = TransferProvider(object: card)
        provider.loadOptions = TransferProvider.LoadOptions(allowsInProcessFastPath: false)
        provider.suggestedName = "panther.card"
        provider.metadata = ["source": "test", "nested": ["depth": [1, 2.5]]]
        let progress = TransferProgress()
        let archive = try await TransferArchive(providers: [provider], progress: progress)
        #expect(progress.completedUnitCount == progress.totalUnitCount)
        for format in TransferArchiveFormat.allCases {
            let received = try TransferArchive(decoding: try archive.encoded(as: format))
            let providers = received.makeProviders()
            try #require(providers.count == 1)
            #expect(try await providers[0].loadObject(ofClass: Card.self) == card)
            #expect(providers[0].suggestedName == "panther.card")
            #expect(providers[0].metadata == provider.metadata)
        }
    }

    @Test("Representations visible only to their own process are never written")
    func ownProcessNotWritten() async throws {
        // Card registers public.utf8-plain-text with ownProcess visibility.
        let provider = TransferProvider(object: Card(title: "secret title", score: 1))
        provider.registerDataRepresentation(for: .png, visibility: .ownProcess) { _ in Data([1, 2, 3]) }
        provider.registerDataRepresentation(for: .data) { _ in Data([4]) }
        let archive = try await TransferArchive(providers: [provider])
        let types = archive.items.first?.representations.map(\.type)
        #expect(types == [Card.contentType, .data])
        let bytes = try archive.encoded(as: .cbor)
        #expect(bytes.firstRange(of: Data("utf8-plain-text".utf8)) == nil)
        #expect(bytes.firstRange(of: Data("public.png".utf8)) == nil)
    }

    @Test("Fidelity order and exact types are kept, even when an earlier type conforms to a later one")
    func fidelityOrder() async throws {
        let provider = TransferProvider()
        provider.registerDataRepresentation(for: .png) { _ in Data([1]) }
        provider.registerDataRepresentation(for: .image) { _ in Data([2]) }
        provider.registerDataRepresentation(for: .data) { _ in Data([3]) }
        let archive = try await TransferArchive(providers: [provider])
        let representations = try #require(archive.items.first?.representations)
        #expect(representations.map(\.type) == [.png, .image, .data])
        #expect(representations.map(\.data) == [Data([1]), Data([2]), Data([3])])
        let back = archive.makeProviders()[0]
        #expect(back.registeredTypes == [.png, .image, .data])
        #expect(try await back.loadDataRepresentation(for: .image) == Data([1]))
    }

    @Test("A failing load handler fails the archive with the provider's error")
    func failingLoader() async {
        struct Broken: Error {}
        let provider = TransferProvider()
        provider.registerDataRepresentation(for: .data) { _ in throw Broken() }
        await #expect(throws: TransferError.self) { _ = try await TransferArchive(providers: [provider]) }
    }
}
