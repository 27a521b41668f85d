import Foundation
import TransferKit
import TransferKitCLI
import TransferKitPlatform
import UniformTypes

/// Drags the seeds' character cards as JSON and plain text, packs them into an archive and hands it to another
/// process.
///
/// - `swift run CharacterCards` prints each step.
/// - `swift run CharacterCards --write-archive DIR` writes `character-cards.transferkit` and
///   `character-cards.json` into `DIR`.
/// - Any other arguments run the example's own tool (see ``CardsTool``), e.g.
///   `swift run CharacterCards check --cross-process Examples/Archives/character-cards.transferkit`.
@main
enum CharacterCardsExample {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            switch arguments.first {
            case nil:
                try await demonstrate()
            case "--write-archive":
                guard arguments.count == 2 else {
                    print("usage: CharacterCards --write-archive DIR")
                    exit(2)
                }
                try await writeArchives(to: URL(fileURLWithPath: arguments[1], isDirectory: true))
            default:
                let tool = try CardsTool.make()
                await tool.main()
            }
        } catch {
            print("CharacterCards: error: \(error)")
            exit(1)
        }
    }

    /// The archive of ``Model/samples``, one item per card.
    static func makeArchive() async throws -> TransferArchive {
        let providers = Model.samples.map { card in
            let provider = TransferProvider(object: card)
            provider.suggestedName = "\(card.name).card"
            return provider
        }
        return try await TransferArchive(providers: providers)
    }

    /// Writes the archive in both forms; the bytes are the same on every run.
    static func writeArchives(to directory: URL) async throws {
        let archive = try await makeArchive()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for format in TransferArchiveFormat.allCases {
            let url = directory.appendingPathComponent("character-cards.\(format.pathExtension)")
            try archive.encoded(as: format).write(to: url)
            print("wrote \(url.path)")
        }
    }

    static func demonstrate() async throws {
        print("CharacterCards: the seeds' Model, dragged as JSON and as plain text\n")

        print("1. Drag: each card becomes a provider with two representations")
        let luke = Model.samples[0]
        let provider = TransferProvider(object: luke)
        print("   \(luke): \(provider.registeredTypes.map(\.identifier).joined(separator: ", "))")

        print("2. Drop in the same process")
        let same = try await provider.loadObject(ofClass: Model.self)
        print("   loadObject(ofClass: Model.self) hands over the very same object: \(same === luke)")
        let json = try await provider.loadDataRepresentation(for: .json)
        print("   a JSON reader asks for public.json and gets the card: \(String(decoding: json, as: UTF8.self))")
        let text = try await provider.loadDataRepresentation(for: .plainText)
        print("   a text field asks for public.plain-text: \(String(decoding: text, as: UTF8.self))")

        print("3. Pack: an archive of all cards")
        let archive = try await makeArchive()
        let cbor = try archive.encoded(as: .cbor)
        let jsonArchive = try archive.encoded(as: .json)
        let start = cbor.prefix(3).map { String($0, radix: 16) }.joined(separator: " ")
        let sizes = "\(cbor.count) bytes of CBOR (starts \(start)), \(jsonArchive.count) of JSON"
        print("   \(archive.items.count) items → \(sizes)")

        print("4. Another process reads it: the archive goes to `\(CardsTool.name)` on its standard input")
        let executable = Bundle.main.executablePath ?? CommandLine.arguments[0]
        let extract = ["extract", "--type", "public.utf8-plain-text", "--item", "2", "-o", "-", "-"]
        for arguments in [["cards", "-"], extract] {
            let child = try await ChildProcess.run(executable, arguments: arguments, input: Array(cbor))
            print("   $ \(CardsTool.name) \(arguments.joined(separator: " "))   (exit \(child.status))")
            for line in (child.outputText + child.errorText).split(separator: "\n") { print("     \(line)") }
        }

        print("5. Cross-process check: the child decodes and re-encodes every card with the real Model type")
        let check = try await ChildProcess.run(
            executable, arguments: ["check", "--cross-process", "-"], input: Array(jsonArchive))
        print("   $ \(CardsTool.name) check --cross-process -   (exit \(check.status))")
        for line in (check.outputText + check.errorText).split(separator: "\n") { print("     \(line)") }

        print("6. Plain text from another app becomes a card too")
        let dropped = TransferProvider(data: Data("Rey — Scavenger — portion bread".utf8), type: .utf8PlainText)
        print("   \(try await dropped.loadObject(ofClass: Model.self))")
    }
}
