import ExampleSupport
import Foundation
import TransferKit
import TransferKitCLI
import TransferSessions
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
                if try await TwoProcesses.run(arguments) { return }
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
            let child = try await ExampleProcess.run(executable, arguments: arguments, input: cbor)
            print("   $ \(CardsTool.name) \(arguments.joined(separator: " "))   (exit \(child.status))")
            for line in (child.outputText + child.errorText).split(separator: "\n") { print("     \(line)") }
        }

        print("5. Cross-process check: the child decodes and re-encodes every card with the real Model type")
        let check = try await ExampleProcess.run(
            executable, arguments: ["check", "--cross-process", "-"], input: jsonArchive)
        print("   $ \(CardsTool.name) check --cross-process -   (exit \(check.status))")
        for line in (check.outputText + check.errorText).split(separator: "\n") { print("     \(line)") }

        print("6. Plain text from another app becomes a card too")
        let dropped = TransferProvider(data: Data("Rey — Scavenger — portion bread".utf8), type: .utf8PlainText)
        print("   \(try await dropped.loadObject(ofClass: Model.self))")

        print("7. Seed 000's two table views as TransferLists: reorder within, move between, copy only when asked")
        for line in try await twoLists() { print("   \(line)") }

        print("8. The same move between two processes: this one is the destination, a child process the source")
        for line in try await betweenTwoProcesses() { print("   \(line)") }
    }

    /// Seed 000 across a process boundary: a child process (this executable, `session-source`) drags Han out of
    /// its stored list; this process connects and drops him into its own. Returns what each side reports.
    /// - Parameter executable: The CharacterCards executable that runs the source (this one by default).
    static func betweenTwoProcesses(
        executable: String = Bundle.main.executablePath ?? CommandLine.arguments[0]
    ) async throws -> [String] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cards-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        try TwoProcesses.StoredList(cards: Model.samples.map(TwoProcesses.StoredCard.init)).write(path("first.json"))
        try TwoProcesses.StoredList(cards: []).write(path("second.json"))
        let source = Task {
            try await ExampleProcess.run(
                executable, arguments: ["session-source", path("first.json"), path("socket"), path("record"), "Han"])
        }
        for _ in 0..<1000 where !FileManager.default.fileExists(atPath: path("socket")) {
            try await Task.sleep(for: .milliseconds(10))
        }
        let record = try SessionDecisionRecord(directory: URL(fileURLWithPath: path("record")))
        let destination = try await TwoProcesses.destination(
            list: path("second.json"), socket: path("socket"), record: record, timeout: .seconds(30)
        ) { _ in }
        let child = try await source.value
        let sourceLine = String(decoding: child.standardOutput, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return ["child process \(sourceLine) (exit \(child.status))", "this process \(destination)"]
    }

    /// Seed 000 on sessions: the cards in two lists; a reorder, two moves, a cancelled drag and a copy, with the
    /// lists and the card count after each.
    static func twoLists() async throws -> [String] {
        // A copy is a new card with its own identity (the name is the identity here).
        let copy: @Sendable (Model) -> Model = {
            Model(name: $0.name + "'", character: $0.character, favorite: $0.favorite)
        }
        let first = TransferList(Model.samples, makeCopy: copy)
        let second = TransferList([Model](), makeCopy: copy)
        var lines: [String] = []
        func record(_ step: String) {
            let names = [first, second].map { $0.elements.map(\.name).joined(separator: " ") }
            let total = first.elements.count + second.elements.count
            lines.append("\(step): [\(names[0])] [\(names[1])], \(total) cards")
        }
        record("start")
        let reorder = try await first.drop(try first.beginDrag(["Han"]), at: 0)
        record("drag Han to the top of the first list (\(reorder.operation), in place)")
        let move = try await second.drop(try first.beginDrag(["Luke"]), at: 0)
        record("drag Luke to the second list (\(move.operation))")
        _ = try await second.drop(try first.beginDrag(["Leia"]), at: 1)
        record("drag Leia below him (move)")
        let abandoned = try second.beginDrag(["Luke"])
        await abandoned.cancel()
        record("drag Luke and let go outside any list (\(abandoned.phase))")
        let copied = try await first.drop(try second.beginDrag(["Leia"]), at: 1, operation: .copy)
        record("copy Leia to the first list (\(copied.operation): one card more)")
        return lines
    }
}
