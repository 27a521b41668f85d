import Foundation
import Testing
import TransferKit
import UniformTypes

@Suite("TransferCodable", .timeLimit(.minutes(5)))
struct CodableTests {
    @Test("The seeds' Model round trips through a provider as sorted-key JSON")
    func modelRoundTrip() async throws {
        let model = Model(name: "Panther", character: "calm", favorite: "tea")
        let provider = TransferProvider(object: model)
        provider.loadOptions.allowsInProcessFastPath = false

        let data = try await provider.loadDataRepresentation(for: Model.contentType)
        #expect(String(decoding: data, as: UTF8.self) == #"{"character":"calm","favorite":"tea","name":"Panther"}"#)
        let copy = try await provider.loadObject(ofClass: Model.self)
        #expect(copy == model)
        #expect(copy !== model)
    }

    @Test(
        "The seeds' CustomModule round trips with its custom enum coding",
        arguments: [
            (CustomModuleType.button, #"{"type":"button"}"#), (.switch, #"{"type":"switch"}"#),
        ])
    func customModuleRoundTrip(type: CustomModuleType, json: String) async throws {
        let provider = TransferProvider(object: CustomModule(type: type))
        provider.loadOptions.allowsInProcessFastPath = false

        let data = try await provider.loadDataRepresentation(for: .json)
        #expect(String(decoding: data, as: UTF8.self) == json)
        let copy = try await provider.loadObject(ofClass: CustomModule.self)
        #expect(copy.type == type)
    }

    @Test("An unknown enum string is a decodingFailed error carrying the DecodingError and its coding path")
    func unknownEnumString() async throws {
        let provider = TransferProvider(data: Data(#"{"type":"slider"}"#.utf8), type: CustomModule.contentType)

        let error = await #expect(throws: TransferError.self) {
            try await provider.loadObject(ofClass: CustomModule.self)
        }
        #expect(error?.code == .decodingFailed)
        let cause = try #require(error?.cause as? DecodingError)
        guard case .dataCorrupted(let context) = cause else {
            Issue.record("Expected dataCorrupted, got \(cause)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["type"])
        #expect(error?.message.contains("at type") == true)
        #expect(error?.message.contains("slider") == true)
    }

    @Test("Decoding through init(transferEncodedData:) reports a missing key with its path")
    func missingKey() throws {
        let error = #expect(throws: TransferError.self) {
            try Model(transferEncodedData: Data(#"{"name":"a","character":"b"}"#.utf8))
        }
        #expect(error?.code == .decodingFailed)
        #expect(error?.cause is DecodingError)
        #expect(error?.message.contains("missing key 'favorite'") == true)
    }

    @Test("A property-list coding writes a binary property list and reads it back")
    func propertyList() async throws {
        let settings = Settings(volume: 7, name: "loud")
        let data = try settings.transferEncodedData()
        #expect(data.starts(with: Data("bplist".utf8)))
        #expect(try Settings(transferEncodedData: data) == settings)

        let provider = TransferProvider(object: settings)
        provider.loadOptions.allowsInProcessFastPath = false
        #expect(try await provider.loadObject(ofClass: Settings.self) == settings)
    }

    @Test("A custom encoder/decoder pair is used for both directions, and its errors become decodingFailed")
    func customCoding() throws {
        let pair = Pair(key: "colour", value: "blue")
        #expect(try pair.transferEncodedData() == Data("colour=blue".utf8))
        #expect(try Pair.object(from: Data("a=b=c".utf8), type: Pair.contentType) == Pair(key: "a", value: "b=c"))

        let error = #expect(throws: TransferError.self) { try Pair(transferEncodedData: Data("nothing".utf8)) }
        #expect(error?.code == .decodingFailed)
    }

    @Test("A type offers an extra representation and keeps the default encoding for its content type")
    func extraRepresentation() async throws {
        let card = Card(title: "Ace", score: 1.5)
        let provider = TransferProvider(object: card)

        #expect(provider.registeredTypes == [Card.contentType, .utf8PlainText])
        #expect(try await provider.loadDataRepresentation(for: .plainText) == Data("Ace".utf8))
        #expect(try await provider.loadDataRepresentation(for: Card.contentType) == card.transferEncodedData())
    }

    @Test("A value that cannot be encoded is an encodingFailed error carrying the EncodingError")
    func encodingFailure() async throws {
        let provider = TransferProvider(object: Card(title: "NaN", score: .nan))
        let error = await #expect(throws: TransferError.self) {
            try await provider.loadDataRepresentation(for: Card.contentType)
        }
        #expect(error?.code == .encodingFailed)
        #expect(error?.cause is EncodingError)
    }

    @Test("The default loadData refuses a type the content type does not conform to")
    func defaultLoadDataRefusesOtherTypes() async throws {
        let error = await #expect(throws: TransferError.self) {
            try await Model(name: "a", character: "b", favorite: "c").loadData(for: .png, progress: TransferProgress())
        }
        #expect(error?.code == .unavailableRepresentation)
    }

    @Test("Metadata values encode as natural JSON and decode back")
    func metadataJSON() throws {
        let metadata: [String: TransferMetadataValue] = [
            "name": "clip", "count": 3, "ratio": 0.5, "pinned": true, "tags": ["a", 1], "nested": ["k": false],
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(metadata)
        #expect(
            String(decoding: data, as: UTF8.self)
                == #"{"count":3,"name":"clip","nested":{"k":false},"pinned":true,"ratio":0.5,"tags":["a",1]}"#)
        #expect(try JSONDecoder().decode([String: TransferMetadataValue].self, from: data) == metadata)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(TransferMetadataValue.self, from: Data("null".utf8))
        }
    }
}
