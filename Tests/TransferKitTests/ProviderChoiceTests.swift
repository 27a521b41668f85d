import Foundation
import Testing
import TransferKit
import UniformTypes

@Suite("Choosing a representation", .timeLimit(.minutes(5)))
struct ProviderChoiceTests {
    /// Registered in this (fidelity) order; each loader returns its type's identifier.
    static let registered: [UniformType] = [.png, .jpeg, .utf8PlainText, .json]

    static func makeProvider() -> TransferProvider {
        let provider = TransferProvider()
        for type in registered {
            provider.registerDataRepresentation(for: type) { _ in Data(type.identifier.utf8) }
        }
        return provider
    }

    static let cases: [(wanted: [UniformType], expected: UniformType?)] = [
        ([.png], .png),  // exact
        ([.image], .png),  // supertype: the first conforming in fidelity order
        ([.data], .png),  // a far supertype
        ([.jpeg, .png], .jpeg),  // the reader's preference before fidelity
        ([.text], .utf8PlainText),  // two conform (utf8 text, JSON): fidelity decides
        ([.json, .text], .json),  // preference again
        ([.pdf, .plainText], .utf8PlainText),  // an unmet preference is skipped
        ([.pdf], nil),  // nothing conforms
        ([.utf8PlainText, .image], .utf8PlainText),
    ]

    @Test("Reader preference first, then fidelity order, matched by conformance", arguments: cases)
    func choiceRule(wanted: [UniformType], expected: UniformType?) async throws {
        let provider = Self.makeProvider()
        #expect(provider.canLoadObject(ofClass: Probe.self) == false)  // no preference outside the task local
        try await Probe.$wanted.withValue(wanted) {
            #expect(provider.canLoadObject(ofClass: Probe.self) == (expected != nil))
            if let expected {
                let probe = try await provider.loadObject(ofClass: Probe.self)
                #expect(probe.type == expected)
                #expect(probe.data == Data(expected.identifier.utf8))
            } else {
                let error = await #expect(throws: TransferError.self) {
                    try await provider.loadObject(ofClass: Probe.self)
                }
                #expect(error?.code == .unavailableRepresentation)
            }
        }
    }

    @Test("Loading data by a supertype returns the registered subtype's bytes")
    func supertypeLoading() async throws {
        let provider = Self.makeProvider()
        #expect(try await provider.loadDataRepresentation(for: .image) == Data("public.png".utf8))
        #expect(provider.hasRepresentation(conformingTo: .image))
        #expect(provider.hasRepresentation(conformingTo: .item))
        #expect(!provider.hasRepresentation(conformingTo: .pdf))
    }

    @Test("An unavailable type is an error whose message lists the registered types")
    func unavailableListsRegistered() async throws {
        let provider = Self.makeProvider()
        let error = await #expect(throws: TransferError.self) {
            try await provider.loadDataRepresentation(for: .pdf)
        }
        #expect(error?.code == .unavailableRepresentation)
        #expect(error?.message.contains("public.png, public.jpeg, public.utf8-plain-text, public.json") == true)
        #expect(error?.source == UniformType.pdf.identifier)
    }

    @Test("The first registration for a type wins; later ones for an equal type are ignored")
    func firstRegistrationWins() async throws {
        let provider = TransferProvider()
        #expect(provider.registerDataRepresentation(for: .png) { _ in Data("first".utf8) })
        #expect(!provider.registerDataRepresentation(for: UniformType("PUBLIC.PNG") ?? .png) { _ in Data() })
        #expect(!provider.registerFileRepresentation(for: .png) { _ in URL(fileURLWithPath: "/nonexistent") })
        #expect(provider.registeredTypes == [.png])
        #expect(try await provider.loadDataRepresentation(for: .png) == Data("first".utf8))
    }

    @Test("Representations describe their kind, visibility and whether they open in place")
    func representations() {
        let provider = TransferProvider()
        provider.registerObject(Card(title: "A", score: 1))
        provider.registerFileRepresentation(for: .png, openInPlace: true) { _ in URL(fileURLWithPath: "/x.png") }
        provider.registerDataRepresentation(for: .pdf, visibility: .ownProcess) { _ in Data() }

        #expect(
            provider.representations.map(\.description) == [
                "com.example.card (object, all)", "public.utf8-plain-text (object, ownProcess)",
                "public.png (file, all)", "com.adobe.pdf (data, ownProcess)",
            ])
        #expect(provider.registeredTypes(visibleTo: .otherProcesses) == [Card.contentType, .png])
        #expect(provider.registeredTypes(visibleTo: .ownProcess).count == 4)
        #expect(provider.registeredTypes(openableInPlace: true) == [.png])
        #expect(provider.registeredTypes(openableInPlace: false) == [Card.contentType, .utf8PlainText, .pdf])
    }

    @Test("registerObject narrows visibility to the more private of its argument and the object's own")
    func objectVisibilityNarrowing() {
        let provider = TransferProvider()
        #expect(provider.registerObject(Card(title: "A", score: 1), visibility: .ownProcess) == 2)
        #expect(provider.registeredTypes(visibleTo: .otherProcesses).isEmpty)
        #expect(TransferVisibility.all.narrowed(by: .ownProcess) == .ownProcess)
        #expect(TransferVisibility.ownProcess.narrowed(by: .all) == .ownProcess)
    }

    @Test("The fast path hands over the same class instance; with it off, a decoded copy")
    func fastPath() async throws {
        let model = Model(name: "Panther", character: "calm", favorite: "tea")
        let provider = TransferProvider(object: model)

        #expect(try await provider.loadObject(ofClass: Model.self) === model)
        provider.loadOptions = TransferProvider.LoadOptions(allowsInProcessFastPath: false)
        let copy = try await provider.loadObject(ofClass: Model.self)
        #expect(copy !== model)
        #expect(copy == model)
    }

    @Test("The fast path serves lazily registered objects and value types")
    func lazyFastPath() async throws {
        let calls = Box(0)
        let card = Card(title: "Lazy", score: 2)
        let provider = TransferProvider()
        #expect(
            provider.registerObject(ofClass: Card.self) { _ in
                calls.update { $0 += 1 }
                return card
            } == 2)

        #expect(try await provider.loadObject(ofClass: Card.self) == card)
        #expect(try await provider.loadDataRepresentation(for: .utf8PlainText) == Data("Lazy".utf8))
        #expect(calls.value == 2)  // every load invokes the handler: loads are not coalesced
        provider.loadOptions.allowsInProcessFastPath = false
        #expect(try await provider.loadObject(ofClass: Card.self) == card)
    }

    @Test("suggestedName and metadata travel with the provider")
    func nameAndMetadata() {
        let provider = TransferProvider(data: Data(), type: .png)
        provider.suggestedName = "photo.png"
        provider.metadata["source"] = "camera"
        provider.metadata["size"] = ["w": 3, "h": 2]
        #expect(provider.suggestedName == "photo.png")
        #expect(
            provider.metadata == [
                "source": .string("camera"), "size": .dictionary(["w": .integer(3), "h": .integer(2)]),
            ])
    }

    @Test("isConcealed is a metadata flag that an archive carries to the providers it makes")
    func concealedTravelsThroughArchives() async throws {
        let provider = TransferProvider(data: Data("hunter2".utf8), type: .utf8PlainText)
        #expect(!provider.isConcealed)
        provider.isConcealed = true
        #expect(provider.metadata[TransferProvider.concealedMetadataKey] == .bool(true))
        for format in [TransferArchiveFormat.cbor, .json] {
            let bytes = try await TransferArchive(providers: [provider]).encoded(as: format)
            let received = try TransferArchive(decoding: bytes, format: format).makeProviders()
            #expect(received.first?.isConcealed == true, "\(format)")
        }
        provider.isConcealed = false
        #expect(provider.metadata.isEmpty)
        let plain = try await TransferArchive(providers: [provider]).encoded(as: .cbor)
        #expect(try TransferArchive(decoding: plain).makeProviders().first?.isConcealed == false)
    }

    @Test("isTransient, isAutoGenerated and expirationDate are metadata that archives carry")
    func lifetimeFlagsTravelThroughArchives() async throws {
        let provider = TransferProvider(data: Data("123456".utf8), type: .utf8PlainText)
        #expect(!provider.isTransient && !provider.isAutoGenerated && provider.expirationDate == nil)
        provider.isTransient = true
        provider.isAutoGenerated = true
        provider.expirationDate = Date(timeIntervalSince1970: 1_764_127_512.5)
        #expect(provider.metadata[TransferProvider.transientMetadataKey] == .bool(true))
        #expect(provider.metadata[TransferProvider.expirationMetadataKey] == .double(1_764_127_512.5))
        for format in [TransferArchiveFormat.cbor, .json] {
            let bytes = try await TransferArchive(providers: [provider]).encoded(as: format)
            let received = try #require(try TransferArchive(decoding: bytes, format: format).makeProviders().first)
            #expect(received.isTransient && received.isAutoGenerated, "\(format)")
            #expect(received.expirationDate == Date(timeIntervalSince1970: 1_764_127_512.5), "\(format)")
        }
        provider.metadata[TransferProvider.expirationMetadataKey] = .string("tomorrow")
        #expect(provider.expirationDate == nil)
        provider.isTransient = false
        provider.isAutoGenerated = false
        provider.expirationDate = nil
        #expect(provider.metadata.isEmpty)
    }
}
