import Foundation
import TransferKit
import TransferKitCLI

/// This example's own command-line tool, built the way an adopter builds theirs: the standard `transferkit`
/// commands over a registry that knows ``Model``, so `check` and `reencode` decode cards with their real type,
/// plus one command of its own, `cards`.
enum CardsTool {
    /// The tool's program name in usage lines and messages.
    static let name = "character-cards"

    /// The registry the tool's commands decode with: the generic JSON and text readers, and ``Model``.
    static func makeRegistry() throws -> TransferRegistry {
        let registry = TransferKitTool.standardRegistry()
        // Model claims plain text too; the generic String reader is registered at low priority, so Model wins.
        try registry.register(Model.self)
        return registry
    }

    /// The tool: `character-cards check --cross-process cards.transferkit`, `character-cards cards -`, ….
    static func make() throws -> TransferKitTool {
        TransferKitTool(
            name: name, abstract: "Inspect and check archives of character cards.",
            commands: TransferKitTool.standardCommands(registry: try makeRegistry()) + [ShowCardsCommand()])
    }
}

/// `character-cards cards ARCHIVE`: decodes every item of an archive as a ``Model`` and prints it, one per line.
///
/// This is the receiving side of a drag to another process: it knows the Swift type, so it asks each item's
/// provider for a `Model` and gets the best representation decoded.
struct ShowCardsCommand: Command {
    var name: String { "cards" }
    var abstract: String { "Print the character cards in an archive." }
    var signature: CommandSignature {
        CommandSignature(
            positionals: .init(name: "ARCHIVE", help: "The archive; - for standard input.", minimum: 1, maximum: 1))
    }

    func run(_ arguments: ParsedArguments, in context: CommandContext) async throws -> ExitCode {
        let path = arguments.positionals[0]
        let bytes =
            path == "-"
            ? try FileHandle.standardInput.readToEnd() ?? Data()
            : try Data(contentsOf: URL(fileURLWithPath: path))
        let archive = try TransferArchive(decoding: bytes)
        for (index, provider) in archive.makeProviders().enumerated() {
            let card = try await provider.loadObject(ofClass: Model.self)
            try context.standardOutput.writeLine("card \(index): \(card)")
        }
        return .success
    }
}
