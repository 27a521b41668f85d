import TransferKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `transferkit convert`: rewrites an archive in the other form (CBOR ⇄ JSON).
package struct ConvertCommand: Command {
    /// Creates the command.
    package init() {}

    /// `"convert"`.
    package var name: String { "convert" }
    /// One line of help.
    package var abstract: String { "Convert an archive between its CBOR and JSON forms." }
    /// Rules.
    package var discussion: String {
        """
        The output form comes from --format, else from the output's extension (.json for JSON),
        else it is the form the input is not. Every representation survives bit for bit.
        The archive is held in memory while converting (the JSON form is never streamed).

        EXAMPLES:
          transferkit convert cards.transferkit -o cards.transferkit.json
          transferkit convert cards.transferkit.json -o cards-again.transferkit
          transferkit convert cover.transferkit --format json -o -
        """
    }

    /// The accepted options.
    package var signature: CommandSignature {
        CommandSignature(
            options: [
                .init(
                    names: ["-o", "--output"], valueName: "OUT", isRequired: true,
                    help: "Where to write (- for stdout)."),
                .init(names: ["--format"], valueName: "cbor|json", help: "The output's form."),
            ],
            positionals: .init(name: "ARCHIVE", help: "The archive; - for standard input.", minimum: 1, maximum: 1)
        )
    }

    /// Converts the archive.
    package func run(_ arguments: ParsedArguments, in context: CommandContext) async throws -> ExitCode {
        let output = arguments.value("--output") ?? "-"
        let file = try InputFile(path: arguments.positionals[0])
        let limits = TransferArchive.Limits.default
        let bytes = try file.readArchive(limits: limits)
        let inputFormat = try ArchiveFormatChoice.detect(bytes.prefix(64), name: file.displayName)
        let archive = try TransferArchive(decoding: bytes, format: inputFormat, limits: limits)
        var format = inputFormat == .cbor ? TransferArchiveFormat.json : .cbor
        if arguments.value("--format") != nil || URL(fileURLWithPath: output).pathExtension.lowercased() == "json" {
            format = try ArchiveFormatChoice.output(arguments.value("--format"), path: output)
        }
        let encoded = try archive.encoded(as: format)
        try await ArchiveOutput.write(toPath: output, isBinary: format == .cbor, context: context) { sink in
            try sink.write(contentsOf: encoded)
        }
        return .success
    }
}
