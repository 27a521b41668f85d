import Foundation
import Testing
import TransferKit
import TransferKitCLI
import TransferKitPlatform

@testable import BookShelf
@testable import CharacterCards
@testable import ModulePalette

@Suite("Examples/Archives", .timeLimit(.minutes(5)))
struct ArchivesTests {
    /// The archive each example writes with `--write-archive`, by file name without extension.
    static func freshArchive(named name: String) async throws -> TransferArchive? {
        switch name {
        case "character-cards": try await CharacterCardsExample.makeArchive()
        case "module-palette": try await ModulePaletteExample.makeArchive()
        case "book-shelf": try await BookShelfExample.makeArchive()
        default: nil
        }
    }

    @Test func everyExampleHasBothForms() throws {
        let names = try committedArchives().map(\.lastPathComponent)
        #expect(
            names == [
                "book-shelf.json", "book-shelf.transferkit", "character-cards.json", "character-cards.transferkit",
                "module-palette.json", "module-palette.transferkit",
            ])
    }

    @Test func committedBytesAreWhatTheExamplesWriteNow() async throws {
        for url in try committedArchives() {
            let name = url.deletingPathExtension().lastPathComponent
            let archive = try #require(try await Self.freshArchive(named: name), "no example writes \(name)")
            let format = try #require(TransferArchiveFormat(pathExtension: url.pathExtension))
            #expect(
                try archive.encoded(as: format) == Data(contentsOf: url),
                "\(url.lastPathComponent) is stale: run swift run \(name) --write-archive Examples/Archives")
        }
    }

    @Test func transferkitCheckPassesOnEveryArchive() async throws {
        let paths = try committedArchives().map(\.path)
        let result = try await runProduct("transferkit", ["check"] + paths)
        #expect(result.status == 0, "\(result.outputText)\(result.errorText)")
        #expect(result.outputText.hasSuffix("\n20 passed, 0 failed\n"), "\(result.outputText)")
    }

    @Test func transferkitCheckPassesAcrossProcesses() async throws {
        let paths = try committedArchives().map(\.path)
        let result = try await runProduct("transferkit", ["check", "--cross-process"] + paths)
        #expect(result.status == 0, "\(result.outputText)\(result.errorText)")
        #expect(!result.outputText.contains("✗"))
    }

    @Test(arguments: ["character-cards.transferkit", "character-cards.json"])
    func cardsToolDecodesCardsWithTheirRealType(file: String) async throws {
        let path = archivesDirectory.appendingPathComponent(file).path
        let result = try await runProduct("CharacterCards", ["check", "--cross-process", path])
        #expect(result.status == 0, "\(result.outputText)\(result.errorText)")
        // With Model registered, both representations are decoded and re-encoded, not just checksummed.
        #expect(result.outputText.components(separatedBy: "com.example.character-card ✓ bytes").count == 4)
        #expect(result.outputText.components(separatedBy: "public.utf8-plain-text ✓ bytes").count == 4)
        #expect(result.outputText.hasSuffix("3 passed, 0 failed\n"))
    }
}
