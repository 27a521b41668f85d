// Every product the README names, used a little each from an adopter's package: .ci/consumer builds it against
// TransferKit by path and by version (a tag in a bare clone), where SwiftPM refuses a product with unsafe flags.
import CBOR
import Cards
import Foundation
import Testing
import TransferArchive
import TransferClipboard
import TransferClipboardCLI
import TransferDesktop
import TransferImaging
import TransferKit
import TransferKitCLI
import TransferKitCompatibility
import TransferSessions
import UniformTypes

struct Row: TransferCodable, Identifiable {
    var id: String
    static var contentType: UniformType { .json }
}

@Test func typesCBORArchivesAndImages() throws {
    #expect(UniformType.png.conforms(to: .image))
    let names = try CBOREncoder().encode(["luke", "leia"])
    #expect(try CBORDecoder().decode([String].self, from: names) == ["luke", "leia"])
    let text = TransferArchive.Representation(type: .plainText, data: Data("Luke".utf8))
    let archive = TransferArchive(items: [TransferArchive.Item(representations: [text])])
    #expect(try TransferArchive(decoding: archive.encoded(as: .cbor)) == archive)
    let image = try RGBAImage(width: 1, height: 1, pixels: [255, 0, 0, 255])
    #expect(try RGBAImage(decoding: image.encoded(as: .png), as: .png) == image)
}

@Test func providersAppleSpellingsAndSessions() async throws {
    let provider = TransferProvider(object: Card(title: "Luke"))
    #expect(try await provider.loadObject(ofClass: Card.self) == Card(title: "Luke"))
    let apple = NSItemProvider(item: Data("Leia".utf8) as NSData, typeIdentifier: kUTTypePlainText as String)
    #expect(apple.hasItemConformingToTypeIdentifier(kUTTypeText as String))
    let first = TransferList([Row(id: "luke"), Row(id: "leia")])
    let second = TransferList([Row(id: "han")])
    let result = try await second.drop(try first.beginDrag(["luke"]), at: 0)
    #expect(result.operation == .move)
    #expect(second.elements.map(\.id) == ["luke", "han"])
}

@Test func theClipboardAndTheDesktopSayWhenThereIsNoDisplay() async throws {
    do {
        _ = try await Clipboard(environment: [:])
        Issue.record("a clipboard without a display")
    } catch let error as ClipboardError {
        #expect(error.code == .noDisplay)
    }
    do {
        _ = try await DesktopWindow.open(DesktopWindow.Options(title: "Cards", environment: [:]))
        Issue.record("a window without a display")
    } catch let error as ClipboardError {
        #expect(error.code == .noDisplay)
    }
}

@Test func aToolOfOnesOwnWithTheClipboardCommands() {
    let tool = TransferKitTool(
        name: "cards", commands: TransferKitTool.standardCommands() + TransferKitTool.clipboardCommands())
    #expect(tool.command(named: "pack") != nil)
    #expect(tool.command(named: "copy") != nil)
}
