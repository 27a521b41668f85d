import Foundation
import Testing
import TransferKit
import TransferKitCLI
import UniformTypes

@Suite("The standard registry's generic readers", .timeLimit(.minutes(5)))
struct StandardRegistryTests {
    @Test(
        "Plain text of every encoding decodes with TransferKit's String reader",
        arguments: [
            (UniformType.utf8PlainText, Data("hé".utf8)), (.plainText, Data([0xFF, 0xFE, 0x68, 0x00, 0xE9, 0x00])),
            (.utf16PlainText, Data([0x68, 0x00, 0xE9, 0x00])),
        ])
    func text(type: UniformType, data: Data) throws {
        let registry = TransferKitTool.standardRegistry()
        #expect(registry.reader(for: type) == String.self)
        #expect(try registry.object(from: data, type: type) as? String == "hé")
    }

    @Test("Bytes that are not text in their encoding are decodingFailed")
    func invalidText() {
        let error = #expect(throws: TransferError.self) {
            try TransferKitTool.standardRegistry().object(from: Data([0xC3, 0x28]), type: .utf8PlainText)
        }
        #expect(error?.code == .decodingFailed)
    }
}
