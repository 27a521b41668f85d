import Foundation
import TransferKit
package import UniformTypes

/// `transferkit inspect`: lists an archive's items and representations.
package struct InspectCommand: Command {
    /// The catalogue used to show each type's conformance.
    package var catalog: TypeCatalog

    /// Creates the command.
    package init(catalog: TypeCatalog = .shared) {
        self.catalog = catalog
    }

    /// `"inspect"`.
    package var name: String { "inspect" }
    /// One line of help.
    package var abstract: String { "List an archive's items and representations, verifying checksums." }
    /// The accepted options.
    package var signature: CommandSignature {
        CommandSignature(
            options: [
                .init(names: ["--format"], valueName: "cbor|json", help: "The input's form (detected for files)."),
                .init(names: ["--json"], help: "Print machine-readable JSON."),
                DeclarationsOption.option,
            ],
            positionals: .init(name: "ARCHIVE", help: "The archive; - for standard input.", minimum: 1, maximum: 1)
        )
    }

    /// Lists the archive.
    package func run(_ arguments: ParsedArguments, in context: CommandContext) async throws -> ExitCode {
        try DeclarationsOption.load(arguments, into: catalog)
        let file = try InputFile(path: arguments.positionals[0])
        let format = try ArchiveFormatChoice.input(arguments.value("--format"), file: file)
        var items: [Listing.Item] = []
        let version = try ArchiveWalker.walk(
            file, format: format,
            item: { item in
                items.append(
                    Listing.Item(
                        index: item.index, name: item.suggestedName, metadata: item.metadata, representations: []))
            },
            representation: { _ in .skip },
            checksum: { representation, checksum in
                let conformsTo = catalog.supertypes(of: representation.type).map(\.identifier).sorted()
                items[items.count - 1].representations.append(
                    Listing.Representation(
                        index: representation.index, type: representation.type.identifier,
                        size: representation.length, checksum: checksum, conformsTo: conformsTo))
            })
        let listing = Listing(format: format.rawValue, version: [version.major, version.minor], items: items)
        if arguments.flag("--json") {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            try context.standardOutput.write(contentsOf: try encoder.encode(listing))
            try context.standardOutput.writeLine()
        } else {
            try context.standardOutput.write(listing.text(name: file.displayName))
        }
        return .success
    }
}

/// What `inspect` found, printable as text or JSON.
private struct Listing: Encodable {
    struct Item: Encodable {
        var index: Int
        var name: String?
        var metadata: [String: TransferMetadataValue]
        var representations: [Representation]
    }

    struct Representation: Encodable {
        var index: Int
        var type: String
        var size: UInt64
        var checksum: UInt32
        var conformsTo: [String]
    }

    var format: String
    var version: [Int]
    var items: [Item]

    func text(name: String) -> String {
        let count = items.count == 1 ? "1 item" : "\(items.count) items"
        var lines = ["\(name): \(format.uppercased()) archive, version \(version[0]).\(version[1]), \(count)"]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for item in items {
            var line = "item \(item.index)"
            if let name = item.name { line += "  \"\(name)\"" }
            if !item.metadata.isEmpty, let json = try? encoder.encode(item.metadata) {
                line += "  metadata " + String(decoding: json, as: UTF8.self)
            }
            lines.append(line)
            let width = item.representations.map(\.type.count).max() ?? 0
            for representation in item.representations {
                let type = representation.type.padding(toLength: width, withPad: " ", startingAt: 0)
                let checksum = String(representation.checksum, radix: 16)
                let crc = String(repeating: "0", count: 8 - checksum.count) + checksum
                var row = "  \(representation.index)  \(type)  \(ByteCount.format(representation.size))  crc32 \(crc)"
                if !representation.conformsTo.isEmpty {
                    row += "  conforms to " + representation.conformsTo.joined(separator: ", ")
                }
                lines.append(row)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Formats byte counts for people: exact below 1 KiB, one decimal above.
enum ByteCount {
    static func format(_ count: UInt64) -> String {
        if count < 1024 { return "\(count) B" }
        let units = ["KiB", "MiB", "GiB", "TiB"]
        var value = Double(count) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return String(format: "%.1f", value) + " " + units[unit]
    }
}
