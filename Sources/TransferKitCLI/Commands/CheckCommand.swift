package import TransferKit
import TransferKitPlatform
package import UniformTypes

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `transferkit check`: validates archives and checks that their representations survive a
/// decode and re-encode, in this process or in a child `transferkit` process.
package struct CheckCommand: Command {
    /// The readers used to decode representations; `nil` for ``TransferKitTool/standardRegistry(catalog:)`` of
    /// `catalog`, made when the command runs (a tool builds its commands on every start, and registering the standard
    /// readers then cost every other command a few percent of its start).
    package var registry: TransferRegistry?
    /// The catalogue that `--declarations` files are loaded into; it should be the registry's.
    package var catalog: TypeCatalog

    /// Creates the command over `registry` (`nil`: the standard readers), loading declarations into `catalog`.
    package init(registry: TransferRegistry?, catalog: TypeCatalog = .shared) {
        self.registry = registry
        self.catalog = catalog
    }

    /// `"check"`.
    package var name: String { "check" }
    /// One line of help.
    package var abstract: String { "Validate archives and check that every representation round-trips." }
    /// What is checked.
    package var discussion: String {
        """
        For each archive: the structure and every checksum are validated; every representation
        whose type has a registered reader is decoded and encoded again, and must come back with
        the same bytes, or failing that an equal value. With --cross-process the archive goes
        through a child transferkit process ('transferkit reencode') that does the decoding and
        re-encoding, and what comes back is compared here; --declarations files are passed on to
        it. One line per item shows ✓ or ✗, each representation with how it was checked: bytes
        (re-encoded identically), value (re-encoded differently, decoded equal), decoded (no
        writer), or checksum (no reader for its type: structure and CRC only).
        With --type TYPE, each item is checked only for the representation a reader of TYPE gets:
        the first, in the item's order, that conforms to TYPE (what extract --type TYPE writes).
        Exit 0 when every check passes, 1 when one fails, 2 when an archive cannot be read or is
        damaged (its error is printed on standard error; --json output still lists it).

        EXAMPLES:
          transferkit check cards.transferkit cover.transferkit
          transferkit check --cross-process cards.transferkit
          transferkit check --type public.text --json cards.transferkit
        """
    }

    /// The accepted options.
    package var signature: CommandSignature {
        CommandSignature(
            options: [
                .init(names: ["--cross-process"], help: "Round-trip through a child transferkit process."),
                .init(
                    names: ["--type"], valueName: "TYPE",
                    help: "Check only the representation each item gives a reader of TYPE (as extract chooses)."),
                DeclarationsOption.option,
                .init(names: ["--json"], help: "Print machine-readable JSON."),
            ],
            positionals: .init(name: "ARCHIVE", help: "Archives to check.", minimum: 1)
        )
    }

    /// Checks the archives.
    package func run(_ arguments: ParsedArguments, in context: CommandContext) async throws -> ExitCode {
        try DeclarationsOption.load(arguments, into: catalog)
        let readers = registry ?? TransferKitTool.standardRegistry(catalog: catalog)
        let crossProcess = arguments.flag("--cross-process")
        var wanted: UniformType?
        if let identifier = arguments.value("--type") {
            guard let type = UniformType(identifier) else {
                throw UsageError("'\(identifier)' is not a valid uniform type identifier")
            }
            wanted = type
        }
        var reports: [ArchiveReport] = []
        for path in arguments.positionals {
            let file = try InputFile(path: path)
            let bytes = try file.readArchive()
            reports.append(
                await check(
                    bytes, name: file.displayName, readers: readers, crossProcess: crossProcess, wanted: wanted,
                    childArguments: DeclarationsOption.arguments(arguments), context))
        }
        let passed = reports.flatMap(\.items).filter(\.passed).count
        let failed = reports.reduce(0) { $0 + $1.items.filter { !$0.passed }.count + ($1.error == nil ? 0 : 1) }
        // An archive that cannot be read or checked is an input error: it goes to standard error, exit 2.
        for report in reports {
            if let error = report.error {
                try context.standardError.writeLine("\(context.toolName) check: \(report.archive): \(error)")
            }
        }
        if arguments.flag("--json") {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            try context.standardOutput.write(contentsOf: try encoder.encode(reports))
            try context.standardOutput.writeLine()
        } else {
            for report in reports { try context.standardOutput.write(report.text()) }
            try context.standardOutput.writeLine("\(passed) passed, \(failed) failed")
        }
        if reports.contains(where: { $0.error != nil }) { return .usageError }
        return failed == 0 ? .success : .failure
    }

    private func check(
        _ bytes: Data, name: String, readers: TransferRegistry, crossProcess: Bool, wanted: UniformType?,
        childArguments: [String], _ context: CommandContext
    ) async -> ArchiveReport {
        var report = ArchiveReport(archive: name, crossProcess: crossProcess, items: [], error: nil)
        do {
            let format = try ArchiveFormatChoice.detect(bytes.prefix(64), name: name)
            let archive = try TransferArchive(decoding: bytes, format: format)
            // The archive's own declarations (format 1.1) say what its types are: a declared JSON type is then
            // checked by value, like public.json, without a declarations file.
            let types = archive.carriedDeclarations(in: catalog).catalog
            let checker = RoundTripChecker(registry: readers.using(types))
            let returned: TransferArchive
            if crossProcess {
                returned = try await reencodeInChild(
                    bytes, format: format, arguments: childArguments, context: context)
            } else {
                returned = try await Reencoder(checker: checker).reencode(archive)
            }
            report.items = compare(archive, returned, wanted: wanted, checker: checker, catalog: types)
        } catch {
            report.error = ErrorLine.describe(error)
        }
        return report
    }

    private func reencodeInChild(
        _ bytes: Data, format: TransferArchiveFormat, arguments: [String], context: CommandContext
    ) async throws -> TransferArchive {
        guard let executable = context.executablePath else {
            throw UsageError("cannot find the transferkit executable to run as a child process")
        }
        let result = try await ChildProcess.run(
            executable, arguments: ["reencode", "-"] + arguments, input: Array(bytes))
        guard result.status == 0 else {
            let message = result.errorText.split(separator: "\n").last.map(String.init) ?? "no message"
            throw UsageError("the child process failed with status \(result.status): \(message)")
        }
        return try TransferArchive(decoding: Data(result.standardOutput), format: format)
    }

    private func compare(
        _ original: TransferArchive, _ returned: TransferArchive, wanted: UniformType?, checker: RoundTripChecker,
        catalog: TypeCatalog
    ) -> [ItemReport] {
        original.items.enumerated().map { index, item in
            var report = ItemReport(index: index, name: item.suggestedName, representations: [])
            let back = index < returned.items.count ? returned.items[index].representations : []
            // With --type, only the representation the one choice rule gives a reader of that type.
            var positions = Array(item.representations.indices)
            if let wanted {
                let types = item.representations.lazy.map(\.type)
                guard let chosen = catalog.chooseRepresentation(offered: types, requested: [wanted]) else {
                    report.representations.append(
                        RepresentationReport(
                            type: wanted.identifier, passed: false, result: "no representation conforms to it"))
                    return report
                }
                positions = [chosen]
            }
            for position in positions {
                let representation = item.representations[position]
                let verdict: RoundTripChecker.Verdict
                if position < back.count, back[position].type == representation.type {
                    verdict = checker.verdict(
                        original: representation.data, returned: back[position].data, type: representation.type)
                } else {
                    verdict = .failed("missing after the round trip")
                }
                report.representations.append(
                    RepresentationReport(
                        type: representation.type.identifier, passed: verdict.passed, result: verdict.label))
            }
            if wanted == nil, back.count > item.representations.count {
                report.representations.append(
                    RepresentationReport(type: "(extra)", passed: false, result: "more representations came back"))
            }
            return report
        }
    }
}

/// Re-encodes every representation of an archive with a checker's readers.
struct Reencoder {
    let checker: RoundTripChecker

    func reencode(_ archive: TransferArchive) async throws -> TransferArchive {
        var result = archive
        for itemIndex in result.items.indices {
            for index in result.items[itemIndex].representations.indices {
                let representation = result.items[itemIndex].representations[index]
                let data = try await checker.reencode(representation.data, type: representation.type)
                result.items[itemIndex].representations[index] = TransferArchive.Representation(
                    type: representation.type, data: data)
            }
        }
        return result
    }
}

private struct ArchiveReport: Encodable {
    var archive: String
    var crossProcess: Bool
    var items: [ItemReport]
    var error: String?

    func text() -> String {
        if error != nil { return "" }
        return items.map { item in
            let mark = item.passed ? "✓" : "✗"
            let name = item.name.map { " \"\($0)\"" } ?? ""
            let details = item.representations.map { "\($0.type) \($0.passed ? "✓" : "✗") \($0.result)" }
            return "\(mark) \(archive) item \(item.index)\(name): " + details.joined(separator: ", ")
        }.joined(separator: "\n") + (items.isEmpty ? "✓ \(archive): no items\n" : "\n")
    }
}

private struct ItemReport: Encodable {
    var index: Int
    var name: String?
    var representations: [RepresentationReport]
    var passed: Bool { representations.allSatisfy(\.passed) }
}

private struct RepresentationReport: Encodable {
    var type: String
    var passed: Bool
    var result: String
}
