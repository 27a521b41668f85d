import Foundation
import TransferKit
package import UniformTypes

/// `transferkit extract`: writes one representation of one item.
///
/// The choice is the package's one rule, `TypeCatalog.chooseRepresentation(offered:requested:)`:
/// the first representation, in the item's fidelity order, that conforms to the requested type
/// (as `TransferProvider` loads). The archive is read once, front to back, and the chosen
/// representation streams straight to the output.
///
/// The walk goes on to the archive's end after the copy, checking everything `inspect` checks (every
/// checksum, key order, duplicate keys, nothing after the archive), so an invalid archive never exits 0.
/// When that check fails after the copy, an `-o FILE` output is never created (it is written atomically);
/// on standard output the bytes already written cannot be taken back, and the exit status 2 and the error
/// message say they must not be used.
package struct ExtractCommand: Command {
    /// The catalogue used for conformance.
    package var catalog: TypeCatalog

    /// Creates the command.
    package init(catalog: TypeCatalog = .shared) {
        self.catalog = catalog
    }

    /// `"extract"`.
    package var name: String { "extract" }
    /// One line of help.
    package var abstract: String { "Write one representation of an item, chosen by type." }
    /// Examples.
    package var discussion: String {
        """
        EXAMPLES:
          transferkit extract cards.transferkit --type public.json -o card-copy.json
          transferkit extract cards.transferkit --type public.utf8-plain-text --item 1
          transferkit pack - --type public.png < cover.png | transferkit extract - --type public.image > copy.png
        """
    }

    /// The accepted options.
    package var signature: CommandSignature {
        CommandSignature(
            options: [
                .init(names: ["--type"], valueName: "TYPE", isRequired: true, help: "The uniform type wanted."),
                .init(names: ["--item"], valueName: "N", help: "The item's index (default 0)."),
                .init(names: ["-o", "--output"], valueName: "OUT", help: "Where to write it (- for stdout)."),
                .init(names: ["--format"], valueName: "cbor|json", help: "The input's form (detected for files)."),
                DeclarationsOption.option,
            ],
            positionals: .init(name: "ARCHIVE", help: "The archive; - for standard input.", minimum: 1, maximum: 1)
        )
    }

    /// Extracts the representation.
    package func run(_ arguments: ParsedArguments, in context: CommandContext) async throws -> ExitCode {
        try DeclarationsOption.load(arguments, into: catalog)
        let identifier = arguments.value("--type") ?? ""
        guard let wanted = UniformType(identifier) else {
            throw UsageError("'\(identifier)' is not a valid uniform type identifier")
        }
        var itemIndex = 0
        if let text = arguments.value("--item") {
            guard let index = Int(text), index >= 0 else { throw UsageError("--item needs a whole number ≥ 0") }
            itemIndex = index
        }
        let file = try InputFile(path: arguments.positionals[0])
        let format = try ArchiveFormatChoice.input(arguments.value("--format"), file: file)
        var bar: ProgressBar?
        do {
            let code = try await extract(
                wanted, item: itemIndex, from: file, format: format, to: arguments.value("--output"), bar: &bar,
                context: context)
            await bar?.finish()
            return code
        } catch {
            await bar?.cancel()
            throw error
        }
    }

    private func extract(
        _ wanted: UniformType, item itemIndex: Int, from file: InputFile, format: TransferArchiveFormat,
        to output: String?, bar: inout ProgressBar?, context: CommandContext
    ) async throws -> ExitCode {
        // A type that is not text is binary: refused on a terminal unless -o - says so.
        let isBinary = !catalog.conforms(wanted, to: .text)
        return try await ArchiveOutput.write(toPath: output, isBinary: isBinary, context: context) { sink in
            var itemSeen = false
            var typesSeen: [UniformType] = []
            var extracted = false
            /// Copies a chosen payload to `destination`, advancing a progress bar for large ones.
            func copying(_ length: UInt64, to destination: any OutputSink) -> (UnsafeRawBufferPointer) throws -> Void {
                let progress = TransferProgress(totalUnitCount: Int64(clamping: length))
                if bar == nil { bar = ProgressBar.start(for: progress, totalBytes: length, context: context) }
                return { chunk in
                    try destination.write(chunk)
                    progress.advance(by: Int64(chunk.count))
                }
            }
            try ArchiveWalker.walk(
                file, format: format,
                item: { item in itemSeen = itemSeen || item.index == itemIndex },
                representation: { representation in
                    // Everything after the chosen payload is still read (skipped), so the whole archive is
                    // checked before the command reports success.
                    guard !extracted, representation.itemIndex == itemIndex else { return .skip }
                    typesSeen.append(representation.type)
                    // The choice rule with one requested type: the first conforming representation in fidelity
                    // order wins, so the first one met here is the answer.
                    if catalog.chooseRepresentation(offered: [representation.type], requested: [wanted]) != nil {
                        extracted = true
                        return .read(copying(representation.length, to: sink))
                    }
                    return .skip
                })
            if extracted { return .success }
            guard itemSeen else { throw UsageError("the archive has no item \(itemIndex)") }
            let list = typesSeen.map(\.identifier).joined(separator: ", ")
            throw UsageError(
                "item \(itemIndex) has no representation conforming to \(wanted.identifier) (it has: \(list))")
        }
    }
}
