import TransferKit
import TransferKitJSON
import TransferKitPlatform
package import UniformTypes

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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
    /// How the form is told and what `--json` prints.
    package var discussion: String {
        """
        The form is told by the first bytes (d9 d9 f7 for CBOR, '{' after white space for JSON), also on
        standard input. --json prints one line with sorted keys, the JSON view of the archive
        specification: metadata is written as the archive's text form writes it (1.0 stays a float),
        and NaN and the infinities, which JSON cannot hold, as {"NaN":null}, {"Infinity":null} and
        {"-Infinity":null} (metadata has no null, so no other value looks so). The version is the
        archive's own.

        An archive of version 1.1 may carry declarations of its types; they are listed (--json: the
        key "declarations", present only then) with what this reader did with each: used, or kept
        its own (alreadyDeclared, conflicts: declared here with other parents), or skipped
        (reserved: a public or dyn type; unresolved: an unknown parent or a cycle). Conformance
        shown for each representation counts the used ones.

        EXAMPLES:
          transferkit inspect cards.transferkit
          transferkit inspect cards.transferkit --json
          transferkit inspect - < cover.transferkit
        """
    }

    /// The accepted options.
    package var signature: CommandSignature {
        CommandSignature(
            options: [
                .init(
                    names: ["--format"], valueName: "cbor|json",
                    help: "The form the input must be in (its first bytes decide; another is notAnArchive)."),
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
        var catalog = catalog
        var declarations: [Listing.Declaration] = []
        let version = try ArchiveWalker.walk(
            file, format: format,
            declarations: { carried in
                guard !carried.isEmpty else { return }
                let outcome = catalog.addingCarriedDeclarations(carried)
                catalog = outcome.catalog
                declarations = outcome.outcomes.map { Listing.Declaration(declaration: $0, outcome: $1) }
            },
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
        let listing = Listing(
            format: format.rawValue, major: version.major, minor: version.minor, declarations: declarations,
            items: items)
        if arguments.flag("--json") {
            try context.standardOutput.write(contentsOf: Data(listing.json))
            try context.standardOutput.writeLine()
        } else {
            try context.standardOutput.write(listing.text(name: file.displayName))
        }
        return .success
    }
}

/// What `inspect` found, printable as text or JSON.
///
/// The JSON (the specification's "JSON view of an archive") has sorted keys and no white space; metadata is written as
/// in the archive's text form (floats keep their `.0`), except that NaN and the infinities, which JSON cannot hold, are
/// `{"NaN":null}`, `{"Infinity":null}` and `{"-Infinity":null}`. The text listing writes them as `NaN`, `Infinity` and
/// `-Infinity` in quotes, for people.
private struct Listing {
    struct Item {
        var index: Int
        var name: String?
        var metadata: [String: TransferMetadataValue]
        var representations: [Representation]
    }

    struct Representation {
        var index: Int
        var type: String
        var size: UInt64
        var checksum: UInt32
        var conformsTo: [String]
    }

    /// A declaration the archive carries and what this reader did with it.
    struct Declaration {
        var declaration: UniformTypeDeclaration
        var outcome: TypeCatalog.CarriedDeclarationOutcome

        /// The object `--json` lists: the declaration's fields as the archive's text form writes them, and
        /// `outcome` (with `catalogConformsTo` for a conflict).
        func write(to output: inout JSONOutput) {
            var outcomeText = JSONOutput()
            outcomeText.string(outcome.description.utf8)
            var extra: [(key: String, value: [UInt8])] = [("outcome", outcomeText.bytes)]
            if case .conflicts(let parents) = outcome {
                extra.append(("catalogConformsTo", TransferArchive.listingJSON(parents.map(\.identifier))))
            }
            output.bytes += TransferArchive.listingJSON(declaration, adding: extra)
        }

        /// One line of the text listing.
        var line: String {
            var line = "declares \(declaration.identifier.identifier)"
            if !declaration.conformsTo.isEmpty {
                line += " conforming to " + declaration.conformsTo.map(\.identifier).joined(separator: ", ")
            }
            switch outcome {
            case .used: line += "  (used)"
            case .alreadyDeclared: line += "  (declared here already; this reader's declaration is used)"
            case .conflicts(let parents):
                let own = parents.isEmpty ? "no parents" : parents.map(\.identifier).joined(separator: ", ")
                line += "  (conflicts: declared here conforming to \(own), which is used)"
            case .reserved: line += "  (not used: public and dyn types are the system's)"
            case .unresolved: line += "  (not used: a parent is unknown, or the parents make a cycle)"
            case .refused(let code): line += "  (not used: \(code))"
            case .duplicate: line += "  (not used: declared twice)"
            }
            return line
        }
    }

    var format: String
    var major: Int
    var minor: UInt64
    var declarations: [Declaration]
    var items: [Item]

    var json: [UInt8] {
        var output = JSONOutput()
        output.raw("{")
        if !declarations.isEmpty {
            output.raw("\"declarations\":[")
            for (index, declaration) in declarations.enumerated() {
                if index > 0 { output.raw(",") }
                declaration.write(to: &output)
            }
            output.raw("],")
        }
        output.raw("\"format\":")
        output.string(format.utf8)
        output.raw(",\"items\":[")
        for (position, item) in items.enumerated() {
            output.raw(position > 0 ? ",{" : "{")
            output.raw("\"index\":\(item.index),\"metadata\":")
            output.bytes += TransferArchive.listingJSON(item.metadata, nonFinite: .view)
            if let name = item.name {
                output.raw(",\"name\":")
                output.string(name.utf8)
            }
            output.raw(",\"representations\":[")
            for (index, representation) in item.representations.enumerated() {
                output.raw(index > 0 ? ",{" : "{")
                output.raw("\"checksum\":\(representation.checksum),\"conformsTo\":[")
                for (conformanceIndex, identifier) in representation.conformsTo.enumerated() {
                    if conformanceIndex > 0 { output.raw(",") }
                    output.string(identifier.utf8)
                }
                output.raw("],\"index\":\(representation.index),\"size\":\(representation.size),\"type\":")
                output.string(representation.type.utf8)
                output.raw("}")
            }
            output.raw("]}")
        }
        output.raw("],\"version\":[\(major),\(minor)]}")
        return output.bytes
    }

    func text(name: String) -> String {
        let count = items.count == 1 ? "1 item" : "\(items.count) items"
        var lines = ["\(name): \(format.uppercased()) archive, version \(major).\(minor), \(count)"]
        lines += declarations.map(\.line)
        for item in items {
            var line = "item \(item.index)"
            if let name = item.name { line += "  \"\(name)\"" }
            if !item.metadata.isEmpty {
                let metadata = TransferArchive.listingJSON(item.metadata, nonFinite: .strings)
                line += "  metadata " + String(decoding: metadata, as: UTF8.self)
            }
            lines.append(line)
            let width = item.representations.map(\.type.count).max() ?? 0
            for representation in item.representations {
                let type = Self.padded(representation.type, toUTF16Count: width)
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

    /// `text` padded with spaces, or cut, to `width` UTF-16 code units, as `NSString.padding(toLength:withPad:
    /// startingAt:)` made the type column (the width counts characters, so a type of other scripts may come out cut).
    private static func padded(_ text: String, toUTF16Count width: Int) -> String {
        let count = text.utf16.count
        guard width < count else { return text + String(repeating: " ", count: width - count) }
        return String(decoding: text.utf16.prefix(width), as: UTF16.self)
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
        return DecimalText.fixed(value, fractionDigits: 1) + " " + units[unit]
    }
}
