import Foundation
import Testing
import TransferKit
import TransferKitCLI
import TransferKitPlatform
import TransferKitTesting
import UniformTypes

@testable import ModulePalette

@Suite("ModulePalette", .timeLimit(.minutes(5)))
struct ModulePaletteTests {
    @Test(arguments: CustomModuleType.allCases)
    func moduleRoundTrips(type: CustomModuleType) async {
        await assertRoundTrip(CustomModule(type: type))
        await assertCrossProcessRoundTrip(CustomModule(type: type))
    }

    @Test(arguments: [(CustomModuleType.button, "button"), (.switch, "switch")])
    func enumEncodesAsTheSeedsStrings(type: CustomModuleType, string: String) async throws {
        let provider = TransferProvider(object: CustomModule(type: type))
        let data = try await provider.loadDataRepresentation(for: .customModule)
        #expect(String(decoding: data, as: UTF8.self) == #"{"type":"\#(string)"}"#)
    }

    @Test func unknownEnumValueIsADecodingFailureNamingTheValue() async throws {
        let provider = TransferProvider(data: Data(#"{"type":"slider"}"#.utf8), type: .customModule)
        let error = await #expect(throws: TransferError.self) {
            try await provider.loadObject(ofClass: CustomModule.self)
        }
        #expect(error?.code == .decodingFailed)
        #expect(error?.message.contains("Unknown module type 'slider'") == true)
        #expect(error?.message.contains("at type") == true, "the message names the coding path")
        let cause = try #require(error?.cause as? DecodingError)
        guard case .dataCorrupted(let context) = cause else {
            Issue.record("expected dataCorrupted, got \(cause)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["type"])
    }

    @Test func dropTargetProcessPrintsTheErrorAndExitsWithOne() async throws {
        let slider = TransferArchive.Representation(type: .customModule, data: Data(#"{"type":"slider"}"#.utf8))
        let button = try await TransferArchive(providers: [TransferProvider(object: CustomModule(type: .button))])
        let archive = TransferArchive(items: button.items + [.init(representations: [slider])])
        let result = try await runProduct("ModulePalette", ["--drop-target"], input: Array(archive.encoded(as: .cbor)))
        #expect(result.status == 1)
        #expect(result.outputText.hasPrefix("drew [ Button ]\ncannot draw: TransferError.decodingFailed: "))
        #expect(result.outputText.contains("Unknown module type 'slider'"))
        #expect(result.errorText.isEmpty)
    }
}
