import Foundation
import Testing
import TransferKit
import TransferKitCLI
import TransferKitPlatform
import TransferKitTesting
import UniformTypes

@testable import CharacterCards

@Suite("CharacterCards", .timeLimit(.minutes(5)))
struct CharacterCardsTests {
    @Test(arguments: Model.samples)
    func cardRoundTripsThroughAnArchive(card: Model) async {
        await assertRoundTrip(card)
    }

    @Test func cardRoundTripsThroughTheCardsTool() async {
        // The example's own tool knows Model, so the child decodes and re-encodes it with its real type.
        await assertCrossProcessRoundTrip(
            Model.samples[0], executable: TransferKitExecutable.product(named: "CharacterCards"))
    }

    @Test func cardRoundTripsThroughTransferkit() async {
        await assertCrossProcessRoundTrip(Model.samples[1])
    }

    @Test func cardIsOfferedAsJSONAndText() async throws {
        let provider = TransferProvider(object: Model.samples[0])
        #expect(provider.registeredTypes == [.characterCard, .utf8PlainText])
        let text = try await provider.loadDataRepresentation(for: .plainText)
        #expect(String(decoding: text, as: UTF8.self) == "Luke — Jedi — blue milk")
        let json = try await provider.loadDataRepresentation(for: .json)
        #expect(String(decoding: json, as: UTF8.self) == #"{"character":"Jedi","favorite":"blue milk","name":"Luke"}"#)
    }

    @Test func plainTextFromAnotherAppBecomesACard() async throws {
        let provider = TransferProvider(data: Data("Rey — Scavenger — portion bread".utf8), type: .utf8PlainText)
        let card = try await provider.loadObject(ofClass: Model.self)
        #expect(card == Model(name: "Rey", character: "Scavenger", favorite: "portion bread"))
    }

    @Test func textWithoutThreeFieldsIsADecodingFailure() async {
        let provider = TransferProvider(data: Data("just a name".utf8), type: .utf8PlainText)
        let error = await #expect(throws: TransferError.self) { try await provider.loadObject(ofClass: Model.self) }
        #expect(error?.code == .decodingFailed)
        #expect(error?.message.contains("needs three fields") == true)
    }

    @Test func toolRegistryPrefersModelOverTheGenericTextReader() throws {
        let registry = try CardsTool.makeRegistry()
        #expect(registry.reader(for: .characterCard) == Model.self)
        #expect(registry.reader(for: .utf8PlainText) == Model.self)
    }

    @Test func cardsCommandPrintsTheCardsOfAnArchiveOnStandardInput() async throws {
        let bytes = try await CharacterCardsExample.makeArchive().encoded(as: .cbor)
        let result = try await runProduct("CharacterCards", ["cards", "-"], input: Array(bytes))
        #expect(result.status == 0, "\(result.errorText)")
        #expect(
            result.outputText
                == "card 0: Luke — Jedi — blue milk\ncard 1: Leia — General — Alderaan sunsets\n"
                + "card 2: Han — Smuggler — the Falcon\n")
    }
}
