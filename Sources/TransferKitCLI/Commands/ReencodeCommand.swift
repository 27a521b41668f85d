package import TransferKit
package import UniformTypes

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `transferkit reencode`: the child side of `check --cross-process`. Reads an archive,
/// decodes and re-encodes every representation that has a registered reader, and writes the
/// archive back in the same form.
package struct ReencodeCommand: Command {
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

    /// `"reencode"`.
    package var name: String { "reencode" }
    /// One line of help.
    package var abstract: String { "Decode and re-encode every representation (the child of check --cross-process)." }
    /// What it does, and examples.
    package var discussion: String {
        """
        Every representation whose type has a registered reader is decoded and encoded again; the others, and the
        archive's structure, are copied as they are. The output has the input's form.

        EXAMPLES:
          transferkit reencode cards.transferkit -o cards-reencoded.transferkit
          transferkit reencode - -o - < cover.transferkit > cover-reencoded.transferkit
        """
    }

    /// The accepted options.
    package var signature: CommandSignature {
        CommandSignature(
            options: [
                .init(names: ["-o", "--output"], valueName: "OUT", help: "Where to write (- for stdout)."),
                DeclarationsOption.option,
            ],
            positionals: .init(name: "ARCHIVE", help: "The archive; - for standard input.", minimum: 1, maximum: 1)
        )
    }

    /// Re-encodes the archive.
    package func run(_ arguments: ParsedArguments, in context: CommandContext) async throws -> ExitCode {
        try DeclarationsOption.load(arguments, into: catalog)
        let file = try InputFile(path: arguments.positionals[0])
        let bytes = try file.readArchive()
        let format = try ArchiveFormatChoice.detect(bytes.prefix(64), name: file.displayName)
        let archive = try TransferArchive(decoding: bytes, format: format)
        // The archive's own declarations (format 1.1) teach the readers its types, as in `check`.
        let types = archive.carriedDeclarations(in: catalog).catalog
        let readers = registry ?? TransferKitTool.standardRegistry(catalog: catalog)
        let result = try await Reencoder(checker: RoundTripChecker(registry: readers.using(types))).reencode(archive)
        let encoded = try result.encoded(as: format)
        try await ArchiveOutput.write(
            toPath: arguments.value("--output"), isBinary: format == .cbor, context: context
        ) { sink in
            try sink.write(contentsOf: encoded)
        }
        return .success
    }
}
