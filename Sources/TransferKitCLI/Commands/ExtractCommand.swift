package import TransferKit
package import UniformTypes

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `transferkit extract`: writes one representation of one item.
///
/// With `--type`, the choice is the package's one rule, `TypeCatalog.chooseRepresentation(offered:requested:)`:
/// the first representation, in the item's fidelity order, that conforms to the requested type
/// (as `TransferProvider` loads). `--exact` takes the first whose type is the requested one itself, and `--index`
/// the representation at that position whatever its type, so that every representation can be reached (a
/// `public.data` listed after a text one). When no representation conforms to `--type` (without `--exact`), the
/// item's representations are converted as a provider derives them (`TransferConverterRegistry.shared`), so
/// `--type public.plain-text` of an HTML-only item gives its text; the representation converted from is held in
/// memory. The archive is read once, front to back, and the chosen
/// representation streams straight to the output. What is not there (the item, the index, the type) exits 1.
///
/// The walk goes on to the archive's end after the copy, checking everything `inspect` checks (every
/// checksum, key order, duplicate keys, nothing after the archive), so an invalid archive never exits 0.
/// When that check fails after the copy, an `-o FILE` output is never created (it is written atomically);
/// on standard output the bytes already written cannot be taken back, and the exit status 2 and the error
/// message say they must not be used.
package struct ExtractCommand: Command {
    /// The catalogue used for conformance.
    package var catalog: TypeCatalog
    /// The converters that derive a type no representation has.
    package var converters: TransferConverterRegistry

    /// Creates the command.
    package init(catalog: TypeCatalog = .shared, converters: TransferConverterRegistry = .shared) {
        self.catalog = catalog
        self.converters = converters
    }

    /// `"extract"`.
    package var name: String { "extract" }
    /// One line of help.
    package var abstract: String { "Write one representation of an item, chosen by type." }
    /// Examples.
    package var discussion: String {
        """
        Give --type (the first representation that conforms to it; with --exact, the first that is it) or
        --index (the representation at that position, as 'inspect' numbers them). With --index the type is known
        only when the representation is reached, so on a terminal it needs -o - or -o FILE. Exit 1 when the item,
        the index or the type is not in the archive.

        EXAMPLES:
          transferkit extract cards.transferkit --type public.json -o card-copy.json
          transferkit extract cards.transferkit --type public.utf8-plain-text --item 1
          transferkit extract cards.transferkit --type public.json --exact -o card-exact.json
          transferkit extract cards.transferkit --item 1 --index 0 -o notes-copy.txt
          transferkit pack - --type public.png < cover.png | transferkit extract - --type public.image > copy.png
        """
    }

    /// The accepted options.
    package var signature: CommandSignature {
        CommandSignature(
            options: [
                .init(names: ["--type"], valueName: "TYPE", help: "The uniform type wanted (or --index)."),
                .init(names: ["--exact"], help: "With --type: that type itself, not a type that conforms to it."),
                .init(names: ["--index"], valueName: "N", help: "The representation at position N (from 0)."),
                .init(names: ["--item"], valueName: "N", help: "The item's index (default 0)."),
                .init(names: ["-o", "--output"], valueName: "OUT", help: "Where to write it (- for stdout)."),
                .init(
                    names: ["--format"], valueName: "cbor|json",
                    help: "The form the input must be in (its first bytes decide; another is notAnArchive)."),
                DeclarationsOption.option,
            ],
            positionals: .init(name: "ARCHIVE", help: "The archive; - for standard input.", minimum: 1, maximum: 1)
        )
    }

    /// Extracts the representation.
    package func run(_ arguments: ParsedArguments, in context: CommandContext) async throws -> ExitCode {
        try DeclarationsOption.load(arguments, into: catalog)
        let wanted: Wanted
        switch (arguments.value("--type"), arguments.value("--index")) {
        case (let identifier?, nil):
            guard let type = UniformType(identifier) else {
                throw UsageError("'\(identifier)' is not a valid uniform type identifier")
            }
            wanted = .type(type, exact: arguments.flag("--exact"))
        case (nil, let text?):
            if arguments.flag("--exact") { throw UsageError("--exact goes with --type") }
            wanted = .index(try Self.wholeNumber(text, option: "--index"))
        case (nil, nil): throw UsageError("give --type TYPE or --index N")
        case (_?, _?): throw UsageError("give --type or --index, not both")
        }
        let itemIndex = try arguments.value("--item").map { try Self.wholeNumber($0, option: "--item") } ?? 0
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

    /// Which representation the command line asks for.
    private enum Wanted {
        /// The first that conforms to the type (the choice rule), or with `exact`, the first that is the type.
        case type(UniformType, exact: Bool)
        /// The one at this position in its item.
        case index(Int)
    }

    private static func wholeNumber(_ text: String, option: String) throws(UsageError) -> Int {
        guard let number = Int(text), number >= 0 else { throw UsageError("\(option) needs a whole number ≥ 0") }
        return number
    }

    /// Whether `representation` is the one `wanted` asks for; the first met that is wins.
    private func isChosen(_ representation: WalkedRepresentation, _ wanted: Wanted, catalog: TypeCatalog) -> Bool {
        switch wanted {
        case .index(let index): representation.index == index
        case .type(let type, exact: true): representation.type == type
        // The choice rule with one requested type: the first conforming representation in fidelity order wins, so
        // the first one met here is the answer.
        case .type(let type, exact: false):
            catalog.chooseRepresentation(offered: [representation.type], requested: [type]) != nil
        }
    }

    private func extract(
        _ wanted: Wanted, item itemIndex: Int, from file: InputFile, format: TransferArchiveFormat,
        to output: String?, bar: inout ProgressBar?, context: CommandContext
    ) async throws -> ExitCode {
        // A type that is not text is binary: refused on a terminal unless -o - says so. By index, the type is not
        // known before the walk reaches it, so it counts as binary.
        let isBinary: Bool
        switch wanted {
        case .type(let type, _): isBinary = !catalog.conforms(type, to: .text)
        case .index: isBinary = true
        }
        return try await ArchiveOutput.write(toPath: output, isBinary: isBinary, context: context) { sink in
            var itemSeen = false
            var typesSeen: [UniformType] = []
            var extracted = false
            // The payloads a derivation could start from, by their index in the item, kept in case no
            // representation conforms to the type.
            let derivable = DerivableSources()
            // The archive's own declarations (format 1.1) teach this walk its types, without changing `self.catalog`.
            var catalog = catalog
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
                declarations: { declarations in
                    if !declarations.isEmpty { catalog = catalog.addingCarriedDeclarations(declarations).catalog }
                },
                item: { item in itemSeen = itemSeen || item.index == itemIndex },
                representation: { representation in
                    // Everything after the chosen payload is still read (skipped), so the whole archive is
                    // checked before the command reports success.
                    guard representation.itemIndex == itemIndex else { return .skip }
                    typesSeen.append(representation.type)
                    if !extracted, isChosen(representation, wanted, catalog: catalog) {
                        extracted = true
                        return .read(copying(representation.length, to: sink))
                    }
                    if !extracted, case .type(let type, exact: false) = wanted,
                        converters.derivation(from: representation.type, to: type, catalog: catalog) != nil
                    {
                        let index = typesSeen.count - 1
                        return .read { chunk in derivable.append(chunk, at: index) }
                    }
                    return .skip
                })
            if extracted { return .success }
            if case .type(let type, exact: false) = wanted, itemSeen,
                let derived = derivable.derivedStream(
                    of: type, from: typesSeen, converters: converters, catalog: catalog)
            {
                for try await chunk in derived {
                    try sink.write(contentsOf: chunk)
                }
                return .success
            }
            guard itemSeen else {
                throw CommandFailure(code: .notFound, message: "the archive has no item \(itemIndex)")
            }
            let list = typesSeen.enumerated().map { "\($0) \($1.identifier)" }.joined(separator: ", ")
            let has = typesSeen.isEmpty ? "it has no representations" : "it has: \(list)"
            switch wanted {
            case .index(let index):
                throw CommandFailure(
                    code: .notFound, message: "item \(itemIndex) has no representation \(index) (\(has))")
            case .type(let type, let exact):
                let relation = exact ? "of type" : "conforming to"
                throw CommandFailure(
                    code: .typeNotOffered,
                    message: "item \(itemIndex) has no representation \(relation) \(type.identifier) (\(has))")
            }
        }
    }
}

/// The payloads of one item that converters could turn into the requested type, collected during the walk.
private final class DerivableSources {
    var payloads: [Int: Data] = [:]

    func append(_ chunk: UnsafeRawBufferPointer, at index: Int) {
        payloads[index, default: Data()].append(contentsOf: chunk)
    }

    /// The stream that the one choice rule picks among the item's types followed by the types derived from them,
    /// when that is a derived one whose source was kept.
    func derivedStream(
        of type: UniformType, from types: [UniformType], converters: TransferConverterRegistry, catalog: TypeCatalog
    ) -> TransferByteStream? {
        let derived = converters.derivations(from: types, catalog: catalog)
        guard let index = catalog.chooseRepresentation(offered: types + derived.map(\.type), requested: [type]),
            index >= types.count
        else { return nil }
        let derivation = derived[index - types.count]
        guard let payload = payloads[derivation.sourceIndex] else { return nil }
        return derivation.convert(TransferByteStream(data: payload))
    }
}
