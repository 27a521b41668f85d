import Foundation
import TransferClipboard
import TransferKitCLI
import UniformTypes

/// `transferkit watch`: prints one line (or one JSON object) each time the clipboard changes hands.
struct WatchCommand: Command {
    /// The catalogue for type mapping.
    var catalog: TypeCatalog

    /// Creates the command.
    init(catalog: TypeCatalog = .shared) {
        self.catalog = catalog
    }

    /// `"watch"`.
    var name: String { "watch" }
    /// One line of help.
    var abstract: String { "Print a line each time the clipboard changes, with the types it offers." }
    /// Examples.
    var discussion: String {
        """
        Each line names the selection and the offered types in the owner's order (none when it was cleared);
        with --json each line is an object: {"selection":"clipboard","types":[{"name":…,"type":…},…]}. Runs
        until interrupted, or until --count changes were printed.

        EXAMPLES:
          transferkit watch
          transferkit watch --json --count 1
        """
    }

    /// The accepted options.
    var signature: CommandSignature {
        CommandSignature(
            options: [
                .init(names: ["--json"], help: "Print one JSON object per change."),
                .init(names: ["--count"], valueName: "N", help: "Stop after N changes."),
                DeclarationsOption.option,
            ] + ClipboardCommandOptions.options
        )
    }

    /// Watches.
    func run(_ arguments: ParsedArguments, in context: CommandContext) async throws -> ExitCode {
        try DeclarationsOption.load(arguments, into: catalog)
        let limit = try arguments.value("--count").map { value throws(UsageError) in
            guard let count = Int(value), count > 0 else { throw UsageError("--count needs a positive number") }
            return count
        }
        let selection = ClipboardCommandOptions.selection(arguments)
        let clipboard = try await ClipboardCommandOptions.open(arguments, catalog: catalog)
        defer { clipboard.close() }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var printed = 0
        for try await change in clipboard.changes(of: selection) {
            if arguments.flag("--json") {
                let line = Line(
                    selection: change.selection.rawValue,
                    types: change.offeredTypes.map { Line.Offered(name: $0.name, type: $0.type?.identifier) })
                try context.standardOutput.writeLine(String(decoding: try encoder.encode(line), as: UTF8.self))
            } else {
                let names = change.offeredTypes.map(\.name)
                try context.standardOutput.writeLine(
                    "\(change.selection.rawValue): " + (names.isEmpty ? "(cleared)" : names.joined(separator: " ")))
            }
            printed += 1
            if let limit, printed >= limit { break }
        }
        return .success
    }

    /// One `--json` line.
    private struct Line: Encodable {
        struct Offered: Encodable {
            var name: String
            var type: String?
        }
        var selection: String
        var types: [Offered]
    }
}
